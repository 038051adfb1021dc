"""The plan of a batch run: its settings and its tasks, one per deal and setting.

A task is one deal to solve (or to play, for the honest player) under one
setting; the plan is every task of a run, sorted as the results table is.
Deal lists are given as text (``"0:20,35"``, see :func:`deal_ranges`), the
form a run's metadata keeps them in.

>>> tasks = plan("code", [1], ["classic"], range(0, 4), nodes=2000)
>>> [t.code for t in tasks]
['SP1-S1C-AAAAAAA', 'SP1-S1C-AAAAAAB', 'SP1-S1C-AAAAAAC', 'SP1-S1C-AAAAAAD']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import NamedTuple

from ..errors import SpiderError, comma_items, is_whole, shown
from ..state.codes import MAX_DEAL, GameCode, PysolDeal
from ..state.position import RULES
from .schema import DEFAULT_SEARCH, KEY, PLAYERS, SOURCES

MAX_PYSOL = 10**20 - 1
MAX_STORED_DEAL = 2**63 - 1  # the results' deal column is int64
# The most tasks (deals x settings) one run plans: the plan is a list in
# memory (about 200 bytes a task) and a million deals take a day on 2 cores.
# A longer range is several runs into the same --out.
MAX_TASKS = 1_000_000


def deal_ranges(text: str) -> list[tuple[int, int]]:
    """The ``(start, stop)`` ranges of ``"A:B"`` (A up to B-1), ``"N"`` or a comma list.

    A bad token is a SpiderError naming it (the command line puts the
    option's name in front).

    >>> deal_ranges("0:3,7")
    [(0, 3), (7, 8)]
    """
    tokens = comma_items(text)
    ranges = []
    for token in tokens:
        parts = token.split(":")
        if len(parts) not in (1, 2) or not all(
            p.strip().isascii() and p.strip().isdigit() for p in parts
        ):
            if token.strip().lower().startswith("ms"):  # PySolFC's ms numbers: one at a time
                raise SpiderError(
                    f"'{shown(token)}': a batch takes plain deal numbers; solve a PySolFC "
                    "ms number on its own (spidersolve solve pysol:4:msN)"
                )
            raise SpiderError(f"'{shown(token)}' is not a deal number or a range A:B")
        if any(len(part.strip().lstrip("0")) > 20 for part in parts):  # past every deal number
            raise SpiderError(f"'{shown(token)}' is past the last deal number")
        bounds = [int(part) for part in parts]
        if len(bounds) == 1:
            ranges.append((bounds[0], bounds[0] + 1))
            continue
        start, stop = bounds
        if stop <= start:
            raise SpiderError(
                f"'{token}' is an empty range (A:B means deals A up to B-1, so B must be above A)"
            )
        ranges.append((start, stop))
    return ranges


def deal_count(ranges: list[tuple[int, int]]) -> int:
    """How many deal numbers the ranges name, overlaps counted twice (an upper bound)."""
    return sum(stop - start for start, stop in ranges)


def deal_numbers(ranges: list[tuple[int, int]]) -> list[int]:
    """The distinct deal numbers of the ranges, sorted."""
    out: set[int] = set()
    for start, stop in ranges:
        out.update(range(start, stop))
    return sorted(out)


@dataclass(frozen=True, order=True)
class Setting:
    """One game variant of a run: where the deals come from, suits and rules."""

    source: str
    suits: int
    rules: str


def settings(source: str, suits: Iterable[int], rules: Iterable[str]) -> list[Setting]:
    """The distinct settings; 1 suit relaxed is 1 suit classic, so it is kept once."""
    if source not in SOURCES:
        raise SpiderError(f"--source: '{source}' is not a deal source (code or pysol)")
    suits = [suits] if isinstance(suits, int) else list(suits)
    rules = [rules] if isinstance(rules, str) else list(rules)  # not its letters
    for s in suits:
        if not is_whole(s) or s not in (1, 2, 4):
            raise SpiderError(f"--suits: '{shown(str(s))}' is not a suit count (1, 2 or 4)")
    for r in rules:
        if r not in RULES:
            raise SpiderError(f"--rules: '{shown(str(r))}' is not classic or relaxed")
    if source == "pysol" and "relaxed" in rules:
        raise SpiderError("--source pysol: PySolFC's Spider games use classic rules only")
    seen = {Setting(source, s, "classic" if s == 1 else r) for s in suits for r in rules}
    return sorted(seen)


@dataclass(frozen=True, order=True)
class Task:
    """One deal to solve (or to play, for the honest player). Sorts as the results table."""

    player: str
    samples: int
    seed: int
    source: str
    suits: int
    rules: str
    node_limit: int
    deal: int
    # the solver's search configuration: a name ``search.heuristic.preset`` takes
    search: str = DEFAULT_SEARCH

    @property
    def code(self) -> str:
        """The deal's canonical name: an SP1 game code, or ``pysol:SUITS:NUMBER``."""
        if self.source == "pysol":
            return PysolDeal(self.suits, str(self.deal)).text()
        return GameCode(self.suits, self.rules, self.deal).text()

    @property
    def key(self) -> tuple:
        """The results' key of this task (``schema.KEY``): one row per key."""
        return (
            self.source,
            self.code,
            self.node_limit,
            self.player,
            self.samples,
            self.seed,
            self.search,
        )

    def position(self):
        """The deal's start position."""
        if self.source == "pysol":
            return PysolDeal.parse(self.code).position()
        return GameCode(self.suits, self.rules, self.deal).position()


def plan(
    source: str,
    suits: Iterable[int],
    rules: Iterable[str],
    deals: Iterable[int],
    nodes: int | None,
    player: str = "solver",
    samples: int = 0,
    seed: int = 0,
) -> list[Task]:
    """Every task of a run, sorted, after checking the deal numbers and the limit.

    ``player`` ``honest`` plays each deal with the honest player (SPEC 11):
    ``nodes`` is then its budget per sample search (None: by the number of
    suits), with ``samples`` per decision and ``seed``.
    """
    if player not in PLAYERS:
        raise SpiderError(f"--player: '{player}' is not a player (solver or honest)")
    if player == "solver":
        samples = seed = 0
        if nodes is None:
            raise SpiderError("--nodes: a node limit is needed")
    elif not 1 <= samples <= 10_000:
        raise SpiderError(f"--samples: 1 .. 10000, not {samples}")
    deals = sorted(set(deals))
    if not deals:
        raise SpiderError("--deals: no deals given")
    for deal in deals:
        if not is_whole(deal):
            raise SpiderError(f"--deals: a deal number is a whole number, not {shown(repr(deal))}")
    if nodes is not None:
        from ..search.solver import check_node_limit

        try:
            check_node_limit(nodes)
        except SpiderError as err:
            raise SpiderError(f"--nodes: {err}") from None
    low, high = (1, MAX_PYSOL) if source == "pysol" else (0, MAX_DEAL)
    for deal in (deals[0], deals[-1]):
        if not low <= deal <= high:
            what = "PySolFC game numbers" if source == "pysol" else "deal numbers"
            raise SpiderError(f"--deals: {what} run from {low} to {high}, not {deal}")
    if deals[-1] > MAX_STORED_DEAL:
        raise SpiderError(
            f"--deals: PySolFC game {deals[-1]} is beyond what the results' "
            f"deal column holds (a 64-bit integer, at most {MAX_STORED_DEAL}); "
            f"solve such games one by one with 'spidersolve solve "
            f"pysol:{min(suits)}:{deals[-1]}'"
        )
    chosen = settings(source, suits, rules)
    if len(deals) * len(chosen) > MAX_TASKS:
        raise SpiderError(
            f"--deals: {len(deals):,} deals x {len(chosen)} settings is "
            f"{len(deals) * len(chosen):,} tasks, more than one run plans (at "
            f"most {MAX_TASKS:,}); split the range into several runs into the "
            "same --out"
        )
    if player == "honest":
        from ..search.honest import HONEST_NODES

        return sorted(
            Task(
                player, samples, seed, s.source, s.suits, s.rules, nodes or HONEST_NODES[s.suits], d
            )
            for s in chosen
            for d in deals
        )
    return sorted(
        Task(player, 0, 0, s.source, s.suits, s.rules, nodes, d) for s in chosen for d in deals
    )


@dataclass(frozen=True)
class Rung:
    """One rung of ``--retry``: a node limit and the search configuration to run."""

    nodes: int
    search: str = DEFAULT_SEARCH

    @property
    def with_search(self) -> str:
        """`` with kp300`` after a rung of another search; empty for the default."""
        return "" if self.search == DEFAULT_SEARCH else f" with {self.search}"

    def text(self) -> str:
        """``10,000,000`` or ``1,000,000 with kp300``, as the command's output says it."""
        return f"{self.nodes:,}{self.with_search}"

    def meta(self):
        """The rung as a run's settings record it: the node limit, or ``"N@NAME"``."""
        return self.nodes if self.search == DEFAULT_SEARCH else f"{self.nodes}@{self.search}"


def retry_budgets(nodes: int, budgets: Iterable) -> list[Rung]:
    """The rungs of ``--retry``, checked.

    Each is a node limit or ``(limit, search)``. A rung must be new: its node
    limit above that of every rung before it (``nodes``, the default search's,
    among them) that runs the same search, as a search's budgets nest.

    >>> [r.text() for r in retry_budgets(1000, [3000, (1000, "kp300"), 10000])]
    ['3,000', '1,000 with kp300', '10,000']
    """
    rungs = [Rung(*b) if isinstance(b, tuple) else Rung(b) for b in budgets]
    if not rungs:
        raise SpiderError("--retry: no node limit given")
    from ..search.heuristic import is_preset, names_text

    below = {DEFAULT_SEARCH: nodes}
    for rung in rungs:
        if not is_preset(rung.search):
            raise SpiderError(
                f"--retry: no search named '{rung.search}'; the names are {names_text()}"
            )
        before = below.get(rung.search)
        if before is not None and rung.nodes <= before:
            if rung.search == DEFAULT_SEARCH:
                raise SpiderError(
                    f"--retry: each node limit must be above --nodes and the one "
                    f"before it, not {rung.nodes:,} after {before:,}"
                )
            raise SpiderError(
                f"--retry: each node limit of the search {rung.search} must be above "
                f"the one before it, not {rung.nodes:,} after {before:,}"
            )
        below[rung.search] = rung.nodes
    return rungs


class RetryPlan(NamedTuple):
    """What a rung of ``batch --retry`` plans (``retry_tasks``)."""

    again: list  # the tasks to solve at the rung
    missing: list  # the tasks of the rung before that have no row yet
    settled: int  # unknown at the rung before but decided at another rung: not planned


def retry_tasks(
    tasks: list[Task], verdicts: dict, budget, search: str = DEFAULT_SEARCH
) -> RetryPlan:
    """The tasks to solve again at ``budget`` with ``search``, and those with no row yet.

    ``tasks`` are the plan of the rung before; ``verdicts`` maps the key of
    each row in the results (``Task.key``) to its verdict. A task whose row is
    ``unknown`` is planned again at ``budget`` (the run skips it if it has a
    row there already), unless a solver row of the same deal at another rung
    decided it (won or lost, at any limit or search) and it has no row at
    ``budget`` yet; a task won or lost is settled and left alone. ``budget`` may be a ``Rung``.

    >>> tasks = plan("code", [1], ["classic"], range(0, 3), nodes=200)
    >>> verdicts = {tasks[0].key: "won", tasks[1].key: "unknown"}
    >>> again, missing, settled = retry_tasks(tasks, verdicts, 20000)
    >>> [(t.deal, t.node_limit) for t in again], [t.deal for t in missing], settled
    ([(1, 20000)], [2], 0)
    """
    if isinstance(budget, Rung):
        budget, search = budget.nodes, budget.search
    # (source, code) of the deals the solver decided at another rung (the honest
    # player's games decide nothing; this rung's own rows are the run's to skip)
    decided = set()
    for key, verdict in verdicts.items():
        row = dict(zip(KEY, key))
        if verdict != "unknown" and row["player"] == "solver":
            if (row["node_limit"], row["search"]) != (budget, search):
                decided.add((row["source"], row["code"]))
    again, missing, settled = [], [], 0
    for task in tasks:
        verdict = verdicts.get(task.key)
        if verdict is None:
            missing.append(task)
        elif verdict == "unknown":
            retried = replace(task, node_limit=budget, search=search)
            # a deal settled elsewhere is not solved here, unless it was already
            # (a rerun of the same ladder plans what it planned before)
            if retried.key in verdicts or (task.source, task.code) not in decided:
                again.append(retried)
            else:
                settled += 1
    return RetryPlan(again, missing, settled)
