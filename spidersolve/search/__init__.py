"""The solver: bounded best-first search, replay verification, hints.

Importing this package loads numba and the search kernels (from numba's
cache after the first run); ``spidersolve.solve`` and ``spidersolve.hint``
import it only when first called.

>>> from spidersolve.search import solve
>>> solve("SP1-S1C-AAAAAAD", nodes=20_000).verdict
Verdict.WON
"""

from ..verdict import HintStatus, Verdict
from .hints import HINT_NODES, HintResult, hint
from .solver import DEFAULT_NODES, SolveResult, solve
from .verify import ReplayFailed, verify_win

__all__ = [
    "DEFAULT_NODES",
    "HINT_NODES",
    "HintResult",
    "HintStatus",
    "ReplayFailed",
    "SolveResult",
    "Verdict",
    "hint",
    "solve",
    "verify_win",
]
