"""The search with a reveal limit (``_kernels.search``'s ``reveal_limit``) against a
pure-Python enumeration of the same positions with the reference rules."""

from __future__ import annotations

import random

import pytest
from strategies import endgame_cases
from test_heuristic import reference_terms

from spidersolve.search.heuristic import PLAIN, TERMS
from spidersolve.search.solver import _Search
from spidersolve.state import Game, GameCode, Position, legal_actions
from spidersolve.state.rules import apply


def hidden(pos: Position) -> int:
    """Face-down cards plus deals left: each reveal lowers it by one."""
    return sum(len(d) for d in pos.down) + len(pos.stock) // 10


def plain_value(pos: Position) -> int:
    terms = reference_terms(pos)
    return sum(getattr(PLAIN, name) * terms[name] for name in TERMS if name != "width")


def key(pos: Position):
    """``pos`` up to the order of its columns, each with the stock cards it will get
    (the search's table holds a position once up to that symmetry)."""
    return tuple(sorted(zip(pos.down, pos.up, (pos.stock[c::10] for c in range(10)))))


def reference(position: Position, reveals: int, cap: int = 1500):
    """(won, best value, leaves) over the positions reached with at most ``reveals``
    reveals from ``position``; a position one reveal past it is valued, not expanded.
    None when more than ``cap`` positions are seen."""
    floor = hidden(position) - reveals
    seen = {key(position)}
    queue = [position]
    best, leaves, won = None, 0, False
    for pos in queue:
        for action in legal_actions(pos):
            child, _ = apply(pos, action)
            if key(child) in seen:
                continue
            if len(seen) >= cap:
                return None
            seen.add(key(child))
            if len(child.removed) == 8:
                won = True
            value = plain_value(child)
            best = value if best is None else min(best, value)
            if hidden(child) < floor:
                leaves += 1
            else:
                queue.append(child)
    return won, best, leaves


def _check(position: Position, reveals: int) -> bool:
    """Kernel and reference agree; False when the reference gave up (too many positions)."""
    if not legal_actions(position):
        return False
    found = reference(position, reveals)
    if found is None:
        return False
    won, best, leaves = found
    run = _Search(Game.start(position), 1_000_000, reveals=reveals)
    if won:
        assert run.verdict == "won", position.to_text()
        return True
    assert run.best_value == best, position.to_text()
    assert (run.leaves > 0) == (leaves > 0), position.to_text()
    # a search that cut a leaf never says lost; one that cut none is the full search
    assert run.verdict == ("unknown" if leaves else "lost"), position.to_text()
    return True


@pytest.mark.parametrize("reveals", [0, 1, 2])
def test_reveal_limited_search_equals_the_reference_on_endgames(reveals):
    cases = [pos for pos, _ in endgame_cases(60, seed=20261129)]
    assert sum(_check(pos, reveals) for pos in cases) >= 20


@pytest.mark.parametrize("suits,deal", [(1, 3), (2, 17), (4, 5), (4, 2005)])
@pytest.mark.parametrize("reveals", [0])
def test_reveal_limited_search_equals_the_reference_along_walks(suits, deal, reveals):
    """Positions a few random actions into a deal (later ones have more positions
    without a reveal than the reference can list quickly)."""
    rng = random.Random(deal)
    checked = 0
    for steps in range(8):
        game = Game.start(GameCode(suits, "classic", deal).position())
        for _ in range(steps):
            actions = legal_actions(game.position)
            if not actions:
                break
            game = game.play(rng.choice(actions))
        checked += _check(game.position, reveals)
    assert checked >= 2


@pytest.mark.parametrize("reveals", [1])
def test_reveals_count_deals_too(reveals):
    """From a four-suit start every action turns up a card or deals."""
    for deal in (2005,):
        assert _check(GameCode(4, "classic", deal).position(), reveals)


def test_no_limit_is_the_full_search():
    pos = GameCode(1, "classic", 3).position()
    full, limited = _Search(Game.start(pos), 5_000), _Search(Game.start(pos), 5_000, reveals=-1)
    assert (full.verdict, full.nodes, full.best_value, full.leaves) == (
        limited.verdict,
        limited.nodes,
        limited.best_value,
        0,
    )
