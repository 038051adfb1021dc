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

The estimate reported is the chosen candidate's wins over the samples it
was scored on. It is optimistic: after the plan, each sample is solved
with full knowledge.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from ..errors import SpiderError
from ..state import Action, Game, HiddenCard, Position, apply, legal_actions, line_text
from ..state.visible import samples as draw_samples
from ..state.visible import unknown_count, visible_of
from .solver import MAX_NODES, _Search

METHODS = ("vote", "compare", "bandit")
HONEST_SAMPLES = 8
HONEST_NODES = {1: 2_000, 2: 4_000, 4: 10_000}  # per sample search, by the number of suits
HONEST_TOP = 6  # candidates scored by ``compare`` and ``bandit``
DEFAULT_SEED = 0
# When no sample is won, the samples are searched again with ESCALATE_BY times the
# nodes, at most ESCALATIONS times; the candidates are then scored at that budget.
ESCALATIONS = 2
ESCALATE_BY = 4
# A visible position with no hidden card left is solved once, with this budget.
KNOWN_NODES = 200_000


@dataclass(frozen=True)
class HonestAdvice:
    """An honest decision and what it cost.

    ``status``: ``honest`` (an action chosen from the visible position),
    ``won`` (already won) or ``stuck`` (no legal action). ``plan`` is the
    actions the advisor commits to: up to and including the first action
    that turns up a hidden card or deals (``action`` is its first).
    ``wins`` of ``scored`` samples were won after the plan; ``samples``
    were drawn and ``nodes`` expanded in all.
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
        return None if not self.scored else self.wins / self.scored

    def as_dict(self) -> dict:
        return {"status": self.status,
                "action": self.action.text() if self.action else None,
                "words": self.words,
                "win_estimate": None if self.win_estimate is None else round(self.win_estimate, 4),
                "wins": self.wins, "scored": self.scored, "samples": self.samples,
                "candidates": self.candidates, "plan": line_text(self.plan),
                "nodes": self.nodes, "seconds": round(self.seconds, 4)}


def reveal_plan(view: Position, line) -> tuple[Action, ...]:
    """The start of ``line`` a player can commit to from ``view``.

    The actions up to and including the first that needs a card ``view``
    does not know (it turns up a ``??`` or deals one); the whole line when
    none does. The line must be legal in ``view`` up to that action.
    """
    plan = []
    pos = view
    for action in line:
        plan.append(action)
        try:
            pos = apply(pos, action)[0]
        except HiddenCard:
            break
    return tuple(plan)


def frontier_key(view: Position, plan) -> tuple:
    """Plans with equal keys reach the same visible position, then play the same action."""
    pos = view
    for action in plan[:-1]:
        pos = apply(pos, action)[0]
    return (pos, plan[-1]) if plan else (pos, None)


REVEALS_CARD, DEALS, REVEALS_NOTHING = 0, 1, 2


def plan_kind(view: Position, plan) -> int:
    """How a plan ends: it turns up a face-down card, it deals, or it reveals nothing.

    Among candidates that win as often, the advisor prefers them in that
    order: a face-down card turned up costs nothing but the move, a deal
    buries every column under a card.
    """
    last = plan[-1]
    try:
        _after(view, plan)
    except HiddenCard:
        return DEALS if last.is_deal else REVEALS_CARD
    return REVEALS_NOTHING


def _solve(position: Position, nodes: int) -> tuple[bool, tuple[Action, ...], int]:
    """A full-knowledge search: won?, the winning (or best) line, nodes expanded."""
    if len(position.removed) == 8:
        return True, (), 0
    if not legal_actions(position):
        return False, (), 0
    run = _Search(Game.start(position), nodes)
    if run.verdict == "won":
        return True, run.winning_line(), run.nodes
    return False, (run.best_line() if run.verdict == "unknown" else ()), run.nodes


def _after(position: Position, plan) -> Position:
    for action in plan:
        position = apply(position, action)[0]
    return position


class _Pool:
    """Runs searches on the cores (the kernel releases the GIL); results keep their order."""

    def __init__(self, workers: int):
        self.workers = max(1, workers)
        self._executor = ThreadPoolExecutor(self.workers) if self.workers > 1 else None

    def map(self, fn, items):
        items = list(items)
        if self._executor is None or len(items) < 2:
            return [fn(item) for item in items]
        return list(self._executor.map(fn, items))

    def close(self):
        if self._executor is not None:
            self._executor.shutdown()


def default_workers() -> int:
    return max(1, min(2, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                      else (os.cpu_count() or 1)))


def advise(view: Position, samples: int = HONEST_SAMPLES, seed: int = DEFAULT_SEED,
           nodes: int | None = None, method: str = "bandit", top: int = HONEST_TOP,
           workers: int = 1) -> HonestAdvice:
    """Choose an action from what a player sees.

    ``view`` may hold ``??``; any known face-down or stock card it holds is
    used, and a full position is first made visible. The result is a
    function of the visible position, the options and ``seed`` alone, the
    same for any number of ``workers`` (threads that run the searches).

    >>> from spidersolve.state import GameCode
    >>> advise(GameCode.parse("SP1-S1C-AAAAAAD").position(), samples=2).status
    'honest'
    """
    if method not in METHODS:
        raise SpiderError(f"method must be one of {', '.join(METHODS)}, not {method!r}")
    if not 1 <= samples <= 10_000:
        raise SpiderError(f"samples must be 1 .. 10000, not {samples}")
    started = time.perf_counter()
    if not view.has_unknown:
        view = visible_of(view)
    if nodes is None:
        nodes = HONEST_NODES[view.suits]
    if not 1 <= nodes <= MAX_NODES:
        raise SpiderError(f"the node limit must be 1 .. {MAX_NODES}, not {nodes}")
    if len(view.removed) == 8:
        return HonestAdvice("won", None, (), 0, 0, 0, 0, 0, time.perf_counter() - started)
    legal = legal_actions(view)
    if not legal:
        return HonestAdvice("stuck", None, (), 0, 0, 0, 0, 0, time.perf_counter() - started)
    pool = _Pool(workers)
    try:
        plan, wins, scored, n_samples, n_candidates, spent = _choose(
            view, legal, samples, seed, nodes, method, top, pool)
    finally:
        pool.close()
    return HonestAdvice("honest", plan[0], plan, wins, scored, n_samples, n_candidates, spent,
                        time.perf_counter() - started, plan[0].words(view))


def _choose(view, legal, n_samples, seed, nodes, method, top, pool):
    if unknown_count(view) == 0:  # nothing hidden: the full-knowledge search decides
        won, line, spent = _solve(view, max(nodes, KNOWN_NODES))
        plan = line or (legal[0],)
        return plan, int(won), 1, 0, 1, spent
    sampled = draw_samples(view, n_samples, seed)
    spent = 0
    for _ in range(ESCALATIONS + 1):  # no sample won: search them again, deeper
        proposals = pool.map(lambda pos: _solve(pos, nodes), sampled)
        spent += sum(p[2] for p in proposals)
        if any(p[0] for p in proposals):
            break
        nodes *= ESCALATE_BY
    # candidates in order of first proposal: key -> [plan, votes, won votes, known wins]
    candidates: dict = {}
    for i, (won, line, _n) in enumerate(proposals):
        plan = reveal_plan(view, line) if line else (legal[0],)
        key = frontier_key(view, plan)
        entry = candidates.setdefault(key, [plan, 0, 0, set(), plan_kind(view, plan)])
        entry[1] += 1
        if won:
            entry[2] += 1
            entry[3].add(i)  # sample i is won after this plan: its own line shows it
    # Moves that turn up a face-down card at once are candidates too, proposed or not:
    # full-knowledge lines deal early, as they know what the stock holds.
    for action in legal:
        if action.is_deal or len(view.up[action.src]) != action.n_cards \
                or not view.down[action.src]:
            continue
        plan = (action,)
        candidates.setdefault(frontier_key(view, plan), [plan, 0, 0, set(), REVEALS_CARD])
    ranked = sorted(candidates.values(), key=lambda e: (-e[2], e[4], -e[1]))  # stable
    if method == "vote" or len(ranked) == 1:
        best = ranked[0]
        return best[0], best[2], n_samples, n_samples, len(ranked), spent
    alive = ranked[:top]
    tally = {id(e): [0, 0] for e in alive}  # wins, scored

    def score(entry, indices):
        todo = [i for i in indices if i not in entry[3]]
        results = pool.map(lambda i: _solve(_after(sampled[i], entry[0]), nodes), todo)
        won = len(indices) - len(todo) + sum(1 for r in results if r[0])
        return won, len(indices), sum(r[2] for r in results)

    if method == "compare":
        rounds = [list(range(n_samples))]
    else:  # successive halving: log2(top) rounds over equal shares of the samples
        n_rounds = max(1, (len(alive) - 1).bit_length())
        share = max(1, n_samples // n_rounds)
        rounds = [list(range(r * share, n_samples if r == n_rounds - 1 else (r + 1) * share))
                  for r in range(n_rounds)]
    for r, indices in enumerate(rounds):
        for entry in alive:
            won, count, used = score(entry, indices)
            tally[id(entry)][0] += won
            tally[id(entry)][1] += count
            spent += used
        alive = sorted(alive, key=lambda e: (-tally[id(e)][0] / max(1, tally[id(e)][1]),
                                             e[4], -e[2], -e[1]))
        if r < len(rounds) - 1:
            alive = alive[:max(1, (len(alive) + 1) // 2)]
        if len(alive) == 1 and r < len(rounds) - 1 and method == "bandit":
            break
    best = alive[0]
    wins, scored = tally[id(best)]
    return best[0], wins, scored, n_samples, len(ranked), spent


__all__ = ["HONEST_NODES", "HONEST_SAMPLES", "HonestAdvice", "METHODS", "advise",
           "reveal_plan"]
