"""The checks every results row passes when it is read: cheap ones only.

Known verdicts, suits, rules and players, the code of its deal, nodes
within the limit, a won row's moves, score and first action against its
line, no line for a deal the solver did not win; an honest game's row is won
or lost and has its line played, moves and score either way.

>>> row_problem(pd.DataFrame()) is None
True
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import SpiderError, shown
from ..verdict import MAX_NODES
from .schema import DEFAULT_SEARCH, PLAYERS, SOURCES, VERDICTS

# a line from the start shorter than this never lets the score reach 0, so
# its final score is exactly 500 - moves + 8 x 100
NO_CLAMP_MOVES = 500


def _expected_code(source: str, suits: int, rules: str, deal: int) -> str | None:
    from ..state.codes import GameCode, PysolDeal

    try:
        if source == "pysol":
            return PysolDeal(suits, str(deal)).text()
        return GameCode(suits, rules, deal).text()
    except SpiderError:
        return None


def _search_name_ok(name) -> bool:
    """A search configuration's name: letters, digits and _ (``search.heuristic.PRESETS``)."""
    return (
        isinstance(name, str)
        and 0 < len(name) <= 40
        and name.isascii()
        and name.replace("_", "a").isalnum()
    )


REQUIRED = [
    "source",
    "code",
    "suits",
    "rules",
    "deal",
    "node_limit",
    "verdict",
    "nodes",
    "seconds",
    "version",
    "time",
    "player",
    "samples",
    "seed",
    "search",
]
OPTIONAL = ["moves", "score", "first_action", "line"]
HONEST_VERDICTS = ("won", "lost")  # an honest row's verdict is the game's result
MAX_SAMPLES = 10_000
# the score a lost game of fewer than NO_CLAMP_MOVES actions can have: 500 - moves
# plus 100 for each of the 0..7 runs it removed
_LOST_GAINS = set(range(0, 701, 100))
_BASE32 = np.array(list("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"), dtype=object)


def _codes(frame: pd.DataFrame) -> pd.Series:
    """The code each row's source, suits, rules and deal name (vectorized GameCode.text)."""
    deal = frame["deal"].astype("int64").to_numpy() & ((1 << 35) - 1)
    digits = [
        "".join(chars)
        for chars in zip(*(_BASE32[(deal >> (5 * k)) & 31] for k in range(6, -1, -1)))
    ]
    suits = frame["suits"].astype("int64").astype(str)
    rules = frame["rules"].map({"classic": "C", "relaxed": "R"}).fillna("?")
    rules = rules.where(frame["suits"] != 1, "C")
    sp1 = "SP1-S" + suits + rules + "-" + pd.Series(digits, index=frame.index, dtype=object)
    pysol = "pysol:" + suits + ":" + frame["deal"].astype("int64").astype(str)
    return sp1.where(frame["source"] != "pysol", pysol)


# an action as text() writes it (SPEC 7): columns 1..10, a count of 2..13 cards
# (13: a whole K..A of mixed suits, which Relaxed rules move and do not remove)
_ACTION = r"(?:deal|(?:10|[1-9])>(?:10|[1-9])(?:x(?:1[0-3]|[2-9]))?)"
_LINE = rf"^(?:{_ACTION}(?: {_ACTION})*)?$"  # empty, or actions with single spaces between
# a column onto itself (spelled out: the regular expressions of pyarrow have no \1)
_SELF_MOVE = "(?:^| )(?:" + "|".join(f"{c}>{c}" for c in range(1, 11)) + ")(?:x| |$)"


def _line_in_notation(line: str) -> bool:
    """``line`` is empty or actions in the notation, single spaces between."""
    return re.search(_LINE, line) is not None and re.search(_SELF_MOVE, line) is None


def _lines_in_notation(lines: pd.Series) -> pd.Series:
    """``_line_in_notation`` of each line, in pyarrow's compiled regular
    expressions: 0.35 s for PySolFC's 35,000 rows (29 million characters of
    lines), where a Python match per line took 6 s."""
    array = pa.array(lines.to_numpy(dtype=object), pa.string())
    good = pc.and_(
        pc.match_substring_regex(array, _LINE),
        pc.invert(pc.match_substring_regex(array, _SELF_MOVE)),
    )
    return pd.Series(good.to_numpy(zero_copy_only=False), index=lines.index, dtype=bool)


def row_problem(frame: pd.DataFrame) -> str | None:
    """What is wrong with the first bad row of ``frame``, or None (cheap checks only).

    The checks run on whole columns; the first row that fails one is then
    checked alone (``_row_problem``) for the message. A solver row has a
    line, moves, score and first action when it is won and none of them
    otherwise; an honest row (``player`` honest) is won or lost, and has the
    line it played (perhaps empty), its moves and the game's score either way.
    """
    if frame.empty:
        return None
    bad = frame[REQUIRED].isna().any(axis=1)
    full = frame[~bad]
    if len(full):
        honest = full["player"] == "honest"
        solver = ~honest
        won = full["verdict"] == "won"
        line = full["line"].where(won | honest, "").fillna("")
        n_actions = (line.str.count(" ") + 1).where(line != "", 0)  # single spaces between
        first = line.str.partition(" ")[0]
        moves = full["moves"].astype("Float64")
        score = full["score"].astype("Float64")
        lowest = 1300 - moves
        wrong = ~full["verdict"].isin(VERDICTS) | ~full["source"].isin(SOURCES)
        wrong |= ~full["suits"].isin([1, 2, 4]) | ~full["rules"].isin(["classic", "relaxed"])
        wrong |= ~full["player"].isin(PLAYERS)
        wrong |= (full["deal"] < 0) | ((full["source"] == "code") & (full["deal"] >= 1 << 35))
        wrong |= full["code"] != _codes(full)
        wrong |= (full["node_limit"] < 1) | (full["node_limit"] > MAX_NODES) | (full["nodes"] < 0)
        # an honest game's nodes add up all its searches, each within the limit
        wrong |= solver & (full["nodes"] > full["node_limit"])
        wrong |= solver & ((full["samples"] != 0) | (full["seed"] != 0))
        seconds = full["seconds"].astype("float64")
        cpu = full["cpu_seconds"].astype("float64")  # empty in rows from before the column
        wrong |= ~np.isfinite(seconds) | (seconds < 0)
        wrong |= (np.isinf(cpu) | (cpu < 0)).to_numpy()
        wrong |= ~full["search"].map(_search_name_ok).astype(bool)
        wrong |= honest & (full["search"] != DEFAULT_SEARCH)
        wrong |= honest & ~full["verdict"].isin(HONEST_VERDICTS)
        wrong |= honest & (
            (full["samples"] < 1) | (full["samples"] > MAX_SAMPLES) | (full["seed"] < 0)
        )
        optional = full[OPTIONAL].notna()
        played = full[["moves", "score", "line"]].notna().all(axis=1)
        wrong |= solver & ~won & optional.any(axis=1)
        wrong |= solver & won & ~optional.all(axis=1)
        wrong |= honest & ~played
        checked = (solver & won & optional.all(axis=1)) | (honest & played)
        wrong |= checked & (moves != n_actions).fillna(True)
        wrong |= checked & ~_lines_in_notation(line)
        first_action = full["first_action"]
        first_ok = ((line != "") & (first_action == first)) | ((line == "") & first_action.isna())
        wrong |= checked & ~first_ok
        exact = moves < NO_CLAMP_MOVES
        wrong |= checked & won & ((exact & (score != lowest)) | (~exact & (score < lowest.clip(0))))
        gain = score - (500 - moves)
        wrong |= (
            checked
            & ~won
            & ((exact & ~(gain.isin(_LOST_GAINS)).fillna(False)) | (~exact & (score < 0)))
        )
        bad = bad | wrong.reindex(frame.index, fill_value=False).astype(bool)
    if not bad.any():
        return None
    i = int(np.flatnonzero(bad.to_numpy())[0])
    row = frame.iloc[i].to_dict()
    where = f"row {i + 1} ({row['code']})" if isinstance(row["code"], str) else f"row {i + 1}"
    return f"{where}: {_row_problem(row) or 'its values do not agree with each other'}"


def _row_problem(row: dict) -> str | None:
    """The message for one row that failed a check of ``row_problem``."""
    for column in REQUIRED:
        if pd.isna(row[column]):
            return f"no value in column {column}"
    verdict, source, suits, rules = row["verdict"], row["source"], row["suits"], row["rules"]
    player = row["player"]
    if verdict not in VERDICTS:
        return f"verdict '{verdict}' is not won, lost or unknown"
    if source not in SOURCES:
        return f"source '{source}' is not code or pysol"
    if suits not in (1, 2, 4):
        return f"suits {suits} is not 1, 2 or 4"
    if rules not in ("classic", "relaxed"):
        return f"rules '{rules}' is not classic or relaxed"
    if player not in PLAYERS:
        return f"player '{player}' is not solver or honest"
    if row["code"] != _expected_code(source, suits, rules, row["deal"]):
        return f"the code is not the one of {source} deal {row['deal']} ({suits} suits, {rules})"
    honest = player == "honest"
    if (
        not 1 <= row["node_limit"] <= MAX_NODES
        or row["nodes"] < 0
        or (not honest and row["nodes"] > row["node_limit"])
    ):
        return f"nodes {row['nodes']} is not within the limit {row['node_limit']}"
    if not (np.isfinite(row["seconds"]) and row["seconds"] >= 0):
        return f"seconds {row['seconds']} is not a time (a finite number at least 0)"
    if not pd.isna(row["cpu_seconds"]) and not 0 <= row["cpu_seconds"] < np.inf:
        return f"cpu_seconds {row['cpu_seconds']} is not a time (a finite number at least 0)"
    if not honest and (row["samples"] != 0 or row["seed"] != 0):
        return (
            f"a solver row has samples {row['samples']} and seed {row['seed']} (0 and 0 "
            "for the solver)"
        )
    if not _search_name_ok(row["search"]) or (honest and row["search"] != DEFAULT_SEARCH):
        return f"search '{row['search']}' is not a search configuration's name" + (
            " (default for the honest player)" if honest else ""
        )
    if honest and not (1 <= row["samples"] <= MAX_SAMPLES and row["seed"] >= 0):
        return (
            f"an honest row has samples {row['samples']} and seed {row['seed']} (samples "
            f"1 .. {MAX_SAMPLES}, seed at least 0)"
        )
    line, moves, score = row["line"], row["moves"], row["score"]
    if honest:
        if verdict not in HONEST_VERDICTS:
            return f"an honest game is won or lost, not {verdict}"
        if any(pd.isna(row[c]) for c in ("moves", "score", "line")):
            return "an honest game needs its line, moves and score"
    elif verdict != "won":
        if not all(pd.isna(row[c]) for c in OPTIONAL):
            return f"a deal {verdict} has moves, score, first_action or line"
        return None
    elif any(pd.isna(row[c]) for c in OPTIONAL):
        return "a won deal needs its line, first_action, moves and score"
    if not _line_in_notation(line):
        bad = [t for t in line.split(" ") if t and not _line_in_notation(t)]
        if bad:
            return f"its line has '{shown(bad[0])}', not an action (SRC>DST, SRC>DSTxN or deal)"
        return "its line is not actions with single spaces between"
    actions = line.split(" ") if line else []
    if moves != len(actions):
        return f"moves {moves} but its line has {len(actions)} actions"
    first = row["first_action"]
    if (None if pd.isna(first) else first) != (actions[0] if actions else None):
        return f"first_action {first} is not its line's first action"
    exact = moves < NO_CLAMP_MOVES
    if verdict == "won":
        lowest = 1300 - moves  # 500 - moves + 8 x 100, if the score never reached 0
        if (exact and score != lowest) or (not exact and score < max(0, lowest)):
            return f"score {score} does not match its line of {moves} actions"
    elif (exact and score - (500 - moves) not in _LOST_GAINS) or (not exact and score < 0):
        return f"score {score} does not match a lost game of {moves} actions"
    return None
