"""``solve``: the bounded best-first search, its result, and the replay check."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from itertools import accumulate

import numpy as np

from ..errors import SpiderError, is_whole, shown
from ..interrupt import run_kernel
from ..state import Action, Game, as_game, line_text, parse_line, replay
from ..state._board import DEAL as DEAL_CODE
from ..state.kernel import CARD_KEYS, STOCK_KEYS
from ..state.packed import action_from_code, action_to_code, to_board
from ..verdict import MAX_NODES, Verdict
from . import _kernels as K
from . import _lines as L
from ._frontier import MACRO_BITS
from ._terms import W_MACRO
from .compiled import fresh_kernels
from .heuristic import TAIL_BEAMS, beam_weights, position_value, weight_rows
from .macros import expand
from .native import run_search_kernel
from .verify import verify_win

DEFAULT_NODES = 1_000_000


@dataclass(frozen=True)
class SolveResult:
    """What a search found.

    Parameters
    ----------
    verdict : Verdict
        ``won``, ``lost`` or ``unknown`` (SPEC section 9); text is accepted.
    nodes : int
        Positions taken from the frontier and expanded.
    seconds : float
        The whole solve: search, line shortening and replay check. Not part
        of the result's identity: it is left out of ``==`` and ``repr``.
    line : tuple of Action, optional
        For a win, the winning line (replayed with the reference rules
        before it is returned); line text is accepted.
    moves : int, optional
        For a win, the line's length.
    score : int, optional
        For a win, the final score of the whole game (from the start of the
        source, ``after`` included).
    memory_full : bool
        For ``unknown``: the search stopped because its arrays would have
        grown past the memory given to it (``solve(..., memory=...)``), not
        at the node limit. Left out of ``==`` and of ``repr`` when False.

    Examples
    --------
    >>> r = SolveResult("won", nodes=7, line="1>8 deal", moves=2, score=1200)
    >>> r
    SolveResult('won', nodes=7, moves=2, score=1200, line='1>8 deal')
    >>> r.verdict, r.line[0]
    (Verdict.WON, Action.parse('1>8'))
    >>> eval(repr(r)) == r
    True
    """

    verdict: Verdict
    nodes: int
    seconds: float = field(default=0.0, compare=False)
    line: tuple[Action, ...] | None = None
    moves: int | None = None
    score: int | None = None
    memory_full: bool = field(default=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "verdict", Verdict(self.verdict))
        if isinstance(self.line, str):
            object.__setattr__(self, "line", tuple(parse_line(self.line)))
        elif self.line is not None:
            object.__setattr__(self, "line", tuple(self.line))

    def __repr__(self) -> str:
        parts = [repr(str(self.verdict)), f"nodes={self.nodes}"]
        parts += [
            f"{name}={value!r}"
            for name, value in (
                ("moves", self.moves),
                ("score", self.score),
                ("line", self.line_text),
            )
            if value is not None
        ]
        if self.memory_full:
            parts.append("memory_full=True")
        return f"SolveResult({', '.join(parts)})"

    @property
    def line_text(self) -> str | None:
        """The winning line as text (``None`` without a win).

        >>> SolveResult("won", 7, line="1>8 deal").line_text
        '1>8 deal'
        """
        return None if self.line is None else line_text(self.line)

    def as_dict(self) -> dict:
        """The result as the JSON object ``solve --json`` prints.

        >>> SolveResult("unknown", 100).as_dict()["verdict"]
        'unknown'
        """
        out = {
            "verdict": self.verdict.value,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
            "line": self.line_text,
            "moves": self.moves,
            "score": self.score,
        }
        if self.memory_full:
            out["memory_full"] = True
        return out


start_of = as_game  # the one coercion of a source to a Game (``state.as_game``)


def check_node_limit(nodes: int) -> None:
    """Raise SpiderError unless ``nodes`` is a node limit a search takes: a whole
    number (a Python or numpy integer, not a bool) 1 .. MAX_NODES."""
    if not is_whole(nodes) or not 1 <= nodes <= MAX_NODES:
        raise SpiderError(f"the node limit must be 1 .. {MAX_NODES}, not {shown(repr(nodes))}")


def check_memory_cap(memory) -> None:
    """Raise SpiderError unless ``memory`` is None or a whole number of bytes 1 .. 2**62 - 1."""
    if memory is None:
        return
    if not is_whole(memory) or not 0 < memory < 2**62:
        raise SpiderError(
            f"the search's memory must be a positive number of bytes, not {shown(repr(memory))}"
        )


def _plain(code: int) -> int:
    """An entry's action code without a macro move's parked runs (``_frontier.MACRO_BITS``)."""
    return code if code == DEAL_CODE else code & ~MACRO_BITS


class _Search:
    """One run of the kernel and what it left behind to rebuild lines from."""

    def __init__(
        self,
        game: Game,
        nodes: int,
        weights=None,
        memory: int | None = None,
        reveals: int = -1,
    ):
        """``reveals`` >= 0: expand only positions reached with at most that many
        reveals (``_kernels.search``'s ``reveal_limit``); -1: every position."""
        position = game.position
        check_node_limit(nodes)
        check_memory_cap(memory)
        if position.has_unknown:
            raise SpiderError(
                "the position has unknown cards (??) and cannot be solved with "
                "full knowledge: solve the whole deal (its game code, after= the "
                "line played), or ask advise() for an honest hint"
            )
        started = time.perf_counter()
        self._best: tuple[Action, ...] | None = None  # kept by release()
        weights = weight_rows(weights)  # the named configurations as the kernel's rows
        # a row with macro moves: lines are written out as legal moves (macros.expand)
        self._macro_from = position if bool((weights[:, W_MACRO] > 0).any()) else None
        fresh_kernels()  # numba's cache does not see edits to the kernels a kernel inlines
        self.result = np.zeros(K.RESULT_SIZE, np.int64)
        self.node_entry, self.ent_parent, self.ent_action = run_search_kernel(
            K.search,
            to_board(position),
            position.relaxed,
            int(nodes),
            0 if memory is None else int(memory),
            int(reveals),
            weights,
            CARD_KEYS,
            STOCK_KEYS,
            self.result,
        )
        self.seconds = time.perf_counter() - started
        verdicts = {K.WON: Verdict.WON, K.LOST: Verdict.LOST, K.UNKNOWN: Verdict.UNKNOWN}
        self.verdict = verdicts[int(self.result[K.RESULT_VERDICT])]
        self.nodes = int(self.result[K.RESULT_NODES])
        # the best value of heuristic row 0 generated
        self.best_value = int(self.result[K.RESULT_BEST_VALUE])
        # stopped by the memory cap, not the node limit; the bytes its arrays held
        self.memory_full = int(self.result[K.RESULT_STOPPED]) == K.STOPPED_BY_MEMORY
        self.bytes = int(self.result[K.RESULT_BYTES])
        self.leaves = int(self.result[K.RESULT_LEAVES])

    def _codes_to(self, node: int) -> list[int]:
        """Entry action codes (a macro move's with its parked runs) from the root to
        expanded node ``node``, last first."""
        codes = []
        while node > 0:
            entry = self.node_entry[node]
            codes.append(int(self.ent_action[entry]))
            node = int(self.ent_parent[entry])
        return codes

    def winning_line(self) -> tuple[Action, ...]:
        codes = [int(self.result[K.RESULT_WIN_ACTION])] + self._codes_to(
            int(self.result[K.RESULT_WIN_NODE])
        )
        return self._legal(codes[::-1])

    def _legal(self, codes: list[int]) -> tuple[Action, ...]:
        """The line of entry action codes ``codes``, any macro move written out as legal
        moves (``macros.expand``; a line without one is the moves of the rules as it is,
        and costs no walk in Python)."""
        plain = [_plain(c) for c in codes]
        line = tuple(action_from_code(c) for c in plain)
        if self._macro_from is None or plain == codes:
            return line
        return expand(self._macro_from, line)

    def release(self) -> None:
        """Let go of the arrays lines are rebuilt from, keeping the best line."""
        self._best = self.best_line()
        self.node_entry = self.ent_parent = self.ent_action = None

    def best_line(self) -> tuple[Action, ...]:
        """The actions to the best-valued position the search generated (may be empty)."""
        if self._best is not None:
            return self._best
        return self._line_to(int(self.result[K.RESULT_BEST_ENTRY]))

    def late_line(self) -> tuple[Action, ...]:
        """The actions to the position generated with the fewest deals left and, among
        those, the best value of row 0 (may be empty)."""
        return self._line_to(int(self.result[K.RESULT_LATE_ENTRY]))

    def _line_to(self, entry: int) -> tuple[Action, ...]:
        if entry <= 0:
            return ()
        codes = [int(self.ent_action[entry])] + self._codes_to(int(self.ent_parent[entry]))
        return self._legal(codes[::-1])

    def best_first_action(self) -> Action | None:
        """The first action towards the best-valued position the search generated."""
        line = self.best_line()
        return line[0] if line else None


def solve(
    source,
    nodes: int = DEFAULT_NODES,
    after: str = "",
    weights=None,
    shorten: bool = False,
    memory: int | None = None,
) -> SolveResult:
    """Search for a winning line (SPEC section 9).

    Parameters
    ----------
    source : str, Position, Game, GameCode or PysolDeal
        Where to start: a game code (``"SP1-S1C-AAAAAAD"``), a PySolFC deal
        (``"pysol:4:14934"``), a position file name, or a value (see
        ``state.as_game``). A Game keeps its move counter and score.
    nodes : int
        The node limit: positions expanded. Budgets nest (a deal won with n
        nodes is won with the same line at every limit >= n).
    after : str
        A line played from the source first, like ``"1>8 deal"``.
    weights : None, Weights, str or a sequence of them
        The heuristics. ``None``, the default: ``heuristic.DEFAULT_WEIGHTS``
        for the first 450,000 nodes, then, for a deal still unknown, the
        back beams (the last beam of ``heuristic.TAIL_BEAMS`` for 50,000
        nodes from the rows' latest position cut before its last deal, then
        for 50,000 from it cut before the one before), then each beam of
        ``heuristic.TAIL_BEAMS`` alone from the start for 172,500 more, in
        turn, each followed by a back beam for 50,000 from that beam's own
        latest position cut before its last deal, then 5,000 for the
        default rows from the positions all those searches reached with the
        fewest deals left, the most promising first and 2,500 at most from
        each (the finisher), then the default rows again with what is left
        (``_phases``).
        Otherwise one search with those rows: named configurations
        (``heuristic.PRESETS``, where ``"default"`` is the six rows with
        macro moves after their first 50,000 nodes, without the phases);
        see ``heuristic.weight_rows``.
    shorten : bool
        Then look for a shorter winning line (see ``shorten_line``; the
        seconds include it).
    memory : int, optional
        The most bytes the search's arrays may hold (their capacities). A
        search that would grow past it stops ``unknown`` with
        ``memory_full`` set, as a node limit of the nodes it expanded would
        have stopped it. None: no cap (the caller checks the node limit
        fits, as the commands do).

    Returns
    -------
    SolveResult
        The verdict, the nodes expanded and, for a win, the line, replayed
        with the reference rules before it is returned.

    Examples
    --------
    >>> result = solve("SP1-S1C-AAAAAAD", after="10>2")
    >>> result.verdict, result.moves
    (Verdict.WON, 111)
    >>> solve("SP1-S4C-AAAAAAD", nodes=100)
    SolveResult('unknown', nodes=100)
    """
    return _solve_game(start_of(source, after), nodes, weights, shorten, memory)[0]


# The default configuration's budget in phases (docs/solver.md): its first
# TAIL_AFTER nodes go to the default rows; a deal they leave unknown gets
# BACK_NODES from each *back beam*: the second beam of ``heuristic.TAIL_BEAMS``
# from the position the rows reached with the fewest deals left, its line cut
# before its last deal, then before the one before (BACK_DEALS starts); then
# TAIL_NODES for each beam of ``heuristic.TAIL_BEAMS`` alone from the deal, in
# turn (two beams ranked as KPatience ranks, their ties drawn two ways), each
# followed by BEAM_BACK_DEALS back beams from that beam's own latest position
# (BACK_NODES each); then FINISH_NODES for the *finisher*: the default rows
# from the position each search before it (the rows, each back beam, each tail
# beam) reached with the fewest deals left (the best of those by its value),
# the fewest deals left and best plain value first, FINISH_EACH at most from
# each (``_finisher_starts``); what is left of the budget, if more than
# TAIL_AFTER, goes to the default rows again, from the start. Chosen on
# training deals PySolFC four suits 6401..8400, checked on 8401..14400 and
# 14401..18400 (docs/tuning.md).
TAIL_AFTER = 450_000
BACK_NODES = 50_000
BACK_DEALS = 2
TAIL_NODES = 172_500
BEAM_BACK_DEALS = 1
FINISH_NODES = 5_000
FINISH_EACH = 2_500  # the most nodes the finisher spends from one start
FINISH = "finish"  # the finisher's phase (``_phases``)
BACK = "back"  # a back beam's phase (``_phases``)


def _phases(nodes: int, weights) -> list[tuple[int | None, object]]:
    """The searches of a budget, in order: (mark, weights) each.

    Each search runs until the nodes spent by it and the searches before it
    reach its mark (or the budget). ``None``: what the searches before it
    left of the budget, if more than ``TAIL_AFTER`` and the first phase was
    not stopped by the memory cap (else the default rows again could win
    nothing the first phase did not). ``BACK``: a back beam, the second tail
    beam from the latest position (``_Search.late_line``) of the search
    before it that was not a back beam (the first phase, or a tail beam), the
    line to it cut before its last deal, then (the next ``BACK``) before the
    one before (``_back_starts``). ``FINISH``: the finisher, the default
    rows from each earlier search's latest position in the order of
    ``_finisher_starts``, each with what the searches before it left up to
    the mark, ``FINISH_EACH`` at most. So a search that
    stops early, at the memory cap too, or a phase with no position to start
    from, leaves its nodes to the next, and budgets nest: a deal won with n
    nodes in all is won with the same line at every budget >= n. A solve can
    so end ``unknown`` below its node limit without a memory cap: when the
    finisher's searches end without a win (or it has no position to start
    from, or too few to spend its nodes at ``FINISH_EACH`` each), or with a
    limit up to the finisher's mark + ``TAIL_AFTER`` (then
    the default rows again could not go past their first ``TAIL_AFTER``).

    >>> rows = TAIL_AFTER + BACK_DEALS * BACK_NODES
    >>> beam = TAIL_NODES + BEAM_BACK_DEALS * BACK_NODES
    >>> _phases(1_000_000, None) == [
    ...     (TAIL_AFTER, None),
    ...     (TAIL_AFTER + BACK_NODES, BACK),
    ...     (rows, BACK),
    ...     (rows + TAIL_NODES, TAIL_BEAMS[0]),
    ...     (rows + beam, BACK),
    ...     (rows + beam + TAIL_NODES, TAIL_BEAMS[1]),
    ...     (rows + 2 * beam, BACK),
    ...     (rows + 2 * beam + FINISH_NODES, FINISH),
    ...     (None, None),
    ... ] and rows + 2 * beam + FINISH_NODES == 1_000_000
    True

    The phases are the same for every limit (only where each stops
    depends on it): below ``TAIL_AFTER`` the default rows take the whole
    limit unless the memory cap stops them first, and then the phases after
    them get the rest, as at every larger limit, so budgets nest under a
    cap too.

    >>> _phases(300_000, None) == _phases(1_000_000, None), _phases(10**7, "plain")
    (True, [(10000000, 'plain')])
    """
    if weights is not None:
        return [(nodes, weights)]
    back: list[tuple[int, object]] = [(BACK_NODES, BACK)]
    widths = [(TAIL_AFTER, None), *back * BACK_DEALS]
    for beam in TAIL_BEAMS:
        widths += [(TAIL_NODES, beam), *back * BEAM_BACK_DEALS]
    widths.append((FINISH_NODES, FINISH))
    marks = accumulate(width for width, _ in widths)
    return [*zip(marks, (rows for _, rows in widths)), (None, None)]


def _back_starts(line: tuple, count: int) -> list[tuple]:
    """Where the back beams start: ``line`` cut before its last deal, then before the
    one before, and so on, ``count`` cuts at most, once each, none empty.

    >>> from spidersolve.state.actions import parse_line
    >>> line = parse_line("1>2 deal 3>4 5>6 deal 7>8")
    >>> [" ".join(map(str, s)) for s in _back_starts(line, 3)]
    ['1>2 deal 3>4 5>6', '1>2']
    """
    deals = [k for k, action in enumerate(line) if action.is_deal]
    return list(dict.fromkeys(tuple(line[:k]) for k in deals[::-1][:count] if k > 0))


def _finisher_starts(game: Game, late: list) -> list:
    """Where the finisher starts: the latest line of each search before it
    (``_Search.late_line``, from ``game``: the six rows', each back beam's, each
    tail beam's), the fewest deals left first, then the best plain value
    (``heuristic.position_value``), then the order the searches ran; once each,
    none empty.

    A search's latest position is one it generated but most often never
    expanded; with no stock left and few face-down cards, it is often won in a
    few dozen nodes, or a dead end proved in a few hundred.
    """
    lines = list(dict.fromkeys(line for line in late if line))
    ends = [replay(game, line).position for line in lines]
    order = sorted(
        range(len(lines)), key=lambda k: (len(ends[k].stock), position_value(ends[k]), k)
    )
    return [lines[k] for k in order]


def _solve_game(game: Game, nodes: int, weights=None, shorten=False, memory=None):
    """solve() on a Game: the result and the search run (None for a won game).

    For an unknown deal the run is the first phase's (``_phases``), whose
    best line a hint follows.
    """
    started = time.perf_counter()
    check_node_limit(nodes)  # checked even where no search runs: a bad call is one anyway
    check_memory_cap(memory)
    if game.won:
        return SolveResult(Verdict.WON, 0, time.perf_counter() - started, (), 0, game.score), None
    spent = 0
    full = False
    first: _Search | None = None
    run: _Search | None = None
    late: list[tuple[Action, ...]] = []  # each search's latest position, for the finisher
    back: list[tuple[Action, ...]] = []  # the back beams' starts (_back_starts)
    prefix: tuple[Action, ...] = ()  # the line from ``game`` to where ``run`` started
    for mark, rows in _phases(nodes, weights):
        if mark is None and (
            nodes - spent <= TAIL_AFTER or (first is not None and first.memory_full)
        ):
            break  # the default rows again would stop where they stopped first
        finishing = weights is None and rows == FINISH
        backing = weights is None and rows == BACK
        if finishing:
            starts = _finisher_starts(game, late)
        elif backing:
            # its start, if the line it cuts (the rows' or a tail beam's) has one left
            starts = back[:1]
            back = back[1:]
        else:
            starts = [()]
        ran = False
        for start in starts:
            budget = (nodes if mark is None else min(mark, nodes)) - spent
            if budget < 1:
                break
            if finishing:
                budget = min(budget, FINISH_EACH)
            if run is not None:
                run.release()  # its arrays, before the next search takes its own
            prefix = start
            weights_now = None if finishing else TAIL_BEAMS[-1] if backing else rows
            run = _Search(replay(game, start) if start else game, budget, weights_now, memory)
            spent += run.nodes
            full = full or run.memory_full
            if first is None:
                first = run
                if weights is None and run.verdict == "unknown" and run.nodes < nodes:
                    back = _back_starts(run.late_line(), BACK_DEALS)
            ran = True
            if run.verdict == "won":
                break
            if weights is None and not finishing and run.verdict == "unknown":
                late.append(start + run.late_line())
        if run is None or run.verdict == "won":
            break
        if not ran:
            continue
        if run.verdict == "lost" and not prefix:
            # a search from the game itself walked the whole tree (the default rows,
            # or a beam that dropped nothing): no win exists
            break
        if weights is None and rows is not None and not (finishing or backing):  # a tail beam
            back = _back_starts(late[-1], BEAM_BACK_DEALS)  # its own back beams' starts
    assert run is not None  # the first phase always runs: nodes >= 1
    if run.verdict != "won":
        seconds = time.perf_counter() - started
        # a lost from a start (a back beam's, the finisher's) is that position's,
        # not the deal's
        verdict = Verdict.UNKNOWN if prefix else run.verdict
        return SolveResult(verdict, spent, seconds, memory_full=full), first
    line = prefix + run.winning_line()
    if shorten:
        line = shorten_line(game, line)
    final = verify_win(game, line)
    return SolveResult(
        Verdict.WON, spent, time.perf_counter() - started, line, len(line), final.score
    ), run


# Positions the line beam keeps per layer and number of deals left, by the
# number of suits (chosen on training deals: docs/tuning.md).
SHORTEN_WIDTHS = {1: 300, 2: 300, 4: 200}
SHORTEN_NODES = 1_000_000  # positions the beam may expand


def shorten_line(
    game: Game, line, width: int | None = None, nodes: int = SHORTEN_NODES, weights=None
) -> tuple[Action, ...]:
    """A winning line no longer than ``line``, most often shorter.

    A beam search seeded with the line (``_lines.beam``): one layer per
    action, the ``width`` best positions (by default ``SHORTEN_WIDTHS`` of
    the game's number of suits) for each number of deals left by
    ``weights`` (by default ``heuristic.beam_weights`` of the game's number
    of suits), plus the line's own position,
    so it cannot do worse; it stops at the first win or after expanding
    ``nodes`` positions. Deterministic: the same line gives the same result.
    The caller replays the result with the reference rules.
    """
    if width is None:
        width = SHORTEN_WIDTHS[game.position.suits]
    codes = np.array([action_to_code(a) for a in line], np.int32)
    if width < 1 or len(codes) < 2:
        return tuple(line)
    rank = weight_rows(beam_weights(game.position.suits) if weights is None else weights)
    if len(rank) != 1:
        raise ValueError("weights: the line beam ranks by one heuristic")
    fresh_kernels()
    board = to_board(game.position)  # the counters come from the reference replay
    out = np.empty(len(codes), np.int32)
    stats = np.zeros(2, np.int64)
    n = run_kernel(
        L.beam,
        board,
        game.position.relaxed,
        codes,
        int(width),
        rank[0],
        CARD_KEYS,
        STOCK_KEYS,
        int(nodes),
        True,
        out,
        stats,
    )
    return tuple(action_from_code(int(c)) for c in out[:n])
