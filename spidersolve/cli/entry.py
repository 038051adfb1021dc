"""The ``spidersolve`` console script: signals are handled before anything is imported.

Python starts the script with Ctrl-C raising ``KeyboardInterrupt`` and
SIGTERM killing the process. ``cli.main`` takes both over once it is
loaded, but loading it (click, the commands' modules) takes about 0.1 s,
and a Ctrl-C in that time printed a traceback. So this module, which
imports nothing heavy, first makes both signals end the process at once
with the command line's line and status (nothing has been read or written
yet), then loads ``cli.main`` and hands over to it with Python's own
handlers put back, which ``cli.main`` builds on. Once the command has
ended (its output and status are set), both signals are ignored while
Python shuts down. Only the first few milliseconds, while Python itself
starts and imports this module, are out of reach.
"""

import os
import signal
import sys


def _stop_while_loading(signum, frame):
    words, status = (
        ("terminated", 128 + signal.SIGTERM) if signum == signal.SIGTERM else ("interrupted", 130)
    )
    try:
        os.write(2, f"error: {words}\n".encode())
    except OSError:
        pass
    os._exit(status)


def main():
    previous = {
        sig: signal.signal(sig, _stop_while_loading) for sig in (signal.SIGINT, signal.SIGTERM)
    }
    from .main import main as run

    for sig, handler in previous.items():
        signal.signal(sig, handler)
    try:
        sys.exit(run())
    finally:  # the command has ended and said so: a late signal does not change that
        for sig in previous:
            signal.signal(sig, signal.SIG_IGN)
