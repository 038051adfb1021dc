"""Whether numba has already compiled and cached the search kernels.

The first run after installation compiles them (tens of seconds); the
command line says so once, before it starts.
"""

from __future__ import annotations

import os
from pathlib import Path


def _cache_dirs():
    here = Path(__file__).resolve().parent
    custom = os.environ.get("NUMBA_CACHE_DIR")
    if custom:
        yield from Path(custom).rglob("*")
    else:
        yield from (here / "__pycache__").glob("*")


def search_is_compiled() -> bool:
    """True when numba's cache holds the search kernel."""
    return any(p.name.startswith("_kernels.search-") and p.suffix == ".nbi"
               for p in _cache_dirs())
