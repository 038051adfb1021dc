"""The one base class of every error a user can cause."""


class SpiderError(ValueError):
    """Bad input: a code, a card, a position text, an action or a line.

    The message is one line that names what is wrong; the command line
    prints it after ``error:`` and exits with status 2.
    """
