"""The search's heuristics: named weights for the terms of ``_terms.evaluate``.

A position's value (lower is better) is, for one ``Weights``::

      face_down x face-down cards
    + breaks    x breaks (adjacent face-up cards not one rank apart)
    + mixed     x mixed pairs (one rank apart, different suits: they cannot
                  move together under Classic rules)
    - empty     x empty columns
    - removed   x runs removed
    + buried    x same-suit runs above face-down cards, summed over columns

and, for the priority in the search, ``depth`` x actions from the root and
``spare`` x 1 for a spare move (into an empty column other than the first
while the stock lasts, or one that splits a same-suit run without making a
longer one where the cards land: ``_terms.is_spare``, ``_terms.splits_run``).
``width``, not a term, makes the row a beam: its heaps give positions out
by depth, then value, at most ``width`` per depth and number of deals left.
``noise``, not a term either, adds to each position's value a number
0..noise drawn from the position's hash (``_terms.hash_noise``): a row that
differs from another in its noise alone keeps other near ties, so as a beam
it goes another way (``preset("beam_1500_n5")``). ``seed`` draws the same
noise another way: ``kp300_n3_s2`` is as random as ``kp300_n3`` (seed 0),
not more, and another search (larger noises are searches further from the
heuristic: docs/tuning.md). ``macro`` (1 in any row of a search) adds
*macro moves* to every position's children (``_kernels.macro_moves``): a
rank-descending sequence of several same-suit runs moved as one, its
upper runs parked on other columns or in empty ones and brought back; the
depth counts every move it stands for, and lines are written out as the
moves of the rules (``macros.expand``). Classic rules only; nothing is
pruned. ``macro`` n > 1 adds them once the search has expanded n nodes
(the least n of its rows): the nodes before are those of the search without
them, so the deals it wins quickly are won as before (``DEFAULT_WEIGHTS``:
after 50,000 nodes).

The search alternates between several rows (``DEFAULT_WEIGHTS``: four
best-first rows and two beams), one frontier heap per row and number of
deals left (``_kernels.search``); each row alone is a different greedy bias,
and in turn they cover each other's blind spots. The line-shortening beam
ranks by one row (``beam_weights``). The rows were chosen on training deals,
never on the benchmark deals; the trials are in ``docs/tuning.md``.
"""

from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np

from ..cards import card_rank, card_suit
from ..errors import is_whole
from . import _terms as K


class Weights(NamedTuple):
    """One heuristic: a weight per term (see the module docstring), 0 if not named.

    A tuple in the kernels' order, so ``np.asarray(weights)`` is the row the
    kernels take.

    >>> w = Weights(face_down=3, breaks=3)
    >>> w.face_down, w.width, len(w)
    (3, 0, 12)
    >>> Weights(breaks=5).replace(width=40).width
    40
    """

    face_down: int = 0
    breaks: int = 0
    mixed: int = 0
    empty: int = 0
    removed: int = 0
    depth: int = 0
    buried: int = 0
    spare: int = 0
    width: int = 0
    noise: int = 0
    seed: int = 0
    macro: int = 0

    def replace(self, **terms) -> Weights:
        """These weights with the terms named changed."""
        return self._replace(**terms)


# term name (and "width") -> its index in a row of weights
TERMS = {
    "face_down": K.W_FACE_DOWN,
    "breaks": K.W_BREAK,
    "mixed": K.W_MIXED,
    "empty": K.W_EMPTY,
    "removed": K.W_REMOVED,
    "depth": K.W_DEPTH,
    "buried": K.W_BURIED,
    "spare": K.W_SPARE,
    "width": K.W_WIDTH,
    "noise": K.W_NOISE,
    "seed": K.W_SEED,
    "macro": K.W_MACRO,
}
assert tuple(TERMS) == Weights._fields and list(TERMS.values()) == list(range(K.N_WEIGHTS))


def weights_row(**terms) -> Weights:
    """One heuristic's weights by term name; terms not named weigh 0 (``Weights(**terms)``)."""
    return Weights(**terms)


# the balanced heuristic
PLAIN = Weights(face_down=3, breaks=3, mixed=2, empty=4, removed=30, depth=1, spare=3)
DIG = PLAIN.replace(face_down=10)  # dig for face-down cards
UNBURY = PLAIN.replace(buried=3)  # ... and the runs that bury them
ONE_SUIT = PLAIN.replace(mixed=4)  # keep runs in one suit
# ranked breaks and face-down cards first, near KPatience's beam (whose
# ranking also weighs mixed pairs as breaks and empty columns twice: TAIL_BEAM)
BEAM_RANK = Weights(face_down=5, breaks=5, mixed=3, empty=2, removed=30)
# two beams: the best 40 and the best 300 positions of each depth (and deals
# left), spare moves (and moves that split a same-suit run for nothing) last
BEAM_40 = BEAM_RANK.replace(spare=5, width=40)
BEAM_300 = BEAM_RANK.replace(spare=5, width=300)
# A rung for the deals still unknown after 10,000,000 nodes (``batch --retry
# 3e6@beam_1500``): the same beam 1,500 wide, alone. It proves a deal lost only if
# it never dropped a position; on PySolFC four suits it won 11 of the 44
# deals the default left unknown at 10,000,000 nodes (docs/tuning.md).
BEAM_1500 = BEAM_RANK.replace(spare=5, width=1500)
# ... and after it and 10,000,000 default nodes (``--retry 1e7@beam_5000``): the
# same beam 5,000 wide. On PySolFC four suits it won 5 of the first 16 deals
# still unknown after both (docs/tuning.md).
BEAM_5000 = BEAM_RANK.replace(spare=5, width=5000)
# ... and between them, 3,000 wide: with noise (``--retry 6e6@beam_3000_n5``)
# a rung for what the noisy 1,500-wide beams leave (docs/tuning.md).
BEAM_3000 = BEAM_RANK.replace(spare=5, width=3000)

# the six rows of the default search, as they were chosen
SIX_ROWS = (PLAIN, DIG, UNBURY, ONE_SUIT, BEAM_40, BEAM_300)
# The default: the six rows, with macro moves after their first 50,000 nodes
# (``MACRO_FROM``). Most deals are won before it, node for node as without
# them; of the four-suit deals that are not, the macro moves won a few more
# in fewer nodes: at 1,000,000 nodes 488 of 495 PySolFC four-suit deals of
# 6401..8400 against 486 (training), and 467 of 469 of 8401..10400 against
# 466 (held out), none won only without them, in about 7% fewer nodes
# (docs/tuning.md, 2026-12-07). The honest advisor's searches keep the six
# rows as they were (``honest.py``).
MACRO_FROM = 50_000
DEFAULT_WEIGHTS = tuple(row.replace(macro=MACRO_FROM) for row in SIX_ROWS)

# A second search for the deals the default leaves unknown (``batch --retry
# 1e6@kp300``): its 300-wide beam ranks breaks and mixed pairs alike and has
# no face-down term (KPatience's ranking as first read; its chaos counts
# face-down cards too: TAIL_BEAM). Over whole ranges it wins as many
# deals as the default, but not the same ones: on PySolFC four suits
# 1201..2000 it won 10 of the 14 the default left unknown at 1,000,000 nodes
# (docs/tuning.md).
KP_BEAM_300 = Weights(breaks=5, mixed=5, empty=2, removed=30, spare=5, width=300)
KP_300 = (PLAIN, DIG, UNBURY, ONE_SUIT, BEAM_40, KP_BEAM_300)
# ... and that beam 5,000 wide, alone: a rung after ``1e7@beam_5000``
# (``--retry 1e7@kp_beam_5000``). Its ranking differs from beam_5000's (no
# face-down term), so it wins other deals: 1 of the 6 beam_5000 missed
# that it was tried on (docs/tuning.md).
KP_BEAM_5000 = KP_BEAM_300.replace(width=5000)

# The second phase of the default budget (``solver.TAIL_AFTER``): beams
# alone, one after the other (``TAIL_BEAMS``), ranked as KPatience's beam
# ranks (its "chaos": a face-down card, a break and a mixed pair count
# alike, an empty column twice; docs/tuning.md); removed runs and the spare
# penalty are ours. Unlike ``kp300`` (breaks and mixed pairs, no face-down
# term), they win most of the four-suit deals the six rows do not win within
# 500,000 nodes (36 of 47 training deals). Each is 250 wide, its ties drawn
# from the position's hash (noise 2, below the 5 of a term), a way for each
# seed: a beam 250 wide wins about as often as one 500 wide, in half the
# nodes, and which deals a beam wins turns on its ties, so two draws in turn
# win more than one beam twice as wide (training and held-out deals,
# docs/tuning.md). In the tail phase both take macro moves (``macro``):
# level on the training deals (1,989 of PySolFC four suits 6401..8400),
# ahead on held-out ones (8401..9422 1,012 -> 1,017, 10401..12400 1,984 ->
# 1,991; 17 deals won only with them, 5 only without), and the first
# 500,000 nodes, where most deals are won, do not pay for them. Since
# 2026-12-06 the second also runs first as the back beams, from the six
# rows' latest position cut before its last deals, and after each tail beam
# from that beam's own (``solver.BACK_NODES``).
TAIL_BEAM = Weights(
    face_down=5, breaks=5, mixed=5, empty=10, removed=10, spare=50, width=250, noise=2
)
TAIL_BEAMS = (TAIL_BEAM.replace(macro=1), TAIL_BEAM.replace(macro=1, seed=1))

# The ranking of the beam that shortens winning lines (``solve --shorten``,
# ``_lines.beam``); with four suits mixed pairs weigh as much as breaks and
# face-down cards a little more.
BEAM_WEIGHTS = BEAM_RANK
BEAM_WEIGHTS_4_SUITS = Weights(face_down=6, breaks=5, mixed=5, empty=2, removed=30)

# The default rows with macro moves (``Weights.macro``): another search for
# the deals the default leaves unknown (``--search macro``, ``--retry
# 1e6@macro``). On PySolFC four suits 6401..8400 at 1,000,000 nodes it won
# 1,982 (the six rows alone 1,977, in 15% fewer nodes), and 4 of the 11 the
# default leaves unknown. As the default (its tail beams with macro moves
# too) it won 1,990 against 1,989 there and 1,018 against 1,012 of
# 8401..9422, but a node costs about 30% more time and the four-suit median
# solve is slower, so the default takes them from node 50,000 on only
# (docs/tuning.md).
MACRO = tuple(row.replace(macro=1) for row in SIX_ROWS)

# every named configuration: solve(weights=NAME) takes these names
PRESETS = {
    "default": DEFAULT_WEIGHTS,
    "plain": PLAIN,
    "dig": DIG,
    "unbury": UNBURY,
    "one_suit": ONE_SUIT,
    "beam_rank": BEAM_RANK,
    "beam_40": BEAM_40,
    "beam_300": BEAM_300,
    "beam_1500": BEAM_1500,
    "beam_3000": BEAM_3000,
    "beam_5000": BEAM_5000,
    "beam_4_suits": BEAM_WEIGHTS_4_SUITS,
    "kp300": KP_300,
    "kp_beam_5000": KP_BEAM_5000,
    "tail_beam": TAIL_BEAM,
    "macro": MACRO,
}


# a preset's name, "_n" and a number 1..NOISE_MAX: every row of it with that noise;
# then optionally "_s" and a number 1..NOISE_MAX: that noise drawn with that seed
NOISE_MAX = 9999
_NUMBER = rf"[1-9][0-9]{{0,{len(str(NOISE_MAX)) - 1}}}"
NOISY = re.compile(rf"(?P<base>[a-z0-9_]+?)_n(?P<noise>{_NUMBER})(?:_s(?P<seed>{_NUMBER}))?")


def preset(name: str):
    """The weights a configuration's name stands for: a name of ``PRESETS``, or
    such a name with ``_nN`` after it, every row of it with noise N, or with
    ``_nN_sS``, that noise drawn with seed S.

    ``beam_1500_n5`` is ``beam_1500`` with noise 5: another beam 1,500 wide,
    one of many (``batch --retry 3e6@beam_1500_n1,3e6@beam_1500_n2``);
    ``kp300_n5`` is the six rows of ``kp300``, each with noise 5;
    ``kp300_n5_s2`` the same noise, drawn another way.
    Raises ValueError naming the names for anything else.

    >>> preset("beam_1500_n5") == BEAM_1500.replace(noise=5)
    True
    >>> [row.noise for row in preset("kp300_n5")]
    [5, 5, 5, 5, 5, 5]
    >>> preset("beam_1500_n5_s2") == BEAM_1500.replace(noise=5, seed=2)
    True
    """
    if name in PRESETS:
        return PRESETS[name]
    noisy = NOISY.fullmatch(name)
    if noisy and noisy["base"] in PRESETS:
        base = PRESETS[noisy["base"]]
        noise, seed = int(noisy["noise"]), int(noisy["seed"] or 0)
        if isinstance(base, Weights):
            return base.replace(noise=noise, seed=seed)
        return tuple(row.replace(noise=noise, seed=seed) for row in base)
    raise ValueError(f"no configuration named {name!r}; the names are {names_text()}")


def names_text() -> str:
    """The names ``preset`` takes, as messages and help say them."""
    return (
        f"{', '.join(PRESETS)}, or any of them with _n1 .. _n{NOISE_MAX} after it "
        "(every row with that noise: beam_1500_n5, kp300_n5), and then perhaps "
        f"_s1 .. _s{NOISE_MAX} (that noise drawn another way: kp300_n5_s2)"
    )


def is_preset(name: str) -> bool:
    """True if ``preset(name)`` names a configuration."""
    try:
        preset(name)
    except ValueError:
        return False
    return True


def beam_weights(suits: int) -> Weights:
    """The line-shortening beam's ranking for a game of ``suits`` suits."""
    return BEAM_WEIGHTS_4_SUITS if suits == 4 else BEAM_WEIGHTS


def position_value(position, weights: Weights = PLAIN) -> int:
    """The value of ``position`` for one row of ``weights`` (lower is better), in Python.

    ``_terms.evaluate`` without numba, for code that runs beside the compiled
    search (``solver._finisher_starts``): the terms of the module docstring,
    weighed by ``weights``. ``tests/test_heuristic.py`` checks it against the
    kernel.

    >>> from spidersolve.state import GameCode
    >>> position_value(GameCode(4, "classic", 0).position())  # 44 face-down cards
    132
    """
    value = -weights.removed * len(position.removed)
    for down, up in zip(position.down, position.up):
        if not down and not up:
            value -= weights.empty
            continue
        runs = 1  # same-suit runs among the face-up cards
        for lower, upper in zip(up, up[1:]):
            if card_rank(lower) != card_rank(upper) + 1:
                value += weights.breaks
                runs += 1
            elif card_suit(lower) != card_suit(upper):
                value += weights.mixed
                runs += 1
        if down:
            value += weights.face_down * len(down) + weights.buried * runs
    return value


def weight_rows(weights=None) -> np.ndarray:
    """The kernels' int64 array, one row per heuristic, for ``weights``.

    ``weights``: None (``DEFAULT_WEIGHTS``), a ``Weights``, a preset name
    (``preset``), a mapping of term names, or a sequence of those; a row
    of ``N_WEIGHTS`` ints is taken as it is.

    >>> weight_rows("plain").tolist()
    [[3, 3, 2, 4, 30, 1, 0, 3, 0, 0, 0, 0]]
    >>> weight_rows(["plain", {"breaks": 5, "width": 40}]).shape
    (2, 12)
    """
    if weights is None:
        weights = DEFAULT_WEIGHTS
    if isinstance(weights, np.ndarray):  # one row, or one row per heuristic
        weights = weights.tolist()
    if not isinstance(weights, (str, dict)) and not hasattr(weights, "__iter__"):
        raise ValueError(
            f"weights: a Weights, a name or a row of {K.N_WEIGHTS} integers "
            f"per heuristic, or a list of those, not {weights!r}"
        )
    if isinstance(weights, (str, dict)) or _is_row(weights):
        weights = [weights]
    elif weights and all(isinstance(x, (int, np.integer)) for x in weights):
        if any(isinstance(x, bool) for x in weights):
            raise ValueError("weights: a weight is a whole number, not True or False")
        raise ValueError(
            f"weights: a row has {K.N_WEIGHTS} integers ({', '.join(TERMS)}), not {len(weights)}"
        )
    rows = []
    for one in weights:
        if isinstance(one, str):
            try:
                named = preset(one)
            except ValueError as error:
                raise ValueError(f"weights: {error}") from None
            rows.extend(weight_rows(named).tolist())
        elif isinstance(one, dict):
            unknown = set(one) - set(TERMS)
            if unknown:
                raise ValueError(
                    f"weights: no term {', '.join(sorted(unknown))}; "
                    f"the terms are {', '.join(TERMS)}"
                )
            rows.append(list(Weights(**one)))
        elif _is_row(one):
            rows.append(list(one))
        else:
            raise ValueError(
                f"weights: a Weights, a name or a row of {K.N_WEIGHTS} integers "
                f"per heuristic, not {one!r}"
            )
    if not rows:
        raise ValueError("weights: at least one heuristic")
    for row in rows:
        for name, value in zip(TERMS, row):
            if not is_whole(value):
                raise ValueError(f"weights: {name} is a whole number, not {value!r}")
            if not -WEIGHT_LIMIT < value < WEIGHT_LIMIT:
                raise ValueError(f"weights: {name} {value} is past +-{WEIGHT_LIMIT:,}")
            if name in SETTINGS and value < 0:
                raise ValueError(f"weights: {name} is 0 or more, not {value}")
    return np.array(rows, np.int64)


# A weight's bound, far above any useful weight or beam width (5,000 in the
# presets) and far below what the kernels' 64-bit sums of weights times counts
# could not hold (``Weights(face_down=2**70)`` overflowed int64)
WEIGHT_LIMIT = 2**20
SETTINGS = ("width", "noise", "seed", "macro")  # a row's settings, not weights: none negative


def _is_row(value) -> bool:
    """True for a ``Weights`` or a plain row of ``N_WEIGHTS`` ints."""
    if isinstance(value, Weights):
        return True
    try:
        return len(value) == K.N_WEIGHTS and all(is_whole(x) for x in value)
    except TypeError:
        return False
