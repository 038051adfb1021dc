"""The solver: bounded best-first search, replay verification, hints."""

from .hints import HINT_NODES, HintResult, hint
from .solver import DEFAULT_NODES, SolveResult, solve
from .verify import ReplayFailed, verify_win

__all__ = ["DEFAULT_NODES", "HINT_NODES", "HintResult", "ReplayFailed", "SolveResult", "hint",
           "solve", "verify_win"]
