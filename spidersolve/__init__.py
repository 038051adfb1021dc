"""spidersolve: Spider Solitaire rules, a proving solver, hints and win-rate statistics.

The rules are pure Python; ``solve``, ``hint`` and ``advise`` load the numba
search kernels when first used, so ``import spidersolve`` stays light.

>>> import spidersolve
>>> game = spidersolve.Game.start("SP1-S1C-AAAAAAD")
>>> game.push("10>2")
>>> spidersolve.solve(game, nodes=20_000)                  # doctest: +ELLIPSIS
SolveResult('won', nodes=1102, moves=111, score=1188, line='9>10 8>7 ...')
>>> spidersolve.hint(game, nodes=20_000).action
Action.parse('9>10')
"""

__version__ = "0.1.0"

from .errors import SpiderError
from .verdict import HintStatus, Verdict

# Loaded on first use (module ``__getattr__``): the rules need numpy, and the
# search numba and its kernels, so ``spidersolve`` (the command line) can
# start, and catch Ctrl-C, before either is loaded.
_LAZY = {
    "DEAL": "state",
    "Action": "state",
    "Game": "state",
    "GameCode": "state",
    "IllegalAction": "state",
    "Position": "state",
    "PysolDeal": "state",
    "legal_actions": "state",
    "load_source": "state",
    "replay": "state",
    "solve": "search",
    "hint": "search",
    "SolveResult": "search",
    "HintResult": "search",
    "advise": "search.honest",
    "HonestAdvice": "search.honest",
}

__all__ = [
    "Action",
    "DEAL",
    "Game",
    "GameCode",
    "HintResult",
    "HintStatus",
    "HonestAdvice",
    "IllegalAction",
    "Position",
    "PysolDeal",
    "SolveResult",
    "SpiderError",
    "Verdict",
    "__version__",
    "advise",
    "hint",
    "legal_actions",
    "load_source",
    "replay",
    "solve",
]


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module 'spidersolve' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
