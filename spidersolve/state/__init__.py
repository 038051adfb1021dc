"""Game state: codes and shuffles, positions and their text, reference rules.

Pure Python: nothing here loads numba (the packed form and its kernels are
``state.packed`` and ``state.perft``, imported only by what needs them).

>>> from spidersolve.state import Game
>>> game = Game.start("SP1-S1C-AAAAAAD")
>>> game.push("10>2")
>>> game.history
(Action.parse('10>2'),)
"""

from .actions import DEAL, Action, as_action, line_text, parse_line
from .codes import CodeError, GameCode, PysolDeal
from .game import Game, as_game, replay
from .position import Position, PositionError
from .rules import HiddenCard, IllegalAction, apply, legal_actions, why_illegal
from .source import as_position, load_source

__all__ = [
    "Action",
    "CodeError",
    "DEAL",
    "Game",
    "GameCode",
    "HiddenCard",
    "IllegalAction",
    "Position",
    "PositionError",
    "PysolDeal",
    "apply",
    "as_action",
    "as_game",
    "as_position",
    "legal_actions",
    "line_text",
    "load_source",
    "parse_line",
    "replay",
    "why_illegal",
]
