"""The one line that ``hint`` shows in ``play``: the solver's hint or the honest one."""

from __future__ import annotations

from ..board import plural


def honest_hint_text(res, pos) -> str:
    """One line for the honest advisor's hint ``res`` from ``pos``."""
    if res.status == "won":
        return "hint: the game is already won"
    if res.status == "stuck":
        return "hint: no legal action is left"
    return (
        f"hint: {res.action.text()} ({res.words}); honest: {res.wins} of "
        f"{plural(res.scored, 'sample')} won after it ({plural(res.nodes, 'node')}, "
        f"{res.seconds:.1f} s)"
    )


def hint_text(res, pos) -> str:
    """One line for the solver's hint ``res`` (a ``search.HintResult``) from ``pos``.

    A proven or unproven hint always has an action, a lost one never does
    (``search.hint``).
    """
    if res.status == "won":
        return "hint: the game is already won"
    if res.status == "stuck":
        return "hint: no legal action is left"
    cost = f"{res.nodes} nodes, {res.seconds:.1f} s"
    if res.status == "lost":
        return f"hint: lost: no winning line exists from here ({cost})"
    action = res.action
    said = f"{action.text()} ({res.words or action.words(pos)})"
    if res.status == "proven":
        length = f" in {plural(len(res.line), 'action')}" if res.line else ""
        return f"hint: {said}; proven: it leads to a win{length} ({cost})"
    from ..search import HINT_NODES

    return f"hint: {said}; unproven: no win found within {HINT_NODES} nodes ({cost})"
