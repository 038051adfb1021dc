"""Whether numba has already compiled and cached a kernel.

The first run after installation compiles the kernels (about 12 s for the
search, 3 s for perft); the command line says so once, before it starts.
"""

from __future__ import annotations

import os
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent


def _cache_files(package: str):
    custom = os.environ.get("NUMBA_CACHE_DIR")
    if custom:
        return Path(custom).rglob("*.nbi")
    return (_PACKAGE / package / "__pycache__").glob("*.nbi")


def is_compiled(package: str = "search", kernel: str = "search") -> bool:
    """True when numba's cache holds ``spidersolve/<package>/_kernels.<kernel>``."""
    return any(p.name.startswith(f"_kernels.{kernel}-") for p in _cache_files(package))


def drop_stale_search_cache() -> None:
    """Delete the search kernels' numba cache when the state kernels are newer.

    The search kernels inline the state kernels (apply, actions, hashes), but
    numba's cache only notices changes to the file a kernel is defined in: an
    edit or a pull that touches only ``state/_kernels.py`` would leave the
    search running the old rules. Called before the search kernels load.
    """
    source = _PACKAGE / "state" / "_kernels.py"
    try:
        changed = source.stat().st_mtime
    except OSError:
        return
    for index in _cache_files("search"):
        if "_kernels." in index.name and index.stat().st_mtime < changed:
            for stale in index.parent.glob(index.name.rsplit(".", 1)[0] + "*.nb[ic]"):
                stale.unlink(missing_ok=True)
