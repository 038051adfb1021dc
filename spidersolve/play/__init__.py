"""A game of Spider in the terminal, as a library: commands in, text out.

``PlaySession`` (:mod:`.session`) runs the commands; :mod:`.moves` says
which cards a short command means, :mod:`.saved` writes and reads saved
games and :mod:`.advice` words a hint.

>>> from spidersolve.state import GameCode, Game
>>> session = PlaySession(Game.start(GameCode.parse("SP1-S1C-AAAAAAD").position()))
>>> session.handle("score")
'moves: 0, score: 500'
"""

from .advice import hint_text, honest_hint_text
from .moves import click_action, fitting_action
from .saved import SAVED_HEADER, SavedGame, read_saved_game, saved_game_text
from .session import HELP_TEXT, MAX_UNDO, PlaySession

__all__ = [
    "HELP_TEXT",
    "MAX_UNDO",
    "SAVED_HEADER",
    "PlaySession",
    "SavedGame",
    "click_action",
    "fitting_action",
    "hint_text",
    "honest_hint_text",
    "read_saved_game",
    "saved_game_text",
]
