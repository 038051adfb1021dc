"""The search kernel compiled ahead of time, so that a solve does not start numba.

A whole ``spidersolve solve`` used to spend about 0.25 s importing numba and
setting up its compiler, and 0.1 s more loading the cached kernels, before
its search began: more than the search of a typical four-suit deal. ``make
setup`` runs ``python -m spidersolve.search.build``, which compiles the
kernels in ``EXPORTS`` with numba's ahead-of-time compiler (``numba.pycc``)
into the extension module ``spidersolve/search/_native*.so``. That module
needs numpy only, and loads in a millisecond.

The extension is the same code as the numba kernel (``tests/test_native.py``
checks verdict, nodes, line and every array it returns on deals of 1, 2 and
4 suits), so which one runs never changes a result. It is used when:

- it was built from the kernel sources of this checkout: it holds the
  SHA-256 of those files (``source_key``), and an edit to any of them makes
  the search fall back to numba's kernel until the next build;
- ``SPIDERSOLVE_NATIVE`` is not ``0`` (tests set it to compare the two).

The extension lets go of Python's lock while it searches, as numba's ``nogil``
kernels do (``_releasing_the_gil``), so it runs on any thread: the honest
advisor's searches side by side on the cores, and Ctrl-C reaches it as it
reaches numba's kernels, through the stop flag ``interrupt.run_kernel``
passes. An extension built before it let go of the lock has another
``source_key`` (``BUILD``), so it is not used.

Otherwise nothing changes: numba's kernel runs, as before. ``numba.pycc`` is
pending deprecation in numba; if a later numba drops it, the build says so
and the search stays with numba's kernels.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import os
import shutil
import sys
import tempfile
import time
import warnings
from pathlib import Path

MODULE = "_native"  # spidersolve/search/_native.<abi>.so
# exported name: (module, kernel, numba signature of the kernel)
EXPORTS = {
    "search": (
        "spidersolve.search._kernels",
        "search",
        "Tuple((int32[::1], int32[::1], uint16[::1]))"
        "(int16[::1], boolean, int64, int64, int64, int64[:, ::1], uint64[:, :, :, ::1],"
        " uint64[:, :, ::1], int64[::1], int64[::1])",
    ),
}
DISABLE = "SPIDERSOLVE_NATIVE"  # "0": always numba's kernels
# How the extension is built, part of its key: one built otherwise is not used.
BUILD = "pycc, releases the GIL"

_loaded: dict = {}


def source_key() -> int:
    """The SHA-256 of ``BUILD``, the kernel sources and their names, as a signed 64-bit number."""
    from .compiled import _PACKAGE, kernel_sources

    digest = hashlib.sha256(BUILD.encode() + b"\0")
    for path in sorted(kernel_sources("search")):
        digest.update(str(path.relative_to(_PACKAGE)).encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return int.from_bytes(digest.digest()[:8], "little", signed=True)


def _module():
    """The extension module if it is built and current, else None (looked at once)."""
    if "module" not in _loaded:
        module = None
        try:
            module = importlib.import_module(f"{__package__}.{MODULE}")
            if module.source_key() != source_key():
                module = None
        except (ImportError, OSError, AttributeError):
            module = None
        _loaded["module"] = module
    return _loaded["module"]


def native_kernel(name: str):
    """The compiled kernel ``name`` of ``EXPORTS`` if it is built and current, else None."""
    if os.environ.get(DISABLE, "") == "0":
        return None
    module = _module()
    return getattr(module, name, None) if module is not None else None


def run_search_kernel(fallback, *args):
    """``fallback(*args, stop)`` (a numba kernel), or its compiled twin when usable.

    Either is run by ``interrupt.run_kernel``, which stops it on Ctrl-C.
    """
    from ..interrupt import run_kernel

    native = native_kernel(fallback.__name__)
    return run_kernel(fallback if native is None else native, *args)


def _key_function(value: int):
    def source_key():
        return value

    return source_key


@contextlib.contextmanager
def _releasing_the_gil():
    """Make ``numba.pycc`` build wrappers that let go of Python's lock while a kernel runs.

    ``numba.pycc`` has no option for it: its compiler builds every export with
    a fresh ``Flags()``, whose ``release_gil`` (``nogil=True`` in ``njit``) is
    off. For the length of the build its ``Flags`` is one with it on; the
    wrapper then releases the lock around the call, as a ``nogil`` dispatcher
    does, so searches on several threads run side by side.
    """
    from numba.pycc import compiler

    original = compiler.Flags

    class Flags(original):  # type: ignore[misc, valid-type]
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.release_gil = True

    compiler.Flags = Flags
    try:
        yield
    finally:
        compiler.Flags = original


def build(folder: Path | None = None) -> Path:
    """Compile ``EXPORTS`` into the extension module in ``folder`` (this package's).

    The module is compiled in a temporary folder and moved into place in one
    step, so a running search never sees half a file. Returns its path.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pycc's pending-deprecation notice
        from numba.pycc import CC

    from .._jit import load_numba

    folder = Path(folder) if folder is not None else Path(__file__).parent
    key = source_key()
    kernels = {}
    for name, (module_name, kernel, _) in EXPORTS.items():
        kernels[name] = getattr(importlib.import_module(module_name), kernel).py_func
    load_numba()  # the kernels' callees become numba dispatchers pycc can compile
    with tempfile.TemporaryDirectory(prefix="spidersolve-native-") as scratch:
        cc = CC(MODULE)
        cc.output_dir = scratch
        cc.target_cpu = "host"  # built where it runs, like numba's own kernels
        cc.verbose = False
        for name, (_, _, signature) in EXPORTS.items():
            cc.export(name, signature)(kernels[name])
        cc.export("source_key", "int64()")(_key_function(key))
        with warnings.catch_warnings(), _releasing_the_gil():
            warnings.simplefilter("ignore")
            cc.compile()
        built = Path(scratch) / cc.output_file
        target = folder / cc.output_file
        partial = folder / f".{cc.output_file}.partial"
        shutil.copyfile(built, partial)
        os.replace(partial, target)
    _loaded.clear()
    return target


def main(argv: list[str] | None = None) -> int:
    """``python -m spidersolve.search.build``: build the extension, say how long it took."""
    argv = sys.argv[1:] if argv is None else argv
    if argv not in ([], ["--quiet"]):
        print("usage: python -m spidersolve.search.build [--quiet]", file=sys.stderr)
        return 2
    started = time.perf_counter()
    try:
        target = build()
    except Exception as err:  # no compiler, a numba without pycc: numba's kernels serve
        print(f"native search kernel not built ({err}); numba's kernels will run", file=sys.stderr)
        return 1
    if not argv:
        seconds = time.perf_counter() - started
        print(f"built {target.name} in {seconds:.1f} s", file=sys.stderr)
    return 0
