"""spidersolve: Spider Solitaire rules, a proving solver, hints and win-rate statistics."""

__version__ = "0.1.0"

from .errors import SpiderError
from .state import Action, Game, GameCode, Position, PysolDeal, load_source, replay

__all__ = ["Action", "Game", "GameCode", "Position", "PysolDeal", "SpiderError", "__version__",
           "load_source", "replay"]
