"""``prove``: settle a deal for good, won or lost, with an exhaustive walk.

The best-first search (``solve``) is fast at finding wins but keeps about
470 bytes for each position it expands, so a deal it cannot win within its
node limit stays ``unknown``. ``prove`` first runs that search; when it
says ``unknown``, it walks every position reachable from the start, depth
first, keeping only a seen set of 128-bit hashes (16 bytes a position) and
the current path (``_prove.prove``). A walk that ends without a win visited
every reachable position: the deal is ``lost``. A walk that finds a win
gives a (long) line, which the line beam shortens and the reference rules
replay before it is reported. A walk that runs out of memory, nodes or time
says ``unknown`` and how far it got.
"""

from __future__ import annotations

import mmap
import time
from dataclasses import dataclass

import numpy as np

from ..errors import SpiderError
from ..interrupt import run_kernel
from ..state import Action, Game, as_game, line_text
from ..state._board import UNDO_SIZE
from ..state.kernel import CARD_KEYS, STOCK_KEYS
from ..state.packed import action_from_code, to_board
from ..verdict import Verdict
from . import _prove as P
from .compiled import fresh_kernels
from .memory import BASE_BYTES, available_bytes, size_text, total_bytes
from .solver import DEFAULT_NODES, MAX_NODES, _solve_game, shorten_line
from .verify import verify_win

MIN_DEPTH = 1 << 18  # levels of the walk's path at least; a deeper path gives up (unknown)
PATH_SHARE = 8  # the path takes up to 1/8 of the walk's memory, the seen set the rest
ACTIONS_PER_LEVEL = 24  # the action stack holds this many actions a level on average
SLOT_BYTES = 16  # one position in the seen set: its two 64-bit hashes
# the path: one level's undo record, its actions, start, count, index, line cell, its
# columns' hashes and its position's hashes
LEVEL_BYTES = 4 * UNDO_SIZE + 4 * ACTIONS_PER_LEVEL + 3 * 8 + 4 + 2 * 8 * 10 + 2 * 8
MIN_MEMORY = BASE_BYTES + MIN_DEPTH * LEVEL_BYTES + (1 << 10) * SLOT_BYTES
WHY_FULL = {
    P.FULL_TABLE: "the seen set was full",
    P.FULL_DEPTH: "the path was too deep",
    P.FULL_ACTIONS: "the action stack was full",
}


@dataclass(frozen=True)
class ProveResult:
    """What ``prove`` found.

    ``verdict`` is ``won``, ``lost`` or ``unknown``; ``by`` says which search
    settled it (``search``: the best-first search within ``search_nodes``;
    ``walk``: the exhaustive walk). ``nodes`` counts the walk's positions
    entered (0 if the search settled it), ``seen`` the distinct positions it
    recorded, ``max_depth`` its deepest path, ``memory`` the bytes its seen
    set and path took, ``why`` why an ``unknown`` walk gave up.
    """

    verdict: Verdict
    by: str
    search_nodes: int
    nodes: int
    seen: int
    max_depth: int
    memory: int
    seconds: float
    line: tuple[Action, ...] | None = None
    why: str = ""
    score: int | None = None  # the score at the end of a winning line, as ``solve`` says it

    def as_dict(self) -> dict:
        return {
            "verdict": self.verdict,
            "by": self.by,
            "search_nodes": self.search_nodes,
            "nodes": self.nodes,
            "seen": self.seen,
            "max_depth": self.max_depth,
            "memory": self.memory,
            "seconds": round(self.seconds, 3),
            "line": None if self.line is None else line_text(self.line),
            "moves": None if self.line is None else len(self.line),
            "score": self.score,
            "why": self.why,
        }


def path_levels(memory: int) -> int:
    """Levels of the walk's path for ``memory`` bytes: 1/``PATH_SHARE`` of it,
    at least ``MIN_DEPTH`` (a walk can go as deep as it has positions)."""
    return max(MIN_DEPTH, (memory - BASE_BYTES) // PATH_SHARE // LEVEL_BYTES)


def table_slots(memory: int) -> int:
    """The largest power of two of seen-set slots that fits in ``memory`` bytes
    beside the path; at least 2**10."""
    room = memory - BASE_BYTES - path_levels(memory) * LEVEL_BYTES
    slots = 1 << 10
    while 2 * slots * SLOT_BYTES <= room:
        slots *= 2
    return slots


def _zeroed(slots: int) -> np.ndarray:
    """The seen set's zeroed uint64 array, from an anonymous mapping of its own.

    Not ``np.zeros``: numpy asks for huge pages on large arrays, and on this
    project's machines the first touch of each took milliseconds (7 ms with
    16 GB), so a walk took seconds over its first few hundred positions and
    to answer Ctrl-C there. With ordinary pages the flag set 1 s into a walk
    with 8 GB is answered in 0.15 s, for some 5% more CPU time a position
    (``benchmarks/prove_walk.py``; docs/robustness.md).
    """
    size = slots * np.dtype(np.uint64).itemsize
    try:
        buffer = mmap.mmap(-1, size)
    except (OSError, OverflowError, ValueError) as err:
        raise SpiderError(
            f"the walk could not have {size_text(size)} of memory for its seen set "
            f"({err}): give a smaller --memory"
        ) from None
    return np.frombuffer(buffer, np.uint64)


def walk(game: Game, memory: int, nodes: int = MAX_NODES, every: bool = False):
    """The exhaustive walk from ``game``: (verdict, line, result array, bytes).

    ``every``: walk on past a win and count every reachable position. The
    last item is the ``KeyboardInterrupt`` (Ctrl-C, or ``Terminated``) that
    stopped the walk, for the caller to raise; else None."""
    position = game.position
    slots = table_slots(memory)
    seen_lo = _zeroed(slots)
    seen_hi = _zeroed(slots)
    depth = path_levels(memory)
    actions = np.empty(depth * ACTIONS_PER_LEVEL, np.int32)
    undos = np.empty((depth, UNDO_SIZE), np.int32)
    line = np.empty(depth, np.int32)
    result = np.zeros(P.N_RESULT, np.int64)
    board = to_board(position, game.moves, game.score)
    fresh_kernels()  # numba's cache does not see edits to the kernels the walk inlines
    stopped: KeyboardInterrupt | None = None
    try:
        run_kernel(
            P.prove,
            board,
            position.relaxed,
            int(nodes),
            every,
            CARD_KEYS,
            STOCK_KEYS,
            seen_lo,
            seen_hi,
            actions,
            undos,
            line,
            result,
        )
    except KeyboardInterrupt as err:  # Ctrl-C or kill: the walk has stopped; how far it got
        stopped = err
    used = slots * SLOT_BYTES + depth * LEVEL_BYTES
    verdict = {P.WON: Verdict.WON, P.LOST: Verdict.LOST, P.UNKNOWN: Verdict.UNKNOWN}[
        int(result[P.P_VERDICT])
    ]
    won_line = None
    if verdict == "won":
        won_line = tuple(action_from_code(int(c)) for c in line[: int(result[P.P_DEPTH])])
    return verdict, won_line, result, used, stopped


def walk_memory(memory: int | None) -> int:
    """The bytes the walk may hold: ``memory``, or 80% of the memory available;
    SpiderError when that is below ``MIN_MEMORY``."""
    if memory is None:
        free = available_bytes()
        memory = int(0.8 * free) if free else 4 * 2**30
    if memory < MIN_MEMORY:
        raise SpiderError(
            f"--memory {size_text(memory)} is too little for the walk: "
            f"it needs at least {size_text(MIN_MEMORY)}"
        )
    total = total_bytes()
    if total and memory > total:
        raise SpiderError(
            f"--memory {size_text(memory)} is more than this machine's memory "
            f"({size_text(total)}): give at most that"
        )
    return memory


def prove(
    source,
    memory: int | None = None,
    search_nodes: int = DEFAULT_NODES,
    nodes: int = MAX_NODES,
    after: str = "",
) -> ProveResult:
    """Settle ``source`` (a game code, PySolFC name, Position or Game): won or lost.

    The best-first search runs first, with ``search_nodes``; if it says
    ``unknown``, the exhaustive walk runs with a seen set as large as
    ``memory`` bytes allow (default: 80% of the memory available) and at
    most ``nodes`` positions. A ``lost`` is reported only when the walk
    visited every position reachable from the start; a ``won`` only after
    its line replays with the reference rules.

    Ctrl-C (or ``kill``) stops the walk and is raised again, carrying what the
    walk found so far as its ``proof`` attribute (a ``ProveResult``, ``unknown``
    and ``why`` "stopped" unless the walk had just ended).

    >>> prove("SP1-S1C-AAAAAAD", memory=400 * 2**20).verdict
    Verdict.WON
    """
    started = time.perf_counter()
    game = as_game(source, after)
    memory = walk_memory(memory)
    first, _ = _solve_game(game, search_nodes)
    if first.verdict != "unknown":
        return ProveResult(
            first.verdict,
            "search",
            first.nodes,
            0,
            0,
            0,
            0,
            time.perf_counter() - started,
            first.line,
            score=first.score,
        )
    verdict, line, result, used, stopped = walk(game, memory, nodes)
    why = ""
    score = None
    if verdict == "won":
        if stopped is None:  # a stopped command does not wait for the line beam
            line = shorten_line(game, line)
        score = verify_win(game, line).score
    elif verdict == "unknown":
        full = int(result[P.P_FULL])
        why = (
            "stopped"
            if result[P.P_STOPPED] or stopped is not None
            else WHY_FULL.get(full) or f"the node limit ({nodes:,}) was reached"
        )
    found = ProveResult(
        verdict,
        "walk",
        first.nodes,
        int(result[P.P_NODES]),
        int(result[P.P_SEEN]),
        int(result[P.P_MAX_DEPTH]),
        used,
        time.perf_counter() - started,
        line,
        why,
        score,
    )
    if stopped is not None:
        stopped.proof = found  # type: ignore[attr-defined]  # for the command line to show
        raise stopped
    return found
