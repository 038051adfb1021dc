"""Game state: codes and shuffles, positions and their text, reference rules."""

from .codes import CodeError, GameCode, PysolDeal
from .position import Position, PositionError
from .rules import (DEAL, Action, Game, HiddenCard, IllegalAction, apply, legal_actions, line_text,
                    parse_line, replay, why_illegal)
from .source import load_source

__all__ = ["Action", "CodeError", "DEAL", "Game", "GameCode", "HiddenCard", "IllegalAction", "Position",
           "PositionError", "PysolDeal", "apply", "legal_actions", "line_text", "load_source",
           "parse_line", "replay", "why_illegal"]
