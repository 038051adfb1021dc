"""The one line that ``hint`` shows in ``play``: the solver's hint or the honest one."""

from __future__ import annotations

from ..board import plural


def honest_hint_text(res, pos) -> str:
    """One line for the honest advisor's hint ``res`` from ``pos``."""
    if res.status == "won":
        return "hint: the game is already won"
    if res.status == "stuck":
        return "hint: no legal action is left"
    return (f"hint: {res.action.text()} ({res.words}); honest: {res.wins} of "
            f"{plural(res.scored, 'sample')} won after it ({plural(res.nodes, 'node')}, "
            f"{res.seconds:.1f} s)")


def hint_text(res, pos) -> str:
    """One line for the solver's hint ``res`` from ``pos``."""
    cost = f"{res.nodes} nodes, {res.seconds:.1f} s"
    action = res.action
    said = ""
    if action is not None:
        said = f"{action.text()} ({res.words or action.words(pos)})"
    if res.status == "won":
        return "hint: the game is already won"
    if res.status == "stuck":
        return "hint: no legal action is left"
    if res.status == "proven":
        length = f" in {plural(len(res.line), 'action')}" if res.line else ""
        return f"hint: {said}; proven: it leads to a win{length} ({cost})"
    if res.status == "lost":
        tail = f"; {said} anyway" if said else ""
        return f"hint: lost: no winning line exists from here{tail} ({cost})"
    if said:
        from ..search import HINT_NODES

        return f"hint: {said}; unproven: no win found within {HINT_NODES} nodes ({cost})"
    return f"hint: {res.status}: no action to suggest ({cost})"
