"""Turn what a user names (a game code, ``pysol:S:N``, a file, ``-``) into a position."""

from __future__ import annotations

import sys
from pathlib import Path

from ..errors import SpiderError
from .codes import GameCode, PysolDeal
from .position import Position


def load_source(source: str) -> tuple[Position, str]:
    """The start position named by ``source``, and a canonical name for it.

    The name is the game code, the ``pysol:S:N`` text, or the file name.
    """
    text = source.strip()
    if text == "-":
        return Position.from_text(sys.stdin.read()), "-"
    if text.lower().startswith("pysol:"):
        deal = PysolDeal.parse(text)
        return deal.position(), deal.text()
    if text.upper().startswith("SP"):
        path = Path(source)
        if not path.exists():
            code = GameCode.parse(text)
            return code.position(), code.text()
    path = Path(source)
    if path.is_file():
        try:
            body = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            raise SpiderError(f"cannot read position file '{source}': {err}") from None
        try:
            return Position.from_text(body), str(path)
        except SpiderError as err:
            raise SpiderError(f"{source}: {err}") from None
    raise SpiderError(f"'{source}' is not a game code (SP1-S4C-AAAAAAD), a PySolFC deal "
                      "(pysol:4:14934), a position file or '-'")
