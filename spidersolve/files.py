"""Writing files a person asked for (a solution page, a saved game) atomically."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .errors import SpiderError


def write_text_atomic(path, text: str) -> Path:
    """Write ``text`` (UTF-8) so that ``path`` is either its old self or whole.

    The text goes to a temporary file in the same folder, is flushed to disk,
    and is renamed over ``path``. A failure is a ``SpiderError`` naming the
    file; no temporary file is left behind.
    """
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as err:
        raise SpiderError(f"cannot write '{path}': {err.strerror or err}") from None
    try:
        os.fchmod(fd, 0o644)  # mkstemp makes 0600; these files are for the user to open
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException as err:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if isinstance(err, OSError):
            raise SpiderError(f"cannot write '{path}': {err.strerror or err}") from None
        raise
    return path
