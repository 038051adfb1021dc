"""``njit`` that loads numba at a kernel's first call, not when its module is imported.

Importing numba and setting up its compiler take about 0.25 s, more than a
whole search of a typical deal. A command that runs the search from the
compiled extension (``spidersolve.native``) never calls a numba kernel, so it
should not pay for numba: the kernel modules decorate with this ``njit``,
which records the function and its options and returns a ``LazyKernel``.

Where numba can cache nothing (the package folder read-only and no
writable user cache folder), the kernels are compiled in memory, without
the cache, and one note on stderr says so.

The first call of any ``LazyKernel`` (or a look at an attribute numba's
dispatcher has) imports numba, makes the dispatcher of every kernel recorded
so far, in the order they were defined, and replaces each ``LazyKernel`` in
the globals of every loaded ``spidersolve`` module with its dispatcher. So
numba, compiling a kernel, finds its callees as dispatchers in the kernel's
globals, as with numba's own ``njit``; and once numba is loaded, ``njit``
returns numba's dispatcher directly.

>>> @njit(cache=False)
... def twice(x):
...     return 2 * x
>>> twice(21)
42
"""

from __future__ import annotations

import functools
import sys
import threading
from typing import Any

_numba: Any = None  # the numba module, once loaded
_pending: list[LazyKernel] = []
_lock = threading.Lock()
NO_CACHE_NOTE = (
    "note: numba finds no writable folder to cache the compiled kernels in "
    "(set NUMBA_CACHE_DIR to one): they are compiled again on every run"
)


class LazyKernel:
    """A kernel whose numba dispatcher is made at the first call (see the module)."""

    def __init__(self, func, options: dict):
        functools.update_wrapper(self, func)
        self.py_func = func
        self.options = options
        self.dispatcher: Any = None

    def __call__(self, *args):
        return self.load()(*args)

    def __getattr__(self, name):  # numba's dispatcher attributes (signatures, ...)
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.load(), name)

    def load(self):
        """The numba dispatcher (loading numba on the first call of the process)."""
        if self.dispatcher is None:
            load_numba()
        return self.dispatcher

    def __repr__(self):
        state = "loaded" if self.dispatcher is not None else "not loaded"
        return f"<kernel {self.__module__}.{self.__qualname__} ({state})>"


def njit(**options):
    """``numba.njit(**options)``, loaded at the first call of a kernel of the process."""

    def decorate(func):
        if _numba is not None:
            return _numba.njit(**options)(func)
        kernel = LazyKernel(func, options)
        with _lock:
            _pending.append(kernel)
        return kernel

    return decorate


def numba_loaded() -> bool:
    """True once a kernel has made this process import numba."""
    return _numba is not None


def load_numba() -> None:
    """Import numba and turn every recorded kernel into its dispatcher (once)."""
    global _numba
    with _lock:
        if _numba is not None:
            return
        import numba

        uncached = False  # numba found no folder to cache in: compile in memory
        for kernel in _pending:
            options = kernel.options
            if uncached and options.get("cache"):
                options = {**options, "cache": False}
            try:
                kernel.dispatcher = numba.njit(**options)(kernel.py_func)
            except RuntimeError as error:
                if not options.get("cache") or "cannot cache" not in str(error):
                    raise
                uncached = True
                kernel.dispatcher = numba.njit(**{**options, "cache": False})(kernel.py_func)
        if uncached:
            print(NO_CACHE_NOTE, file=sys.stderr, flush=True)
        dispatchers = {id(kernel): kernel.dispatcher for kernel in _pending}
        for module in list(sys.modules.values()):
            name = getattr(module, "__name__", "")
            if name != "spidersolve" and not name.startswith("spidersolve."):
                continue
            space = vars(module)
            for key, value in list(space.items()):
                if isinstance(value, LazyKernel) and id(value) in dispatchers:
                    space[key] = dispatchers[id(value)]
        _pending.clear()
        _numba = numba
