"""Writing files so that a failure never leaves a partial one.

Every file the toolkit writes (Parquet results, CSV hints, PNG/SVG/PDF
plots) is written to a temporary file in the same folder, flushed and
synced, then renamed over its final name with ``os.replace``. On any error
(a full disk, Ctrl-C, a bug) the temporary file is removed and the old file,
if any, is left as it was. Temporary files are named ``.NAME.RANDOM.tmp``.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_atomic(folder / "a.txt", lambda f: f.write(b"hello"))
>>> (folder / "a.txt").read_bytes()
b'hello'
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Callable

# read once: os.umask can only be read by setting it, which is not thread-safe
_UMASK = os.umask(0)
os.umask(_UMASK)


def temp_prefix(path: Path) -> str:
    """How the temporary files for ``path`` start (``.NAME.``)."""
    return f".{Path(path).name}."


def write_atomic(path, write: Callable, text: bool = False) -> None:
    """Call ``write(handle)`` on a temporary file, then rename it to ``path``.

    ``text``: the handle is a UTF-8 text file (newlines untranslated);
    otherwise it is binary. The file is created with mode 0644 less the umask.
    """
    path = Path(path)
    folder = path.parent
    fd, tmp = tempfile.mkstemp(prefix=temp_prefix(path), suffix=".tmp", dir=folder)
    try:
        os.fchmod(fd, 0o644 & ~_UMASK)  # mkstemp makes 0600
        if text:
            handle = os.fdopen(fd, "w", encoding="utf-8", newline="")
        else:
            handle = os.fdopen(fd, "wb")
        with handle:
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    sync_dir(folder)


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
