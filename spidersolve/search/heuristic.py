"""The search's heuristics: weights for the terms of ``_kernels.evaluate``.

A position's value (lower is better) is, for one row of weights::

      face_down x face-down cards
    + breaks    x breaks (adjacent face-up cards not one rank apart)
    + mixed     x mixed pairs (one rank apart, different suits: they cannot
                  move together under Classic rules)
    - empty     x empty columns
    - removed   x runs removed
    + deal_left x deals left in the stock
    + buried    x same-suit runs above face-down cards, summed over columns
    + loose     x face-up-only columns not founded on a king
    - good      x columns whose top run fits on another column's same-suit card
    (+ depth    x actions from the root, for the priority)
    (+ spare    x 1 for a move into an empty column other than the first while
                  the stock lasts, or one that splits a same-suit run without
                  making a longer one where the cards land, for the priority:
                  see ``_kernels.is_spare`` and ``_kernels.splits_run``)

and ``width``, not a term: a row with a width is a beam (``_kernels.search``):
its heaps give positions out by depth, then value, at most ``width`` per
depth and number of deals left.

The search alternates between several rows (one frontier heap per row and
stock level; see ``_kernels.search``). Each row alone is a different greedy
bias; in turn they cover each other's blind spots. The rows were chosen on
training deals (SP1-S4C 1000..1059, SP1-S2C and SP1-S1C 100..139), never on
the benchmark deals 0..99 or 0..512:

- 4 suits, deals 1020..1059 at 150,000 nodes: the first row alone won 25/40;
  with a second row that weighs face-down cards 12: 31/40; the three rows
  (plain, face-down 8, buried 2): 34/40; the four rows below: 35/40.
- with the four rows, SP1-S2C 100..139: 39/40 (one row: 38/40), median nodes
  1,867 (3,904); SP1-S1C 100..139: 40/40 (40/40), median nodes 784 (2,602).
- the spare-move penalty 3 in every row, 4 suits at 1,000,000 nodes: deals
  1600..1799 193/200 -> 194/200, 80 deals won in fewer nodes and 59 in more,
  total nodes x0.88; the 88 deals of 1100..1599 that took over 150,000
  nodes without it: 62 -> 64 won. Penalty 8: 193/200 (x0.91); counting a
  whole column moved into an empty one as spare too: 194/200 but total
  nodes x1.12. Tried and not kept (same deals): a fifth row with empty 8
  (193/200, nodes x1.12), serving the heaps of 0 deals left twice (194,
  x1.01) or of 1-3 deals left twice (187/200), a penalty for moves that
  split a same-suit run without making a longer one where they land
  (193/200; median nodes 17,797 -> 13,518 but no gain in the tail).
- a fifth row that is a beam (``width``), ranked as the line-shortening beam
  ranks (breaks first), 4 suits at 1,000,000 nodes, on the 88 hard deals
  above (1100..1599 that took over 150,000 nodes before the spare penalty)
  and on 1600..1799, won (total nodes):

  ===================  ==============  ==============
  fifth row            88 hard deals   1600..1799
  ===================  ==============  ==============
  none (4 rows)        64 (41.4M)      194 (16.8M)
  beam, width 10       69 (29.0M)
  beam, width 20       75 (25.4M)      196 (17.1M)
  beam, width 40       **76 (23.6M)**  **194 (16.1M)**
  beam, width 75       71 (27.3M)
  beam, width 150      71 (28.5M)      197 (16.6M)
  beam, width 300      71 (31.2M)
  plain row, w. 150    71 (28.3M)
  ===================  ==============  ==============

  Replacing the fourth row by a beam of width 75: 66 (and lines of 195
  moves against 172); two beams of width 75 (beam and plain ranking): 73.
  A narrow beam dives: layer by layer it reaches deep positions with a few
  good ones, where best-first rows go back to shallow positions whenever
  they look better; every position the beam generates also goes into the
  best-first rows' heaps (the table is shared), so they go on from what it
  found. Width 40 has the fewest total nodes on both sets. A third set,
  1800..1999, checked the choice: four rows 193 won (18.9M nodes, 87.5%
  within 167,000), with the beam of width 40 195 (16.9M, 89.5%).
- a sixth row, a second beam of width 150 beside the one of width 40 (the
  narrow one dives, the wide one is surer): 1600..1799 194 -> 196 won
  (16.1M -> 15.8M nodes, within 167,000 91.5% -> 90.0%), 1800..1999 195 ->
  198 (16.9M -> 14.8M, 89.5% -> 91.0%); median nodes 21,021 -> 25,861 and
  22,544 -> 28,093. Kept: the default is these six rows. Tried on
  top of the width-40 beam alone and not kept (1600..1799): empty columns weighing 4 more once
  the stock is out (195 won but 17.2M nodes, within 167,000 89.5%); the
  beam row ranked as the four-suit line beam (face-down 6, mixed 5): 193;
  spare and whole-column moves left out of the beam row's heaps: 194
  (16.5M).
- moves that split a same-suit run without making a longer one where the
  cards land (``_kernels.splits_run``, the rule the line beam and
  KPatience's beam prune by) ranked as spare moves, and the spare penalty 5
  in the two beam rows (they had none), 4 suits at 1,000,000 nodes, won
  (total nodes, % within 167,000):

  ==========================  ==================  ==================  ==================
  rows                        1600..1799          1800..1999          2000..2199
  ==========================  ==================  ==================  ==================
  six rows (before)           196 (15.8M, 90.0)   198 (14.8M, 91.0)   193 (20.0M, 89.5)
  split penalty, best-first   197 (12.3M, 91.5)   196 (15.4M, 92.0)
  and beam rows spare 5       198 (9.6M, 96.5)    196 (13.7M, 92.5)   198 (11.3M, 93.0)
  and beam rows spare 10      197 (11.0M, 95.0)   197 (13.2M, 92.5)   196 (12.1M, 94.5)
  spare 5, beams 40 and 600   198 (11.2M, 94.5)   197 (14.1M, 91.5)   198 (12.6M, 93.5)
  spare 5, beams 75 and 300   199 (10.4M, 93.0)   200 (11.2M, 93.5)   199 (11.5M, 91.5)
  spare 5, a third beam 500   199 (10.6M, 94.0)   198 (15.0M, 90.5)   198 (14.0M, 91.5)
  **spare 5, beams 40, 300**  **199 (10.4M, 95.5)**  **199 (12.7M, 93.0)**  **200 (11.5M, 94.0)**
  ==========================  ==================  ==================  ==================

  Kept: the split penalty, spare 5 in the beam rows, and the second beam
  300 wide: 587 -> 592 -> 598 of 600 won, total nodes 50.6M -> 34.6M ->
  34.6M. (The third beam was ranked as the four-suit line beam.) With
  four best-first rows only (before the beams), the split penalty had
  given 193/200 against 194. One and two suits, deals 100..139: 40/40 each as before, median
  nodes 1,201 -> 1,162 and 2,170 -> 1,910.
"""

from . import _terms as K


# term name (and "width") -> its index in a row of weights
TERMS = {"face_down": K.W_FACE_DOWN, "breaks": K.W_BREAK, "mixed": K.W_MIXED,
         "empty": K.W_EMPTY, "removed": K.W_REMOVED, "depth": K.W_DEPTH, "buried": K.W_BURIED,
         "spare": K.W_SPARE, "width": K.W_WIDTH}


def weights_row(**terms) -> tuple[int, ...]:
    """One heuristic's weights by term name; terms not named weigh 0."""
    row = [0] * K.N_WEIGHTS
    for name, value in terms.items():
        row[TERMS[name]] = value
    return tuple(row)


_PLAIN = dict(face_down=3, breaks=3, mixed=2, empty=4, removed=30, depth=1, spare=3)
_BEAM_RANK = dict(face_down=5, breaks=5, mixed=3, empty=2, removed=30)

DEFAULT_WEIGHTS = (
    weights_row(**_PLAIN),                      # the balanced heuristic
    weights_row(**{**_PLAIN, "face_down": 10}),  # dig for face-down cards
    weights_row(**{**_PLAIN, "buried": 3}),      # ... and the runs that bury them
    weights_row(**{**_PLAIN, "mixed": 4}),       # keep runs in one suit
    # two beams: the best 40 and the best 300 positions of each depth (and
    # deals left), ranked breaks first as KPatience's beam ranks them, spare
    # moves (and moves that split a same-suit run for nothing) last
    weights_row(**_BEAM_RANK, spare=5, width=40),
    weights_row(**_BEAM_RANK, spare=5, width=300),
)

# The ranking of the beam that shortens winning lines (``solve --shorten``,
# ``_lines.beam``). Chosen on training deals SP1-S1C 100..129, S2C 100..109
# and S4C 1000..1009 at width 50: with the plain row lines fell from 111 to
# 102.5 moves (median, one suit); weighing breaks 5 and mixed pairs 3 and
# empty columns only 2 (as KPatience ranks: breaks first): 93.
BEAM_WEIGHTS = weights_row(**_BEAM_RANK)

# With four suits, mixed pairs weigh as much as breaks (as KPatience counts
# them) and face-down cards a little more. Chosen on SP1-S4C 1000..1019 and
# 1020..1039 at width 200, mean line after the beam: BEAM_WEIGHTS 149.1 and
# 143.5 moves; mixed 5: 144.9 and 140.8; mixed 5, face-down 6: 138.9 and
# 137.9 (median 135.5 and 137); mixed 5, face-down 7: 136.4 and 142.6;
# mixed 7: 145.7 (first set); buried 2 on top: 144.2; face-down 3: 154.6.
# With one or two suits (S1C/S2C 100..119) face-down 6 made lines no shorter
# (two suits: mean 107.35 -> 107.2; one suit: 90.85 -> 92.3), so they keep
# BEAM_WEIGHTS.
BEAM_WEIGHTS_4_SUITS = weights_row(face_down=6, breaks=5, mixed=5, empty=2, removed=30)


def beam_weights(suits: int) -> tuple[int, ...]:
    """The line-shortening beam's ranking for a game of ``suits`` suits."""
    return BEAM_WEIGHTS_4_SUITS if suits == 4 else BEAM_WEIGHTS
