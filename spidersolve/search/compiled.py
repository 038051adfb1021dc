"""Numba's cache of the kernels: whether a kernel is compiled, and dropping stale files.

The first run after installation compiles the kernels (about 12 s for the
search, 3 s for perft); the command line says so once, before it starts.

Numba's cache only notices changes to the file a kernel is defined in, not
to the kernels it inlines from other files: the search kernels inline the
state kernels (apply, actions, hashes) and each other, so an edit or a pull
that touches only the state kernels would leave the search running the
old rules. ``drop_stale_caches`` deletes the search's cache files older than
any kernel source; the search calls it once, before its first kernel call
(``fresh_kernels``), never at import, and no file error escapes it.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

_PACKAGE = Path(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# the packages whose kernels each package's kernels inline (itself included)
INLINES = {"state": ("state",), "search": ("state", "search")}


def cache_dir(package: str) -> Path:
    """Where numba caches the kernels of ``spidersolve/<package>/``.

    Beside the source (``__pycache__``), or, with ``NUMBA_CACHE_DIR`` set to
    a folder that can be written (or made), in the folder numba names after
    the source folder and its path's SHA-1.
    """
    source = str(_PACKAGE / package)
    custom = os.environ.get("NUMBA_CACHE_DIR")
    if custom and _writable(Path(custom)):  # else numba falls back to the source folder
        return Path(custom) / f"{package}_{hashlib.sha1(source.encode()).hexdigest()}"
    return Path(source) / "__pycache__"


def _writable(folder: Path) -> bool:
    """True if ``folder`` is a folder this process can write in, or can make."""
    try:
        while not folder.exists():
            if folder.parent == folder:
                return False
            folder = folder.parent
        return folder.is_dir() and os.access(folder, os.W_OK)
    except OSError:
        return False


def kernel_sources(package: str = "search") -> list[Path]:
    """The source files whose kernels those of ``spidersolve/<package>/`` may inline.

    Every module of the packages in ``INLINES[package]`` that defines a numba
    kernel (a line starts with ``@njit``) and every private module there
    (``_board.py``: numba freezes the constants a kernel reads), however the
    kernels are split in files.
    """
    sources = []
    for folder in INLINES.get(package, (package,)):
        try:
            paths = sorted((_PACKAGE / folder).glob("*.py"))
        except OSError:
            continue
        for path in paths:
            try:
                private = path.name.startswith("_") and path.name != "__init__.py"
                if private or re.search(r"^@njit", path.read_text(encoding="utf-8"), re.M):
                    sources.append(path)
            except (OSError, UnicodeDecodeError):
                continue
    return sources


def _newest_source(package: str) -> float | None:
    times = []
    for path in kernel_sources(package):
        try:
            times.append(path.stat().st_mtime)
        except OSError:
            continue
    return max(times) if times else None


def _cache_files(package: str) -> list[Path]:
    try:
        return list(cache_dir(package).glob("*.nbi"))
    except OSError:
        return []


def is_compiled(package: str = "search", kernel: str = "search", module: str = "_kernels") -> bool:
    """True when numba's cache holds ``spidersolve/<package>/<module>.<kernel>``.

    An index file older than a kernel source it may inline is stale: numba
    will compile again, so it does not count.
    """
    newest = _newest_source(package) or 0.0
    for index in _cache_files(package):
        if index.name.startswith(f"{module}.{kernel}-"):
            try:
                if index.stat().st_mtime >= newest:
                    return True
            except OSError:
                continue
    return False


def drop_stale_caches(package: str = "search") -> int:
    """Delete the cache files of ``package``'s kernels older than a kernel source.

    Returns how many files went. Does nothing when the cache folder is
    missing or not writable (a read-only install); a file that cannot be
    read or deleted is left as it is.
    """
    newest = _newest_source(package)
    folder = cache_dir(package)
    try:
        if newest is None or not folder.is_dir() or not os.access(folder, os.W_OK):
            return 0
    except OSError:
        return 0
    dropped = 0
    for index in _cache_files(package):
        try:
            if index.stat().st_mtime >= newest:
                continue
            for stale in folder.glob(index.name.rsplit(".", 1)[0] + "*.nb[ic]"):
                stale.unlink(missing_ok=True)
                dropped += 1
        except OSError:
            continue
    return dropped


def drop_stale_search_cache() -> None:
    """``drop_stale_caches("search")``: the name callers used before."""
    drop_stale_caches("search")


_checked = False


def fresh_kernels() -> None:
    """Before the first search kernel call of the process: drop stale cache files once."""
    global _checked
    if not _checked:
        _checked = True
        for package in ("state", "search"):
            try:
                drop_stale_caches(package)
            except OSError:  # never stop a search over the cache
                pass
