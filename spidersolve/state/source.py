"""Turn what a user names (a game code, ``pysol:S:N``, a file, ``-``) into a position."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from ..cards import ascii_lower, ascii_upper
from ..errors import SpiderError, shown, shown_path
from .codes import GameCode, PysolDeal
from .position import Position

WHAT = "a game code (SP1-S4C-AAAAAAD), a PySolFC deal (pysol:4:14934), a position file or '-'"
WHAT_NOT_STDIN = "a game code (SP1-S4C-AAAAAAD), a PySolFC deal (pysol:4:14934) or a position file"
# bytes: far more than any position text, comments and a saved game's line included
MAX_TEXT = 16 << 20


def _capped(data, where: str):
    """``data`` (bytes, or text read as text), or an error when it is longer than
    any position text."""
    if len(data) > MAX_TEXT:
        raise SpiderError(
            f"{where} holds more than {MAX_TEXT >> 20} MiB, more than any position text"
        )
    return data


def decode_text(data: bytes, where: str) -> str:
    """UTF-8 text, or an error naming ``where`` and the first bad byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise SpiderError(
            f"{where} is not UTF-8 text: byte 0x{data[err.start]:02x} at offset {err.start}"
        ) from None


def read_stdin() -> str:
    """All of standard input as UTF-8 text."""
    if sys.stdin is None:  # started with standard input closed
        raise SpiderError("standard input is closed: there is nothing to read from '-'")
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        return _capped(sys.stdin.read(MAX_TEXT + 1), "standard input")
    return decode_text(_capped(stream.read(MAX_TEXT + 1), "standard input"), "standard input")


def read_file_text(source: str, what: str = "position file") -> str:
    """The whole of the file ``source`` as UTF-8 text, at most ``MAX_TEXT`` bytes;
    errors name ``what`` and the file."""
    where = f"{what} '{shown_path(source)}'"
    try:
        with open(source, "rb") as handle:
            return decode_text(_capped(handle.read(MAX_TEXT + 1), where), where)
    except OSError as err:
        raise SpiderError(f"cannot read {where}: {err.strerror or err}") from None


def _kind(source: str) -> str:
    """``file``, ``dir``, ``other`` (a device, a pipe), ``link`` (a symbolic link
    that leads to nothing) or ``none`` (also for a name the system cannot look up)."""
    try:
        path = Path(source)
        if path.is_file():
            return "file"
        if path.is_dir():
            return "dir"
        if path.exists():
            return "other"
        if path.is_symlink():
            return "link"
    except (OSError, ValueError):  # a name too long, a NUL byte
        pass
    return "none"


def _as_code(text: str) -> tuple[GameCode | None, SpiderError | None]:
    """``text`` as a game code: (the code, None); (None, why not) for a name that
    looks like one (``SP...``) but is not; (None, None) for any other name."""
    if not (ascii_upper(text).startswith("SP") and len(text) <= 64):
        return None, None
    try:
        return GameCode.parse(text), None
    except SpiderError as err:
        return None, err


def load_source(source: str, stdin: bool = True) -> tuple[Position, str]:
    """The start position named by ``source``, and a canonical name for it.

    Parameters
    ----------
    source : str
        A game code, a PySolFC deal ``pysol:S:N``, a position file name, or
        ``-`` for standard input. A valid code or ``pysol:S:N`` is read as
        such even where a file or folder of that name exists (``./NAME``
        names the file).
    stdin : bool
        Whether ``-`` may name standard input (``play`` reads its commands
        there); without it, errors do not offer ``-``.

    Returns
    -------
    (Position, str)
        The position and its name: the game code, the ``pysol:S:N`` text,
        or the file name.

    Raises
    ------
    SpiderError
        For a name that is neither a code nor an existing file; the message
        says which it is not ("no such file", "is a directory").

    Examples
    --------
    >>> position, name = load_source("sp1-s1c-aaaaaad")
    >>> name, position.suits
    ('SP1-S1C-AAAAAAD', 1)
    >>> load_source("pysol:4:14934")[1]
    'pysol:4:14934'
    """
    if isinstance(source, os.PathLike):  # a pathlib.Path names a file, as as_position takes it
        source = os.fspath(source)
    if not isinstance(source, str):
        raise SpiderError(f"a source is a name (text or a path), not {shown(repr(source))}")
    what = WHAT if stdin else WHAT_NOT_STDIN
    text = source.strip(" \t\r\n")
    if not text:
        raise SpiderError(f"an empty name is not {what}")
    if text == "-" and not stdin:
        raise SpiderError(f"'-' (standard input) is not {what} here")
    if text == "-":
        return Position.from_text(read_stdin()), "-"
    if ascii_lower(text).startswith("pysol:"):
        deal = PysolDeal.parse(text)
        return deal.position(), deal.text()
    code, not_a_code = _as_code(text)
    if code is not None:  # a code even where a file or folder has that name (./NAME reads it)
        return code.position(), code.text()
    kind = _kind(source)
    if kind == "file":
        body = read_file_text(source)
        try:
            return Position.from_text(body), str(source)
        except SpiderError as err:
            raise SpiderError(f"{shown_path(source)}: {err}") from None
    if kind == "dir":
        raise SpiderError(f"'{shown_path(source)}' is a directory, not {what}")
    if kind == "other":
        raise SpiderError(
            f"'{shown_path(source)}' is not a regular file (a device or a pipe"
            + (": give - to read standard input" if stdin else "")
            + f"), not {what}"
        )
    if kind == "link":
        raise SpiderError(
            f"'{shown_path(source)}' is a symbolic link that leads to no file (a loop, or its "
            f"target is gone), not {what}"
        )
    if not_a_code is not None:  # no such file: why the name is no code either
        raise not_a_code
    raise SpiderError(f"'{shown_path(source)}': no such file, and it is not {what}")


def file_source(name: str) -> str:
    """``name`` as a SOURCE that reads that file: ``./name`` where the bare name
    would be read as standard input, a PySolFC deal, a game code or an option.

    >>> file_source("game.txt"), file_source("pysol:1:5"), file_source("-g.txt")
    ('game.txt', './pysol:1:5', './-g.txt')
    """
    text = name.strip(" \t\r\n")
    if os.path.isabs(name):
        return name
    if (
        text == "-"
        or name.startswith("-")
        or ascii_lower(text).startswith("pysol:")
        or _as_code(text)[0] is not None
    ):
        return "./" + name
    return name


def as_position(source) -> Position:
    """The position a library call was given: the one coercion used everywhere.

    Every public function that takes a position takes any of these.

    Parameters
    ----------
    source : Position, Game, GameCode, PysolDeal, str or os.PathLike
        A Position is returned as it is once ``Position.checked`` has
        validated it (``PositionError`` if it breaks SPEC section 8); a
        Game gives its position; a
        GameCode or PysolDeal its start position; text is read by
        ``load_source`` (a game code, ``pysol:S:N``, a file name or ``-``).

    Raises
    ------
    SpiderError
        For text that names no position.
    TypeError
        For anything else.

    Examples
    --------
    >>> as_position("SP1-S1C-AAAAAAD") == GameCode.parse("SP1-S1C-AAAAAAD").position()
    True
    >>> as_position("pysol:4:14934").suits
    4
    """
    if isinstance(source, Position):
        return source.checked()  # one built by hand is validated once (PositionError)
    if isinstance(source, (GameCode, PysolDeal)):
        return source.position()
    if isinstance(source, (str, os.PathLike)):
        return load_source(os.fspath(source))[0]
    position = getattr(source, "position", None)  # a Game (rules.py imports this module)
    if isinstance(position, Position):
        return position.checked()
    raise TypeError(
        f"expected a position, a game, a game code or a PySolFC deal, not {type(source).__name__}"
    )
