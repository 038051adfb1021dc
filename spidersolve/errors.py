"""The one base class of every error a user can cause, and the command line's signals."""

import numbers
import sys
from contextlib import contextmanager


class SpiderError(ValueError):
    """Bad input: a code, a card, a position text, an action or a line.

    The message is one line that names what is wrong; the command line
    prints it after ``error:`` and exits with status 2. A ``ValueError``.

    >>> from spidersolve.state import Action
    >>> try:
    ...     Action.parse("11>2")
    ... except SpiderError as err:
    ...     print(err)
    '11>2': source column 11 is not 1..10
    """


# Characters shown as they are in messages: printable ASCII and the suit symbols.
_SHOWN_AS_IS = set("\u2660\u2665\u2666\u2663\u2664\u2661\u2662\u2667")


def shown(text: str, limit: int = 80) -> str:
    """``text`` for a message: other characters escaped, long text cut.

    Every character of a valid input is printable ASCII or a suit symbol, so
    anything else (a byte-order mark, a zero-width space, a long s that looks
    like an f, a form feed) is written as its escape, ``\\ufeff``, and never
    printed invisibly.

    >>> shown("\\ufeffspider")
    '\\\\ufeffspider'
    """
    if len(text) > limit:
        return shown(text[: limit // 2], limit) + f"... ({len(text):,} characters)"
    out = []
    for ch in text:
        if " " <= ch <= "~" or ch in _SHOWN_AS_IS:
            out.append(ch)
        elif ord(ch) < 0x100:
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(f"\\u{ord(ch):04x}" if ord(ch) < 0x10000 else f"\\U{ord(ch):08x}")
    return "".join(out)


PATH_LIMIT = 400  # characters: a longer file name is cut in a message, its end kept


def shown_path(path) -> str:
    """A file or folder name for a message, escaped as ``shown`` escapes text.

    Names are often long, so only one longer than ``PATH_LIMIT`` is cut, and
    then its end, the file's own name, is kept as well as its start.

    >>> shown_path("/data/" + "x" * 500 + "/bad.txt")[-30:]
    'xxxxxxxxxxxxxxxxxxxxxx/bad.txt'
    """
    text = str(path)
    if len(text) <= PATH_LIMIT:
        return shown(text, PATH_LIMIT)
    head, tail = PATH_LIMIT // 4, PATH_LIMIT // 2
    return (
        shown(text[:head], PATH_LIMIT)
        + f"... ({len(text):,} characters) ..."
        + shown(text[-tail:], PATH_LIMIT)
    )


class Terminated(KeyboardInterrupt):
    """SIGTERM (``kill``): the command line raises it to stop as Ctrl-C does (status 143).

    A ``KeyboardInterrupt``, so every kernel and pool stops on it as on Ctrl-C.
    Defined here, with no import, so that the command line can catch it
    before numpy is loaded (``spidersolve.interrupt`` names it too).
    """


_lost: list[BaseException] = []  # interrupts raised in a finalizer, and so ignored there


@contextmanager
def keep_lost_interrupts():
    """Within: a ``KeyboardInterrupt`` (or ``Terminated``) that Python ignored in a
    finalizer is kept, not printed, for ``raise_lost``; other ignored errors are
    shown as before."""
    previous = sys.unraisablehook

    def hook(unraisable):
        if isinstance(unraisable.exc_value, KeyboardInterrupt):
            _lost.append(unraisable.exc_value)
        else:
            previous(unraisable)

    _lost.clear()
    sys.unraisablehook = hook
    try:
        yield
    finally:
        sys.unraisablehook = previous
        _lost.clear()


def raise_lost() -> None:
    """Raise again an interrupt that came while a finalizer ran (``spidersolve.interrupt``)."""
    if _lost:
        err = _lost[0]
        _lost.clear()
        raise type(err)() from None


def comma_items(text: str) -> list[str]:
    """The items of a comma-separated list, stripped; an empty item is an error
    (``"1,,2"``, ``"1,2,"``: a typing slip, not a way to say nothing).

    >>> comma_items("1, 2")
    ['1', '2']
    """
    items = [item.strip() for item in str(text).split(",")]
    if not any(items):
        raise SpiderError("nothing given")
    if not all(items):
        raise SpiderError(f"an empty item in '{shown(str(text))}' (items are joined by commas)")
    return items


LONG_WORD = 1000  # characters: a longer run without a space is cut in an error line (a
# file name is cut before, by shown_path, to well under this)


def error_line(message: str) -> str:
    """``message`` as one line: white space (click puts choices on lines) made one
    space, and any word longer than ``LONG_WORD`` (a number of thousands of digits
    that some option echoed) cut as ``shown`` cuts it.

    >>> error_line("--seed: '" + "9" * 1200 + "' is not an integer")
    "--seed: '999999999999999999999999999999999999999... (1,202 characters) is not an integer"
    """
    words = str(message).split()
    return " ".join(shown(word) if len(word) > LONG_WORD else word for word in words)


def is_whole(value) -> bool:
    """True for a whole number, a Python or numpy integer but not a bool: what every
    count, column, card number and limit given to the library must be.

    >>> is_whole(3), is_whole(True), is_whole(3.0)
    (True, False, False)
    """
    if type(value) is int:  # the common case, without the ABC check
        return True
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)
