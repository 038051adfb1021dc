"""Honest advice (SPEC section 11): an action chosen from the visible position alone.

The advisor never sees a hidden card. It draws samples of the hidden cards
(``state.visible.samples``, seeded by the visible text and the seed), solves
each sampled position with the full-knowledge search at a small budget, and
turns what the searches found into candidate *plans*:

- a plan is the start of a sample's line (its winning line, or the line to
  the best position its search reached) up to and including the first
  action that turns up a hidden card or deals from the stock. Every action
  before that one is legal in every sample and reveals nothing, so a plan
  can be committed to without knowing the hidden cards;
- plans that reach the same visible position and then play the same
  revealing action are one candidate (a reveal-free frontier position).

Each candidate is then scored on the *same* samples (playing its plan in
each sample and solving from there), which guards against strategy fusion:
a sample's own line knows the hidden cards, but a candidate is judged by
how often it leaves a win across all the samples, not only in the one that
proposed it. ``method`` says how the scoring budget is spent:

- ``vote``: no scoring; the candidate proposed by most winning samples;
- ``compare``: the ``top`` most proposed candidates, each on every sample;
- ``bandit``: successive halving over the candidates: all on a first
  share of the samples, the better half on the next share, and so on.

With four suits, while the stock lasts, the scoring searches are blind to
the stock (``HONEST_STOCK_BLIND``, ``_solve_before_deal``): each sample
after a plan is searched without its stock, so a candidate is judged by
how far its table gets before the next deal, not by what a search that
knows the next deals can make of it.

The estimate reported is the chosen candidate's wins over the samples it
was scored on (blind to the stock: the samples won by their own searches
from the position). It is optimistic: each sample is solved with full
knowledge.
"""

from __future__ import annotations

import dataclasses
import os
import time
from dataclasses import dataclass

from ..errors import SpiderError, is_whole, shown
from ..interrupt import ThreadPool
from ..state import (
    Action,
    Game,
    HiddenCard,
    Position,
    apply,
    as_position,
    legal_actions,
    line_text,
    replay,
)
from ..state.position import mark_checked
from ..state.visible import samples as draw_samples
from ..state.visible import unknown_count, visible_of
from .heuristic import PLAIN, SIX_ROWS, position_value
from .solver import _Search, check_node_limit

METHODS = ("vote", "compare", "bandit")
HONEST_SAMPLES = 8
HONEST_NODES = {1: 2_000, 2: 4_000, 4: 10_000}  # per sample search, by the number of suits
HONEST_TOP = 6  # candidates scored by ``compare`` and ``bandit``
# Prepared reveals scored beside them, by the number of suits (``_prepared_reveals``):
# none with four, where they lost games on training deals (docs/honest.md).
HONEST_PREPARED = {1: 3, 2: 3, 4: 0}
# ... and, when every candidate deals, the tidiest tables to deal on (docs/honest.md)
HONEST_PREPARED_DEALS = {1: 0, 2: 0, 4: 3}
PREPARED_POSITIONS = 400  # visible positions the search for prepared reveals may visit
# Deal only when no candidate turns up a face-down card, by the number of suits
# (``_candidates_to_score``; measured in docs/honest.md).
HONEST_DEAL_LAST = {1: True, 2: True, 4: True}
# While the stock lasts, score the candidates on the samples with their stock taken
# away, by the number of suits (``_solve_before_deal``; measured in docs/honest.md).
HONEST_STOCK_BLIND = {1: False, 2: True, 4: True}
# ... and with at most this many reveals after the plan: face-down cards turned up
# (``_kernels.search``'s reveal limit; None: no limit; measured in docs/honest.md)
HONEST_BLIND_REVEALS = {1: None, 2: 2, 4: 2}
# Once the stock is dealt, score with the same reveal limit (the samples' face-down
# cards are as unknown to the player as their stock was), by the number of suits.
HONEST_ENDGAME_BLIND = {1: False, 2: False, 4: False}
DEFAULT_SEED = 0
# A visible position with no hidden card left is solved once, with this budget.
KNOWN_NODES = 200_000


@dataclass(frozen=True)
class HonestAdvice:
    """An honest decision and what it cost.

    ``status``: ``honest`` (an action chosen from the visible position),
    ``won`` (already won) or ``stuck`` (no legal action). ``plan`` is the
    actions the advisor commits to: up to and including the first action
    that turns up a hidden card or deals (``action`` is its first).
    ``wins`` of ``scored`` samples were won after the plan (blind to the
    stock, see the module docstring: won by their own searches from the
    position); ``samples`` were drawn and ``nodes`` expanded in all.

    >>> advice = advise("SP1-S1C-AAAAAAD", samples=2)
    >>> advice.status, advice.plan[0] == advice.action
    ('honest', True)
    """

    status: str
    action: Action | None
    plan: tuple[Action, ...]
    wins: int
    scored: int
    samples: int
    candidates: int
    nodes: int
    seconds: float
    words: str | None = None

    @property
    def win_estimate(self) -> float | None:
        """``wins / scored``, None when nothing was scored (optimistic, see above).

        >>> 0 <= advise("SP1-S1C-AAAAAAD", samples=2).win_estimate <= 1
        True
        """
        return None if not self.scored else self.wins / self.scored

    def as_dict(self) -> dict:
        """The advice as the JSON object ``hint --honest --json`` prints.

        >>> advise("SP1-S1C-AAAAAAD", samples=2).as_dict()["status"]
        'honest'
        """
        return {
            "status": self.status,
            "action": self.action.text() if self.action else None,
            "words": self.words,
            "win_estimate": None if self.win_estimate is None else round(self.win_estimate, 4),
            "wins": self.wins,
            "scored": self.scored,
            "samples": self.samples,
            "candidates": self.candidates,
            "plan": line_text(self.plan),
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
        }


def reveal_plan(view: Position, line) -> tuple[Action, ...]:
    """The start of ``line`` a player can commit to from ``view``.

    The actions up to and including the first that needs a card ``view``
    does not know (it turns up a ``??`` or deals one); the whole line when
    none does. The line must be legal in ``view`` up to that action.
    """
    return _frontier(view, line)[0]


def _frontier(view: Position, line) -> tuple[tuple[Action, ...], tuple, int]:
    """``reveal_plan``, its key and its kind, in one replay of the line.

    Plans with equal keys reach the same visible position, then play the same
    action. The kind says how the plan ends: it turns up a face-down card, it
    deals, or it reveals nothing. Among candidates that win as often, the
    advisor prefers them in that order: a face-down card turned up costs
    nothing but the move, a deal buries every column under a card.
    """
    pos = view
    for i, action in enumerate(line):
        try:
            after = apply(pos, action)[0]
        except HiddenCard:
            return tuple(line[: i + 1]), (pos, action), DEALS if action.is_deal else REVEALS_CARD
        if i == len(line) - 1:
            return tuple(line), (pos, action), REVEALS_NOTHING
        pos = after
    return (), (view, None), REVEALS_NOTHING


REVEALS_CARD, DEALS, REVEALS_NOTHING = 0, 1, 2
# The value of a sample searched after a plan: a win is better, a loss worse, than any
# heuristic value the search reaches (its values stay far inside these).
WON_VALUE, LOST_VALUE = -(1 << 20), 1 << 20


def _solve(
    position: Position, nodes: int, reveals: int = -1
) -> tuple[bool, tuple[Action, ...], int, int]:
    """A full-knowledge search: won?, the winning (or best) line, nodes expanded, and the
    best heuristic value it reached (lower is better; ``WON_VALUE`` for a win,
    ``LOST_VALUE`` when no win exists). ``reveals`` >= 0: the kernel's reveal limit
    (a search that cut a leaf never says lost). The six rows without macro moves
    (``heuristic.SIX_ROWS``), the search the honest benchmarks were measured with."""
    if len(position.removed) == 8:
        return True, (), 0, WON_VALUE
    if not legal_actions(position):
        return False, (), 0, LOST_VALUE
    run = _Search(Game.start(position), nodes, SIX_ROWS, reveals=reveals)
    if run.verdict == "won":
        return True, run.winning_line(), run.nodes, WON_VALUE
    if run.verdict == "lost":
        return False, (), run.nodes, LOST_VALUE
    return False, run.best_line(), run.nodes, min(run.best_value, LOST_VALUE - 1)


def _endgame_reveals(suits: int) -> int | None:
    """The reveal limit of a scoring search once the stock is dealt, or None (no limit)."""
    return HONEST_BLIND_REVEALS[suits] if HONEST_ENDGAME_BLIND[suits] else None


def _solve_before_deal(position: Position, nodes: int) -> tuple[bool, tuple[Action, ...], int, int]:
    """``_solve`` of the table alone while the stock lasts: the best heuristic value a
    full-knowledge search reaches without dealing (never a win, as cards are missing).

    A sample solved with its stock knows what every deal brings, so it finds
    any table easy to deal on; without it, a candidate is judged by how far
    it gets before the next deal: how many face-down cards it can turn up,
    runs it can build or remove, columns it can empty. The search may walk
    the whole table (``lost`` without its stock): its best value stands.
    With the stock dealt, this is ``_solve``, with the same reveal limit
    when ``HONEST_ENDGAME_BLIND``.

    ``HONEST_BLIND_REVEALS`` limits the search to what it can reach with that
    many face-down cards turned up (then a position is valued, not searched
    further): a sample that turns up card after card it knows plays a game the
    player cannot, so only the first few reveals count.
    """
    if not position.stock:
        reveals = _endgame_reveals(position.suits)
        return _solve(position, nodes, -1 if reveals is None else reveals)
    # the cards of the stock are missing on purpose: no longer a SPEC 8 position
    table = mark_checked(dataclasses.replace(position, stock=()))
    if not legal_actions(table):
        return False, (), 0, position_value(table, PLAIN)
    reveals = HONEST_BLIND_REVEALS[position.suits]
    run = _Search(Game.start(table), nodes, SIX_ROWS, reveals=-1 if reveals is None else reveals)
    return False, (), run.nodes, int(run.best_value)


class _Pool:
    """Runs searches on the cores (the kernel releases the GIL); results keep their order.

    With one worker the searches run in the calling thread (``run_kernel``
    stops them on Ctrl-C there); with more, on an ``interrupt.ThreadPool``,
    whose searches all stop when the main thread is interrupted.
    """

    def __init__(self, workers: int):
        self.workers = max(1, workers)
        self._threads = ThreadPool(self.workers) if self.workers > 1 else None

    def map(self, fn, items):
        items = list(items)
        if self._threads is None or len(items) < 2:
            return [fn(item) for item in items]
        return self._threads.map(fn, items)

    def close(self):
        if self._threads is not None:
            self._threads.close()


def default_workers() -> int:
    return max(
        1,
        min(
            2,
            len(os.sched_getaffinity(0))
            if hasattr(os, "sched_getaffinity")
            else (os.cpu_count() or 1),
        ),
    )


def advise(
    view: Position,
    samples: int = HONEST_SAMPLES,
    seed: int = DEFAULT_SEED,
    nodes: int | None = None,
    method: str = "bandit",
    top: int = HONEST_TOP,
    workers: int = 1,
    ranking: list | None = None,
) -> HonestAdvice:
    """Choose an action from what a player sees.

    ``view`` may hold ``??``; any known face-down or stock card it holds is
    used, and a full position is first made visible. The result is a
    function of the visible position, the options and ``seed`` alone, the
    same for any number of ``workers`` (threads that run the searches).

    ``view`` is a Position or anything ``state.as_position`` reads.
    ``ranking``, when a list, receives every candidate the samples scored,
    best first, as ``(plan, wins, scored, mean value)``: the last round's
    order, then the candidates halved out, the later first. ``wins`` are the
    scoring searches' (none while they are blind to the stock), not the
    advice's estimate. Nothing is added when nothing was scored: one
    candidate, ``vote``, nothing hidden, a won or stuck position.

    >>> advise("SP1-S1C-AAAAAAD", samples=2).status
    'honest'
    """
    view = as_position(view)
    if method not in METHODS:
        raise SpiderError(f"method must be one of {', '.join(METHODS)}, not {method!r}")
    for name, value, low, high in (
        ("samples", samples, 1, 10_000),
        ("seed", seed, 0, 2**64 - 1),  # drawn with a 64-bit generator: no larger seed
        ("top", top, 1, 10_000),
        ("workers", workers, 1, 10_000),
    ):
        if not is_whole(value) or not low <= value <= high:
            raise SpiderError(f"{name} must be {low} .. {high}, not {shown(repr(value))}")
    # a numpy integer is the same number; the advice (as_dict, JSON) holds Python ints
    samples, seed, top, workers = int(samples), int(seed), int(top), int(workers)
    if ranking is not None and not isinstance(ranking, list):
        raise SpiderError(f"ranking must be a list (or None), not {shown(repr(ranking))}")
    started = time.perf_counter()
    if not view.has_unknown:
        view = visible_of(view)
    if nodes is None:
        nodes = HONEST_NODES[view.suits]
    check_node_limit(nodes)
    nodes = int(nodes)
    if len(view.removed) == 8:
        return HonestAdvice("won", None, (), 0, 0, 0, 0, 0, time.perf_counter() - started)
    legal = legal_actions(view)
    if not legal:
        return HonestAdvice("stuck", None, (), 0, 0, 0, 0, 0, time.perf_counter() - started)
    pool = _Pool(workers)
    try:
        plan, wins, scored, n_samples, n_candidates, spent = _choose(
            view, legal, samples, seed, nodes, method, top, pool, ranking
        )
    finally:
        pool.close()
    return HonestAdvice(
        "honest",
        plan[0],
        plan,
        wins,
        scored,
        n_samples,
        n_candidates,
        spent,
        time.perf_counter() - started,
        plan[0].words(view),
    )


@dataclass
class _Candidate:
    """A plan and what the samples said of it."""

    plan: tuple[Action, ...]
    kind: int  # REVEALS_CARD, DEALS or REVEALS_NOTHING
    votes: int = 0  # samples whose line starts with this plan
    won_votes: int = 0  # ... and whose line wins
    known: dict = None  # sample -> its (won, value) after the plan, known from its own search
    wins: int = 0  # samples won after the plan, among those scored
    value: int = 0  # the sum of the best values the scoring searches reached (lower: better)
    scored: int = 0

    def rank(self):
        """Sort key: most wins per sample scored, then the best mean value, then the kind."""
        scored = max(1, self.scored)
        return (-self.wins / scored, self.value / scored, self.kind, -self.won_votes, -self.votes)


def _choose(view, legal, n_samples, seed, nodes, method, top, pool, ranking=None):
    if unknown_count(view) == 0:  # nothing hidden: the full-knowledge search decides
        won, line, spent, _value = _solve(view, max(nodes, KNOWN_NODES))
        plan = line or (legal[0],)
        return plan, int(won), 1, 0, 1, spent
    sampled = draw_samples(view, n_samples, seed)
    proposals = pool.map(lambda pos: _solve(pos, nodes), sampled)
    spent = sum(p[2] for p in proposals)
    # blind to the stock: scoring searches see the table alone (_solve_before_deal)
    # ... and, once the stock is dealt, with a reveal limit (HONEST_ENDGAME_BLIND)
    blind = (HONEST_STOCK_BLIND[view.suits] and bool(view.stock)) or (
        not view.stock and _endgame_reveals(view.suits) is not None
    )
    evaluate_after = _solve_before_deal if blind else _solve
    candidates: dict = {}  # frontier key -> _Candidate, in order of first proposal
    for i, (won, line, _n, _value) in enumerate(proposals):
        plan, key, kind = _frontier(view, line or (legal[0],))
        cand = candidates.get(key)
        if cand is None:
            cand = candidates[key] = _Candidate(plan, kind, known={})
        cand.votes += 1
        if won:
            cand.won_votes += 1
            if not blind:
                cand.known[i] = (True, WON_VALUE)  # its own line wins after the plan
    # Moves that turn up a face-down card at once are candidates too, proposed or not:
    # full-knowledge lines deal early, as they know what the stock holds.
    # So is the deal (scored only when no card can turn up: _candidates_to_score).
    for action in legal:
        if not action.is_deal and (
            len(view.up[action.src]) != action.n_cards or not view.down[action.src]
        ):
            continue
        key = (view, action)  # a one-action plan: its frontier is the view itself
        if key not in candidates:
            candidates[key] = _Candidate(
                (action,), DEALS if action.is_deal else REVEALS_CARD, known={}
            )
    ranked = sorted(
        _candidates_to_score(list(candidates.values()), view.suits),
        key=lambda c: (-c.won_votes, c.kind, -c.votes),
    )
    if method == "vote" or len(ranked) == 1:
        best = ranked[0]
        return best.plan, best.won_votes, n_samples, n_samples, len(ranked), spent
    alive = ranked[:top]
    # ... and the tidiest ways to turn up a card after moves that reveal nothing,
    # proposed or not: the samples' lines often share one start and miss them
    n_candidates = len(ranked)
    prepared = _prepared_reveals(view, HONEST_PREPARED[view.suits])
    if all(c.kind == DEALS for c in ranked):  # no card can turn up: where to deal?
        prepared += _prepared_reveals(view, HONEST_PREPARED_DEALS[view.suits], deals=True)
    for plan, key in prepared:
        if key not in candidates:
            candidates[key] = _Candidate(
                plan, DEALS if plan[-1].is_deal else REVEALS_CARD, known={}
            )
            alive.append(candidates[key])
            n_candidates += 1

    def score(cand, indices):
        todo = [i for i in indices if i not in cand.known]
        found = pool.map(
            lambda i: evaluate_after(replay(sampled[i], cand.plan).position, nodes), todo
        )
        results = dict(zip(todo, ((r[0], r[3]) for r in found)))
        results.update({i: cand.known[i] for i in indices if i in cand.known})
        cand.wins += sum(1 for won, _v in results.values() if won)
        cand.value += sum(v for _w, v in results.values())
        cand.scored += len(indices)
        return sum(r[2] for r in found)

    if method == "compare":
        rounds = [list(range(n_samples))]
    else:  # successive halving: log2(top) rounds over equal shares of the samples
        # (no more rounds than samples: each round needs a share of at least one)
        n_rounds = max(1, min((len(alive) - 1).bit_length(), n_samples))
        share = max(1, n_samples // n_rounds)
        rounds = [
            list(range(r * share, n_samples if r == n_rounds - 1 else (r + 1) * share))
            for r in range(n_rounds)
        ]
    halved: list = []  # the candidates halved out, in rank order, the later round first
    for r, indices in enumerate(rounds):
        for cand in alive:
            spent += score(cand, indices)
        alive = sorted(alive, key=_Candidate.rank)
        if r < len(rounds) - 1:
            keep = max(1, (len(alive) + 1) // 2)
            halved[:0] = alive[keep:]
            alive = alive[:keep]
        if len(alive) == 1:
            break
    best = alive[0]
    if ranking is not None:  # every candidate was scored in the first round
        ranking.extend((c.plan, c.wins, c.scored, c.value / c.scored) for c in alive + halved)
    if blind:  # no scoring search can win: the estimate is the samples' own searches'
        return best.plan, sum(p[0] for p in proposals), n_samples, n_samples, n_candidates, spent
    return best.plan, best.wins, best.scored, n_samples, n_candidates, spent


def _candidates_to_score(candidates: list, suits: int) -> list:
    """The candidates the advisor scores, of all it has.

    A plan that reveals nothing is dropped while some candidate reveals
    something (it could go round in circles). With ``HONEST_DEAL_LAST`` (every
    number of suits), a plan that deals is dropped too while some candidate
    turns up a face-down card. A sample solved with full knowledge knows what
    the stock holds, so it finds dealing early harmless; an honest player
    that deals early buries the columns under cards it could not plan for
    (docs/honest.md has the measurements).
    """
    revealing = [c for c in candidates if c.kind != REVEALS_NOTHING]
    if HONEST_DEAL_LAST[suits] and any(c.kind == REVEALS_CARD for c in revealing):
        revealing = [c for c in revealing if c.kind == REVEALS_CARD]
    return revealing or candidates


def _prepared_reveals(view: Position, count: int, deals: bool = False) -> list:
    """The ``count`` plans that turn up a face-down card after at least one action
    that reveals nothing, leaving the tidiest table, with their candidate keys;
    with ``deals``, the plans that deal after at least one such action instead.

    A breadth-first search over the visible positions reachable from ``view``
    without a reveal (at most ``PREPARED_POSITIONS``, in the order of
    ``legal_actions``) finds every such plan; each is ranked by the value of
    the position before its last action under the plain heuristic (face-down
    cards, breaks, mixed pairs, empty columns, runs removed), then by its
    length. Those terms read only face-up cards and counts, so no hidden card
    changes the ranking (``heuristic.position_value`` of the visible position).
    """
    if count <= 0:
        return []
    paths = {view: ()}
    queue = [view]
    found = []  # (plan, key), in the order found
    for pos in queue:
        if len(paths) >= PREPARED_POSITIONS:
            break
        for action in legal_actions(pos):
            try:
                after = apply(pos, action)[0]
            except HiddenCard:
                if pos is not view and action.is_deal == deals:
                    found.append((paths[pos] + (action,), (pos, action)))
                continue
            if after not in paths:
                paths[after] = paths[pos] + (action,)
                queue.append(after)
    if not found:
        return []
    ranked = sorted(
        found,
        key=lambda item: (position_value(replay(view, item[0][:-1]).position, PLAIN), len(item[0])),
    )
    return ranked[:count]


__all__ = ["HONEST_NODES", "HONEST_SAMPLES", "HonestAdvice", "METHODS", "advise", "reveal_plan"]
