"""Whether numba has already compiled and cached a kernel.

The first run after installation compiles the kernels (about 12 s for the
search, 3 s for perft); the command line says so once, before it starts.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

_PACKAGE = Path(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# the kernel files the search package's cached kernels inline
INLINED = ("state/_board.py", "state/_hashing.py", "state/_kernels.py", "state/_packing.py",
           "search/_kernels.py")


def cache_dir(package: str) -> Path:
    """Where numba caches the kernels of ``spidersolve/<package>/``.

    Beside the source (``__pycache__``), or, with ``NUMBA_CACHE_DIR`` set,
    in the folder numba names after the source folder and its path's SHA-1.
    """
    source = str(_PACKAGE / package)
    custom = os.environ.get("NUMBA_CACHE_DIR")
    if custom:
        return Path(custom) / f"{package}_{hashlib.sha1(source.encode()).hexdigest()}"
    return Path(source) / "__pycache__"


def _cache_files(package: str):
    return cache_dir(package).glob("*.nbi")


def is_compiled(package: str = "search", kernel: str = "search",
                module: str = "_kernels") -> bool:
    """True when numba's cache holds ``spidersolve/<package>/<module>.<kernel>``."""
    return any(p.name.startswith(f"{module}.{kernel}-") for p in _cache_files(package))


def drop_stale_search_cache() -> None:
    """Delete the search package's numba cache when a kernel file it inlines is newer.

    The search kernels inline the state kernels (apply, actions, hashes) and
    the line kernels (``_lines.py``) inline both, but numba's cache only
    notices changes to the file a kernel is defined in: an edit or a pull
    that touches only the state kernels (``INLINED``) would leave the search
    running the old rules. Called before the search kernels load.
    """
    try:
        changed = max((_PACKAGE / path).stat().st_mtime for path in INLINED)
    except OSError:
        return
    for index in list(_cache_files("search")):
        if index.name.startswith(("_kernels.", "_lines.")) and index.stat().st_mtime < changed:
            for stale in index.parent.glob(index.name.rsplit(".", 1)[0] + "*.nb[ic]"):
                stale.unlink(missing_ok=True)
