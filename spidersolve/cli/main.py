"""The click group; each command lives in its own module of this package."""

from __future__ import annotations

import difflib
import errno
import importlib
import io
import os
import re
import signal
import sys
import threading

import click

from .. import __version__
from ..errors import SpiderError, Terminated, error_line, keep_lost_interrupts, shown

# click >= 8.2 raises this for a bare ``spidersolve``: show the help, not an error line.
_NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())

# Each command and the module of this package that defines it (in that
# module's COMMANDS list). Modules are imported only when their command runs,
# so a hint does not pay for pandas or dask.
COMMANDS = {
    "deal": "deal",
    "actions": "actions",
    "replay": "replay",
    "perft": "perft",
    "code": "code",
    "codes": "code",
    "solve": "solve",
    "hint": "solve",
    "play": "play",
    "show": "show",
    "batch": "batch",
    "stats": "stats",
    "hints": "stats",
    "autoplay": "autoplay",
}


class SpiderGroup(click.Group):
    """Turns every user error into one ``error:`` line and exit status 2.

    Commands are loaded from their modules on first use (see COMMANDS).
    """

    def list_commands(self, ctx):
        return sorted(COMMANDS)

    def get_command(self, ctx, name):
        module_name = COMMANDS.get(name)
        if module_name is None:
            return None
        return self._load(module_name, name)

    def resolve_command(self, ctx, args):
        name = args[0] if args else ""
        if name not in COMMANDS and not name.startswith("-"):
            close = difflib.get_close_matches(name, COMMANDS, n=1, cutoff=0.6)
            near = f"; did you mean '{close[0]}'?" if close else ""
            raise click.UsageError(f"no such command '{shown(name)}'{near}", ctx)
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx, formatter):
        """The command list with each summary whole (click cuts them at 45 characters)."""
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=10_000)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def _load(self, module_name, name):
        module = importlib.import_module(f"{__package__}.{module_name}")
        for command in module.COMMANDS:
            if command.name == name:
                return command
        raise LookupError(f"module {module_name} defines no command {name!r}")

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as err:
            # the search kernels stop on their flag (spidersolve.interrupt); files
            # are written atomically, so there is nothing half-written to clean
            _stopped(err, lambda status: ctx.exit(status))
        except SpiderError as err:
            click.echo(f"error: {error_line(str(err))}", err=True)
            ctx.exit(2)
        except (OSError, MemoryError) as err:
            if getattr(err, "errno", None) == errno.EPIPE:
                _quiet_stdout()  # a closed pipe (``| head``) is not an error
                ctx.exit(0)
            click.echo(f"error: {error_line(_os_message(err))}", err=True)
            ctx.exit(2)

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        """Like click's, but a usage error is one ``error:`` line and status 2."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except _NO_ARGS_IS_HELP as err:
            err.show()  # the help text, as click prints it
            sys.exit(err.exit_code)
        except click.ClickException as err:  # UsageError, BadParameter, ...
            where = getattr(err, "ctx", None)
            hint = f" (see '{where.command_path} --help')" if where is not None else ""
            message = err.format_message()
            if isinstance(err, click.NoSuchOption) and _NEGATIVE.fullmatch(err.option_name):
                message = (
                    f"'{err.option_name}': a negative number is read as an option, and "
                    "no option or argument here takes one"
                )
            click.echo(f"error: {error_line(message)}{hint}", err=True)
            sys.exit(2)
        except click.Abort as err:
            cause = err.__context__
            _stopped(cause if isinstance(cause, Terminated) else err, sys.exit)
        sys.exit(code if isinstance(code, int) else 0)


# a token click read as an unknown option that is a negative number (perft SRC -1)
_NEGATIVE = re.compile(r"-[0-9][0-9_.,eE+-]*")


def _show_version(ctx: click.Context, _param, value: bool) -> None:
    """``--version``: the version and the revision of the code that decides
    results (``spidersolve.revision``, as a batch row's ``version`` has it)."""
    if not value or ctx.resilient_parsing:
        return
    from ..revision import code_revision

    click.echo(f"spidersolve, version {__version__} (code {code_revision()})")
    ctx.exit()


@click.group(cls=SpiderGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--version",
    "-V",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_show_version,
    help="Show the version, and the revision of the rules and search code, and exit.",
)
def cli():
    """Spider Solitaire: deals, rules, a proving solver, hints and win rates."""


def _quiet_stdout() -> None:
    """Point standard output at /dev/null, so that nothing fails to flush at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


STDOUT = "standard output"  # the file name of an OSError raised writing it


class _StdoutRaw(io.FileIO):
    """Standard output's file descriptor, whose write errors name it."""

    def write(self, data):
        try:
            return super().write(data)
        except OSError as err:
            raise OSError(err.errno, err.strerror, STDOUT) from None


def _naming_stdout():
    """``sys.stdout`` on a ``_StdoutRaw``, or None where it is a terminal or no file.

    A full disk or a broken device then says ``cannot write to standard
    output`` rather than a bare errno (a file's write errors name the file).
    """
    try:
        if sys.stdout is not sys.__stdout__ or sys.stdout.isatty():
            return None
        fd = sys.stdout.fileno()
        sys.stdout.flush()
    except (OSError, ValueError, AttributeError):
        return None
    raw = _StdoutRaw(fd, "w", closefd=False)
    unbuffered = sys.stdout.write_through  # python -u, PYTHONUNBUFFERED
    return io.TextIOWrapper(
        raw if unbuffered else io.BufferedWriter(raw),
        encoding=sys.stdout.encoding,
        errors=sys.stdout.errors,
        line_buffering=sys.stdout.line_buffering,
        write_through=unbuffered,
    )


def _os_message(err: BaseException) -> str:
    """The error line's text for ``err``; a write to standard output that failed also
    points it at /dev/null, so that what is left in its buffer is not written again."""
    if isinstance(err, OSError) and err.filename == STDOUT:
        _quiet_stdout()
        return f"cannot write to {STDOUT}: {err.strerror}"
    return str(err) or "out of memory"


def _terminate(signum, frame):
    raise Terminated()


def _stopped(err: BaseException, exit_with) -> None:
    """The one line for a command stopped by Ctrl-C or SIGTERM, and its status."""
    if isinstance(err, Terminated):
        click.echo("error: terminated", err=True)
        exit_with(128 + signal.SIGTERM)
    click.echo("error: interrupted", err=True)
    exit_with(130)


def main(argv=None):
    # SIGTERM, what ``kill`` and job systems send, stops a command as Ctrl-C
    # does (the kernels stop on their flag, a batch ends its workers), where by
    # default it killed the process mid-step; the main thread only (signal's rule),
    # and put back after, for a caller that runs main() in its own process
    if sys.stdout is None:  # started with it closed (``>&-``): every command prints
        if sys.stderr is not None:
            print("error: standard output is closed", file=sys.stderr)
        sys.exit(2)
    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminate) if main_thread else None
    original, named = sys.stdout, _naming_stdout()
    if named is not None:
        sys.stdout = named
    try:
        try:
            with keep_lost_interrupts():
                cli.main(args=argv, prog_name="spidersolve", standalone_mode=True)
        finally:
            sys.stdout.flush()  # a closed pipe shows here, not at exit
    except BrokenPipeError:
        _quiet_stdout()
        sys.exit(0)
    except KeyboardInterrupt as err:
        _stopped(err, sys.exit)
    except OSError as err:  # the last flush
        print(f"error: {error_line(_os_message(err))}", file=sys.stderr)
        sys.exit(2)
    finally:
        if named is not None:
            sys.stdout = original
        if main_thread and previous is not None:
            signal.signal(signal.SIGTERM, previous)
