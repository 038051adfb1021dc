"""Which code decided a result: the version of spidersolve and a fingerprint
of the code that plays and searches.

``__version__`` alone does not tell two searches apart: it stays the same
while the search changes, and a deal unknown with one may be won with the
next. So every row of ``batch`` records ``row_version()``, the version and
``code_revision()``, for example ``0.1.0+3f2a9c1b7d04``: 12 hex digits of a
SHA-256 of the code of the rules and the search (``DECIDING``: the modules
of ``spidersolve/state`` and ``spidersolve/search``, and ``cards.py`` and
``_jit.py``), each module parsed and its syntax tree written out without
comments, docstrings or layout, and without the fields a Python version
adds to the tree when they are empty, so that a change of wording or
layout keeps the revision and a change of that code makes a new one.
Other code (the command line, the batch's bookkeeping) is not in it.
``batch`` refuses to add rows of one revision to results made by another
unless told to (``--mixed-versions``), and ``stats`` says when a results
folder mixes them.

>>> row_version().startswith(__version__ + "+")
True
>>> len(code_revision())
12
"""

from __future__ import annotations

import ast
import hashlib
import stat
from functools import lru_cache
from pathlib import Path

from . import __version__

# The code that decides a verdict, a line or an honest decision: packages
# (every module in them) and modules of the top level.
DECIDING = ("state", "search", "cards.py", "_jit.py")
# When the sources cannot be read (an installation without them); never the
# same code as anything, not even another UNKNOWN (batch._check_versions).
UNKNOWN = "unknown"


def _strip_docstrings(tree: ast.AST) -> ast.AST:
    """The tree without its docstrings (module, class and function)."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if (
                body
                and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)
            ):
                node.body = body[1:] or [ast.Pass()]
    return tree


def _written(node) -> str:
    """A syntax tree as text: node names and fields, empty fields left out (Python
    3.12 added ``type_params`` to every function, empty in this code, and 3.13
    leaves empty fields out of ``ast.dump``), positions and comments not kept."""
    if isinstance(node, ast.AST):
        fields = [
            f"{name}={_written(value)}"
            for name, value in ast.iter_fields(node)
            if value is not None and value != []
        ]
        return f"{type(node).__name__}({','.join(fields)})"
    if isinstance(node, list):
        return "[" + ",".join(_written(item) for item in node) + "]"
    return f"{type(node).__name__}:{node!r}"


def source_fingerprint(text: str) -> str:
    """The code of one module's source, without comments, docstrings or layout.

    >>> source_fingerprint("x = 1  # one") == source_fingerprint('"Doc."\\nx = (1)')
    True
    >>> source_fingerprint("x = 1") == source_fingerprint("x = 2")
    False
    """
    return _written(_strip_docstrings(ast.parse(text)))


@lru_cache(maxsize=1)
def code_revision() -> str:
    """12 hex digits of the SHA-256 of the deciding code (``UNKNOWN`` without sources).

    Computed once a process (about a third of a second): only ``batch``
    writes it.
    """
    return revision_of(Path(__file__).resolve().parent)


def _modules(root: Path) -> list[tuple[str, Path]]:
    """The deciding modules under ``root``: (name, path), sorted by name. Only
    regular ``.py`` files that are not hidden (an editor's lock file is not code)."""
    found = []
    for part in DECIDING:
        path = root / part
        paths = sorted(path.iterdir()) if not part.endswith(".py") else [path]
        for item in paths:
            if item.suffix != ".py" or item.name.startswith("."):
                continue
            try:
                regular = stat.S_ISREG(item.stat().st_mode)
            except OSError:  # a broken link
                continue
            if regular:
                found.append((item.relative_to(root).as_posix(), item))
    return sorted(found)


def revision_of(root: Path) -> str:
    """``code_revision`` of the package at ``root`` (its ``DECIDING`` code)."""
    digest = hashlib.sha256()
    try:
        for name, path in _modules(root):
            code = source_fingerprint(path.read_text(encoding="utf-8")).encode()
            digest.update(name.encode() + b"\0" + hashlib.sha256(code).digest())
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return UNKNOWN
    return digest.hexdigest()[:12]


def row_version() -> str:
    """The ``version`` of a result row: ``__version__`` + ``"+"`` + ``code_revision()``."""
    return f"{__version__}+{code_revision()}"
