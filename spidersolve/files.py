"""Writing files so that a failure never leaves a partial one.

Every file the toolkit writes (Parquet results, CSV hints, PNG/SVG/PDF
plots, the HTML solution page, a saved game) is written to a temporary file
in the same folder, flushed and synced, then renamed over its final name
with ``os.replace``. On any error (a full disk, Ctrl-C, a bug) the temporary
file is removed and the old file, if any, is left as it was. Temporary files
are named ``.NAME.RANDOM.tmp``. A symbolic link is written through (its
target is replaced, the link kept); a path that is there but is not a
regular file (a folder, a device such as ``/dev/full``, a FIFO) is refused,
never replaced.

``write_atomic`` is the one writer (``write_all_atomic`` for files that go
together: all or none renamed); ``write_asked`` (and ``write_text_atomic``
for a text) writes a file a person asked for and turns an ``OSError`` into a
one-line ``SpiderError``.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_atomic(folder / "a.txt", lambda f: f.write(b"hello"))
>>> (folder / "a.txt").read_bytes()
b'hello'
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import stat
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

from .errors import SpiderError, shown_path

# read once: os.umask can only be read by setting it, which is not thread-safe
_UMASK = os.umask(0)
os.umask(_UMASK)


def temp_prefix(path: Path) -> str:
    """How the temporary files for ``path`` start (``.NAME.``)."""
    return f".{Path(path).name}."


def write_atomic(path, write: Callable, text: bool = False) -> None:
    """Call ``write(handle)`` on a temporary file, then rename it to ``path``.

    ``text``: the handle is a UTF-8 text file (newlines untranslated);
    otherwise it is binary. A new file gets mode 0644 less the umask; a file
    written again keeps its mode. Raises ``OSError`` before anything is
    written for a path that is there and is not a regular file (strerror
    "not a regular file") or that this process may not write (EACCES,
    "read-only file"): a rename would replace even a file its owner made
    read-only.
    """
    write_all_atomic([(path, write)], text=text)


def write_all_atomic(items, text: bool = False) -> None:
    """``write_atomic`` for several files (``(path, write)`` pairs) that go together.

    Every file is written to its temporary file first; only then are they
    renamed, one after the other with Ctrl-C and ``kill`` held back (it
    takes effect once all are renamed). So a failure or a signal while
    writing leaves every old file, and one after leaves every new one:
    never some old and some new.
    """
    staged: list[tuple[str, Path]] = []
    path = None
    try:
        for path, write in items:
            staged.append(_staged(path, write, text))
        with _signals_held():
            for tmp, path in staged:
                os.replace(tmp, path)
    except BaseException as err:
        if isinstance(err, OSError):
            err.written = path  # type: ignore[attr-defined]  # the file it failed on
        for tmp, _path in staged:
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
        raise
    for folder in dict.fromkeys(path.parent for _tmp, path in staged):
        sync_dir(folder)


def _staged(path, write: Callable, text: bool) -> tuple[str, Path]:
    """The temporary file ``write`` filled, synced, for ``path``: (its name, the path
    it will be renamed to). Raises as ``write_atomic`` does, leaving no file."""
    path = Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        mode = None  # not there: the temporary file below fails if it cannot be made
    if mode is not None and not stat.S_ISREG(mode):
        raise OSError(errno.EEXIST, "not a regular file", str(path))
    if mode is not None and not os.access(path, os.W_OK):
        raise OSError(errno.EACCES, "read-only file", str(path))
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=temp_prefix(path), suffix=".tmp", dir=folder)
    try:
        # mkstemp makes 0600
        os.fchmod(fd, stat.S_IMODE(mode) if mode is not None else 0o644 & ~_UMASK)
        if text:
            handle = os.fdopen(fd, "w", encoding="utf-8", newline="")
        else:
            handle = os.fdopen(fd, "wb")
        with handle:
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    return tmp, folder / path.name


@contextlib.contextmanager
def _signals_held():
    """Hold SIGINT and SIGTERM back in the block (the main thread only; elsewhere
    Python delivers no signal anyway): a signal sent meanwhile acts after it."""
    held = {signal.SIGINT, signal.SIGTERM}
    if threading.current_thread() is not threading.main_thread() or not hasattr(
        signal, "pthread_sigmask"
    ):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _name_problem(path: str, folder: bool = False) -> str | None:
    """Why ``path`` cannot name a file: it holds a NUL byte (no system call takes
    it), or, for a file, it ends with a path separator (``Path`` would drop it
    and write the file); else None."""
    if "\0" in path:
        return f"cannot write '{shown_path(path)}': a file name cannot hold a NUL byte"
    if folder:
        return None
    if path.endswith(("/", os.sep)) or (os.altsep is not None and path.endswith(os.altsep)):
        return f"cannot write '{shown_path(path)}': a name that ends with '/' is a folder's"
    return None


def output_problem(
    path: str, folder: bool = False, read_only_ok: bool = False, probe: bool = True
) -> str | None:
    """Why ``path`` cannot be written (a file, or with ``folder`` a folder to
    make or fill), or None when nothing stands in the way yet. ``read_only_ok``:
    a folder that is there may be read-only (its writer checks when it writes).
    ``probe``: for a file, make and delete a temporary file beside it, as its
    writer will (a folder may take no new file whatever its permissions say).

    Checked before any work, so a command refuses at once, not after a long
    run or with half its output printed.

    >>> output_problem("")
    'an empty name'
    >>> output_problem("/no/such/folder/x.png")
    "cannot write '/no/such/folder/x.png': no such folder '/no/such/folder'"
    """
    if not path:
        return "an empty name"
    problem = _name_problem(path, folder)
    if problem:
        return problem
    target = Path(path)
    try:
        mode = os.stat(target).st_mode
    except (FileNotFoundError, NotADirectoryError):
        mode = None
        if folder and os.path.islink(target):  # it cannot be made where the link is
            return f"'{shown_path(path)}' is a symbolic link that leads to no folder (its target is gone)"
    except OSError as err:
        return f"cannot write '{shown_path(path)}': {err.strerror or err}"
    if mode is not None:
        if folder and not stat.S_ISDIR(mode):
            return f"'{shown_path(path)}' is there and is not a folder"
        if not folder and stat.S_ISDIR(mode):
            return f"'{shown_path(path)}' is a folder, not a file"
        if not folder and not stat.S_ISREG(mode):
            return f"'{shown_path(path)}' is not a regular file"
        if not read_only_ok and not os.access(target, os.W_OK | (os.X_OK if folder else 0)):
            return f"cannot write '{shown_path(path)}': it is read-only"
        if folder:
            return None
    above = Path(os.path.realpath(target)).parent if os.path.islink(target) else target.parent
    if folder:  # made with its parents: the nearest one there must be a folder
        while not os.path.lexists(above) and above != above.parent:
            above = above.parent
    elif not os.path.lexists(above):
        return f"cannot write '{shown_path(path)}': no such folder '{shown_path(above)}'"
    if not os.path.isdir(above):
        return f"cannot write '{shown_path(path)}': '{shown_path(above)}' is not a folder"
    if not os.access(above, os.W_OK | os.X_OK):
        return f"cannot write '{shown_path(path)}': the folder '{shown_path(above)}' is read-only"
    if not folder and probe:  # a file is written as a temporary file beside it: make one
        return _probe(path, target, above)
    return None


def input_problem(path: str, source, what: str) -> str | None:
    """Why writing ``path`` would destroy what the command reads, or None.

    ``source`` is what it reads: a file (writing ``path`` would replace it,
    through a link too) or a folder of batch results (``path`` would replace
    its ``results.parquet`` or one of its part files). ``what`` names it in
    the message.

    >>> input_problem("a.html", "SP1-S1C-AAAAAAD", "the position") is None
    True
    """
    try:
        if os.path.isfile(source):
            same = os.path.lexists(path) and os.path.samefile(path, source)
        elif os.path.isdir(source):
            name = Path(path).name
            inside = os.path.realpath(Path(path).parent) == os.path.realpath(source)
            same = inside and (name == "results.parquet" or name.startswith("part-"))
        else:
            return None
    except (OSError, ValueError):
        return None
    if same:
        return f"'{shown_path(path)}' would replace {what} it reads: choose another name"
    return None


def _probe(path: str, target: Path, above: Path) -> str | None:
    """Make a temporary file in ``above`` as ``write_atomic`` would for ``target``,
    and delete it; why that failed, or None."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=temp_prefix(target), suffix=".tmp", dir=above)
    except OSError as err:
        return f"cannot write '{shown_path(path)}': {err.strerror or err}"
    try:
        os.close(fd)
    finally:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        except OSError as err:  # made but not deleted (an append-only folder): not writable
            return f"cannot write '{shown_path(path)}': {err.strerror or err}"
    return None


def write_asked(path, write: Callable, text: bool = False) -> Path:
    """``write_atomic`` for a file a person asked for: a failure is a
    ``SpiderError`` naming the file, and no temporary file is left behind."""
    problem = _name_problem(str(path))
    if problem:
        raise SpiderError(problem)
    path = Path(path)
    try:
        write_atomic(path, write, text=text)
    except OSError as err:
        raise SpiderError(f"cannot write '{path}': {err.strerror or err}") from None
    return path


def write_all_asked(items) -> list[Path]:
    """``write_all_atomic`` for files a person asked for, as ``write_asked`` does one."""
    for path, _write in items:
        problem = _name_problem(str(path))
        if problem:
            raise SpiderError(problem)
    try:
        write_all_atomic([(Path(path), write) for path, write in items])
    except OSError as err:
        name = getattr(err, "written", None) or err.filename
        raise SpiderError(f"cannot write '{name}': {err.strerror or err}") from None
    return [Path(path) for path, _write in items]


def write_text_atomic(path, text: str) -> Path:
    """Write ``text`` (UTF-8) so that ``path`` is either its old self or whole
    (``write_asked``)."""
    return write_asked(path, lambda handle: handle.write(text), text=True)


def sync_dir(folder) -> None:
    """Make a rename in ``folder`` durable; not every platform can open a folder."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
