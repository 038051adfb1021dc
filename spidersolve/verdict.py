"""The words a search and a hint answer with (SPEC section 9), as string enums.

They live outside ``search/`` so that reading a result, or the rules, never
loads numba. Each member is a ``str`` (an ``enum.StrEnum``): it compares
equal to its text, and ``json.dumps``, ``str``, f-strings, pandas and
Parquet all see the plain text (``won``), exactly as before the enums.
"""

from __future__ import annotations

from enum import StrEnum

# The largest node limit a search takes: far beyond memory, and a plain int64 in
# the kernel. Here so that the checks of a results row need no numba.
MAX_NODES = 2**40


class Verdict(StrEnum):
    """What a full-knowledge search proved (SPEC section 9).

    ``WON``: a winning line was found (and replayed with the reference
    rules); ``LOST``: the search was exhaustive, no winning line exists;
    ``UNKNOWN``: the node limit was reached first.

    Examples
    --------
    >>> Verdict("won") is Verdict.WON
    True
    >>> Verdict.LOST == "lost", f"{Verdict.UNKNOWN}"
    (True, 'unknown')
    >>> import json; json.dumps({"verdict": Verdict.WON})
    '{"verdict": "won"}'
    """

    WON = "won"
    LOST = "lost"
    UNKNOWN = "unknown"

    def __repr__(self) -> str:
        return f"Verdict.{self.name}"


class HintStatus(StrEnum):
    """How sure a hint is.

    ``PROVEN``: the first action of a winning line found within the budget;
    ``LOST``: no winning line exists; ``UNPROVEN``: no proof within the
    budget, the action is the search's best guess; ``WON``: the game is
    already won; ``STUCK``: no legal action, runs still on the table.

    Examples
    --------
    >>> HintStatus("unproven")
    HintStatus.UNPROVEN
    >>> HintStatus.PROVEN == "proven"
    True
    """

    PROVEN = "proven"
    LOST = "lost"
    UNPROVEN = "unproven"
    WON = "won"
    STUCK = "stuck"

    def __repr__(self) -> str:
        return f"HintStatus.{self.name}"


__all__ = ["HintStatus", "Verdict"]
