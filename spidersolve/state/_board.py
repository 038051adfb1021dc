"""The working board of the numba kernels: its layout, the action and undo
encodings, and the numba flags. Constants only: no kernel is defined here.

The working board (``int16[BOARD_SIZE]``) is the unpacked form the kernels
play on; ``packed.py`` converts it to and from ``Position``, and
``_packing.py`` to and from the 112-byte packed form that the search stores::

    index      what
    0..1039    cards: column c's cards bottom to top at [c*CAP, c*CAP + LEN[c])
    1040..1049 LEN: cards in each column (face down + face up)
    1050..1059 FD: face-down cards in each column (always the bottom FD[c])
    1060..1109 STOCK: the stock, right-aligned: the cards left are
               STOCK[50 - NSTOCK .. 49] in deal order
    1110       NSTOCK: cards left in the stock
    1111       NREMOVED: runs removed
    1112..1119 REMOVED: suit of each removed run, in order
    1120       MOVES
    1121       SCORE

A card is ``suit * 16 + rank`` (see ``cards.py``); 15 is an unknown card.

An action is an int: ``src << 12 | dst << 8 | n_cards`` for a move
(columns 0..9), ``DEAL`` (0xFFFF) for a deal.

The undo record of ``apply_action`` (``int32[UNDO_SIZE]``): [0] the action,
[1] the score before, [2] the number of events, then one event each:
``col << 3 | removal << 2 | suit`` (a removed run or a turned-up card), in
the order they happened; ``undo_action`` reverses them.
"""

from typing import Any

# Numba flags live here. cache=True: compiled code is cached beside the file
# that defines the kernel; numba's cache does not notice changes in other
# modules, and module globals used by a kernel (the constants below) are
# frozen into the compiled code at first compile. So an edit here, or to a
# state kernel the search inlines, must drop the caches that used it: the
# search's are dropped by ``search.compiled.drop_stale_search_cache``; after
# an edit to this file, also delete ``spidersolve/state/__pycache__/*.nb?``.
JIT: dict[str, Any] = dict(cache=True, nogil=True)

N_COLS = 10
CAP = 104
CARDS = 0
LEN = CAP * N_COLS
FD = LEN + N_COLS
STOCK = FD + N_COLS
NSTOCK = STOCK + 50
NREMOVED = NSTOCK + 1
REMOVED = NREMOVED + 1
MOVES = REMOVED + 8
SCORE = MOVES + 1
BOARD_SIZE = SCORE + 1

DEAL = 0xFFFF
MAX_ACTIONS = 1200
UNDO_SIZE = 64
UNKNOWN = 15
