"""Write docs/api.md, the API reference, from the docstrings of the library's public names.

The public names are the ``__all__`` of ``spidersolve.state``, ``spidersolve.search``
and ``spidersolve`` (each documented once, under the first of these that exports it).

    python docs/make_api.py           # write docs/api.md
    python docs/make_api.py --check   # exit 1 if docs/api.md is not what this writes

``tests/test_api.py`` runs the check, so the page cannot go stale.
"""

from __future__ import annotations

import enum
import importlib
import inspect
import sys
from pathlib import Path

PAGE = Path(__file__).resolve().parent / "api.md"
MODULES = ("spidersolve.state", "spidersolve.search", "spidersolve")

HEAD = """\
# API reference

Generated from the docstrings by `docs/make_api.py`; `tests/test_api.py`
regenerates it and fails when this page differs, so edit the docstrings and
run `python docs/make_api.py`. Every example below is a doctest (pytest
collects `spidersolve/` with `--doctest-modules`).

Columns are 1..10 in every text form (`Action.parse("10>2")`) and 0..9 in the
fields (`Action(src=9, dst=1, n_cards=1)`). Wherever a function takes a
position it also takes a game code (`"SP1-S1C-AAAAAAD"`), a PySolFC deal
(`"pysol:4:14934"`), a position file name, a `GameCode`, a `PysolDeal` or a
`Game` (see `as_position`).
"""


def signature(obj) -> str:
    """The call signature without annotations (they are strings here), or ''."""
    if inspect.isclass(obj) and (issubclass(obj, (enum.Enum, BaseException))):
        init = obj.__dict__.get("__init__")
        if not init or issubclass(obj, enum.Enum):
            return ""
        obj = init
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return ""
    params = [
        p.replace(annotation=inspect.Parameter.empty)
        for p in sig.parameters.values()
        if p.name not in ("self", "cls")
    ]
    return str(sig.replace(parameters=params, return_annotation=inspect.Signature.empty))


def docstring(obj) -> list[str]:
    doc = inspect.getdoc(obj)
    if not doc:
        return ["(no docstring)", ""]
    return ["```text", doc, "```", ""]


def members(cls) -> list[tuple[str, object, str]]:
    """The public methods and properties a class defines itself, in source order."""
    out = []
    for name, value in vars(cls).items():
        if name.startswith("_"):
            continue
        if isinstance(value, property):
            out.append((name, value, ""))
        elif isinstance(value, (classmethod, staticmethod)):
            out.append((name, value.__func__, signature(value.__func__)))
        elif inspect.isfunction(value):
            out.append((name, value, signature(value)))
    return out


def describe(qualified: str, obj) -> list[str]:
    lines = [f"### `{qualified}{signature(obj)}`", ""] + docstring(obj)
    if inspect.isclass(obj) and issubclass(obj, enum.Enum):
        lines += ["Members: " + ", ".join(f"`{m.name}` (`{m.value!r}`)" for m in obj), ""]
    elif inspect.isclass(obj) and not issubclass(obj, BaseException):
        for name, value, sig in members(obj):
            kind = " (property)" if isinstance(value, property) else ""
            lines += [f"#### `{obj.__name__}.{name}{sig}`{kind}", ""] + docstring(value)
    return lines


def page() -> str:
    lines = [HEAD]
    done: dict[int, str] = {}
    for modname in MODULES:
        module = importlib.import_module(modname)
        lines += [f"## `{modname}`", "", *docstring(module)]
        constants, elsewhere = [], []
        for name in module.__all__:
            obj = getattr(module, name)
            if not (inspect.isclass(obj) or inspect.isfunction(obj)):
                constants.append(f"- `{name} = {obj!r}`")
                continue
            if id(obj) in done:
                elsewhere.append(f"`{name}` ({done[id(obj)]})")
                continue
            done[id(obj)] = f"`{modname}`"
            lines += describe(f"{modname}.{name}", obj)
        if constants:
            lines += ["Constants:", "", *constants, ""]
        if elsewhere:
            lines += ["Also here, documented above: " + ", ".join(elsewhere) + ".", ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv: list[str]) -> int:
    text = page()
    if "--check" in argv:
        if not PAGE.exists() or PAGE.read_text(encoding="utf-8") != text:
            print(f"{PAGE} is stale: run python docs/make_api.py")
            return 1
        return 0
    PAGE.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
