"""The search's frontier: heap keys, the order heaps give entries out, beam rows.

Every generated entry is queued on one heap per row of weights and number
of deals left (heap ``k * DEAL_LEVELS + deals_left``), keyed by
``heap_key``: ``priority << 32 | (ENTRY_MASK - entry)``, so equal
priorities give out the newest entry first (deterministic). ``next_entry``
takes the heaps in turn; a beam row's heaps give out at most its width of
each depth (``given``).
"""

import numpy as np

from .._jit import njit
from ..state._board import DEAL, JIT
from ._heap import heap_pop
from ._table import DEAL_LEVELS
from ._terms import W_DEPTH, W_SPARE, W_WIDTH

PRIORITY_OFFSET = 1 << 30
ENTRY_MASK = 0xFFFFFFFF  # equal priorities: the newest entry first
# a beam row's priority: depth first (this much a layer), then the value
BEAM_LAYER = 1 << 14


@njit(**JIT)
def heap_key(priority, entry):
    """The frontier key of ``entry``: by priority, then newest first."""
    return (np.int64(priority) << 32) | (ENTRY_MASK - entry)


@njit(**JIT)
def key_entry(key):
    """The entry of a frontier key (``heap_key``)."""
    return ENTRY_MASK - (key & ENTRY_MASK)


# A macro move's code (``_kernels.macro_moves``) carries in these bits the
# number of runs it parks; a move of the rules moves at most 13 cards, so
# they are 0 in its code.
MACRO_SHIFT = 4
MACRO_BITS = 15 << MACRO_SHIFT


@njit(**JIT)
def plain_action(code):
    """The action of an entry's code: a macro move's without its parked runs."""
    if code == DEAL:
        return code
    return code & ~MACRO_BITS


@njit(**JIT)
def action_steps(code):
    """The moves an entry's action stands for: 1, or 2 x parked runs + 1 for a macro move."""
    if code == DEAL:
        return 1
    return 1 + 2 * ((code & MACRO_BITS) >> MACRO_SHIFT)


@njit(**JIT)
def entry_depth(entry, ent_parent, ent_action, node_depth):
    """The number of moves from the root to ``entry`` (a macro move's all counted)."""
    parent = ent_parent[entry]
    return 0 if parent < 0 else node_depth[parent] + action_steps(np.int64(ent_action[entry]))


@njit(**JIT)
def next_entry(
    heaps, sizes, turn, waiting, widths, given, ent_parent, ent_action, node_depth, ent_done
):
    """The next entry to expand, taking the heaps in turn, and the state after it.

    Returns (entry, turn, waiting, given, dropped): entry -1 when the
    frontier is empty; ``given`` widened if a depth needed it; ``dropped``
    True if a beam heap dropped a position. Copies another heap gave out
    already are dropped first, so an exhausted frontier is seen as such even
    when the limit is reached on the same step.
    """
    dropped = False
    n_heaps = sizes.shape[0]
    while waiting > 0:
        h = turn
        if sizes[h] == 0:
            turn = (turn + 1) % n_heaps
            continue
        key = heap_pop(heaps[h], sizes[h])
        sizes[h] -= 1
        waiting -= 1
        candidate = key_entry(key)
        width = widths[h // DEAL_LEVELS]
        if width > 0:
            d = entry_depth(candidate, ent_parent, ent_action, node_depth)
            if d >= given.shape[1]:
                wider = np.zeros((given.shape[0], 2 * d), np.int32)
                wider[:, : given.shape[1]] = given
                given = wider
            if given[h, d] >= width:
                dropped = True
                continue
            given[h, d] += 1
        if not ent_done[candidate]:
            return candidate, turn, waiting, given, dropped
    return -1, turn, waiting, given, dropped


@njit(**JIT)
def entry_priority(row, width, score, spare, depth):
    """A new entry's priority on a heap of ``row`` (``width`` its beam width, or 0).

    ``score`` is its value, ``spare`` 1 for a spare action to it, ``depth``
    its parent's depth. A beam row ranks by depth first.
    """
    priority = score + row[W_SPARE] * spare + PRIORITY_OFFSET
    if width > 0:
        return min(priority + BEAM_LAYER * (depth + 1), (1 << 31) - 1)
    return priority + row[W_DEPTH] * (depth + 1)


@njit(**JIT)
def row_widths(weights):
    """Each row's beam width (0 if not a beam), and whether some row is not a beam."""
    widths = np.zeros(weights.shape[0], np.int64)
    exhaustive = False  # some row drops nothing
    for k in range(weights.shape[0]):
        widths[k] = weights[k, W_WIDTH]
        if widths[k] <= 0:
            exhaustive = True
    return widths, exhaustive
