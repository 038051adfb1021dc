"""Run a numba kernel so that Ctrl-C stops it within a fraction of a second.

Python handles a signal only in the main thread, between bytecodes, so a
kernel that runs for minutes in the main thread does not see Ctrl-C until it
returns. The kernels this module runs are compiled with ``nogil=True`` and
take a stop flag (``int64[1]``) as their last argument, which they poll every
few thousand nodes. ``run_kernel`` calls the kernel in a worker thread while
the main thread waits on it; on ``KeyboardInterrupt`` the main thread sets the
flag, waits for the kernel to return (milliseconds) and raises again, so
nothing is left half-done behind the caller's back. Outside the main thread
(a Dask worker thread, a test runner's thread) no signal can arrive, and the
kernel is simply called.

>>> import numpy as np
>>> run_kernel(lambda a, stop: a + int(stop[0]), 41)
41
"""

from __future__ import annotations

import threading

import numpy as np


def new_flag() -> np.ndarray:
    """A stop flag: one int64 cell, 0 until the kernel is asked to stop."""
    return np.zeros(1, np.int64)


def run_kernel(kernel, *args):
    """``kernel(*args, stop)``, stopped through ``stop`` on Ctrl-C.

    Returns what the kernel returns; re-raises ``KeyboardInterrupt`` once the
    kernel has stopped, and any exception the kernel raised.
    """
    stop = new_flag()
    if threading.current_thread() is not threading.main_thread():
        return kernel(*args, stop)
    box: dict = {}

    def target():
        try:
            box["value"] = kernel(*args, stop)
        except BaseException as err:  # handed to the caller's thread below
            box["error"] = err

    worker = threading.Thread(target=target, name="spidersolve-kernel", daemon=True)
    worker.start()
    try:
        worker.join()  # interruptible: the lock wait returns on a signal
    except KeyboardInterrupt:
        stop[0] = 1
        worker.join()
        raise
    if "error" in box:
        raise box["error"]
    return box["value"]
