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
