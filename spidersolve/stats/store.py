"""The result store: per-deal rows in Parquet files under one directory.

A batch run writes each finished chunk of deals as its own part file
(``part-<run>-<seq>.parquet``), atomically: the rows go to a temporary file
in the same directory, which is flushed, synced and then renamed over its
final name with ``os.replace`` (``spidersolve.files.write_atomic``). A run
killed at any moment (``kill -9`` included) leaves only whole part files and
perhaps a stray temporary file, which readers ignore. At the end of a run the
parts are compacted into ``results.parquet`` (again written atomically) and
then deleted; a run killed between the two steps leaves rows in both, and
readers drop the duplicates by key.

One writer at a time: a writer holds an exclusive ``flock`` on
``.spidersolve.lock`` in the directory (released by the system when the
process dies, ``kill -9`` included); a second writer is refused with one
line. Readers take no lock: a part file that a compaction deletes while a
reader lists the directory makes the reader list it again.

Nothing read is trusted blindly: every file carries a SHA-256 of its rows
and run metadata (``sha256`` in its metadata; Parquet page checksums too),
checked on read, and every row is checked for what is cheap to check (known
verdicts, suits, rules and players, the code of its deal, nodes within the
limit, a won row's moves, score and first action against its line, no line
for a deal the solver did not win; an honest game's row is won or lost and
has its line played, moves and score either way). A damaged file is an error
naming the file and the damage.

The key of a row is ``(source, code, node_limit, player, samples, seed)``:
one verdict per deal and budget for the solver (``player`` ``solver``,
``samples`` and ``seed`` 0), one game per deal and options for the honest
player (``player`` ``honest``, ``node_limit`` its nodes per sample search).
Files written before the ``player`` column are read as solver rows (their
checksum covers the columns they were written with). Every file carries the
settings and versions of the runs that wrote it as JSON under the
``spidersolve`` key of the Parquet schema metadata.

>>> store = ResultStore("results/")          # doctest: +SKIP
>>> store.load()                             # doctest: +SKIP
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from ..errors import SpiderError
from ..files import temp_prefix
from ..files import write_atomic as write_file_atomic

KEY = ["source", "code", "node_limit", "player", "samples", "seed"]
# The deterministic row order: settings first, then the deal number.
ORDER = ["player", "samples", "seed", "source", "suits", "rules", "node_limit", "deal"]
PLAYERS = ("solver", "honest")
# Columns added after the first files were written, and their value in those files.
ADDED = {"player": ("solver", pa.string()), "samples": (0, pa.int64()), "seed": (0, pa.int64())}
RESULTS_NAME = "results.parquet"
LOCK_NAME = ".spidersolve.lock"
META_KEY = b"spidersolve"
VERDICTS = ("won", "lost", "unknown")
SOURCES = ("code", "pysol")
# a line from the start shorter than this never lets the score reach 0, so
# its final score is exactly 500 - moves + 8 x 100
NO_CLAMP_MOVES = 500

_TEXT = pa.dictionary(pa.int32(), pa.string())  # repeated text: dictionary-encoded
_FIELDS = [
    ("source", _TEXT, "where the deal comes from: code (SP1 game codes) or pysol (PySolFC "
                      "game numbers)"),
    ("code", pa.string(), "the deal: its canonical SP1 game code, or pysol:SUITS:NUMBER"),
    ("suits", pa.int64(), "number of suits: 1, 2 or 4"),
    ("rules", _TEXT, "rule variant: classic or relaxed (1 suit is always classic)"),
    ("deal", pa.int64(), "deal number (SP1, 0 .. 2^35 - 1) or PySolFC game number"),
    ("node_limit", pa.int64(), "node limit of the search (positions expanded); honest player: "
                               "the limit of each sample search"),
    ("verdict", _TEXT, "won (a winning line found and replayed), lost (the search was "
                       "exhaustive) or unknown (the node limit was reached first); honest "
                       "player: the game's result, won or lost"),
    ("nodes", pa.int64(), "nodes the search used (positions expanded); honest player: the "
                          "nodes of all its searches in the game"),
    ("seconds", pa.float64(), "wall-clock time of the whole solve (honest player: the whole "
                              "game), in seconds"),
    ("moves", pa.int64(), "length of the winning line in actions, deals included (won only; "
                          "null otherwise); honest player: the length of the line played"),
    ("score", pa.int64(), "final score of the winning line (won only; null otherwise); "
                          "honest player: the game's final score"),
    ("first_action", pa.string(), "first action of the winning line, in notation like 7>3x2 "
                                  "(won only; null otherwise); honest player: of the line "
                                  "played (null if it is empty)"),
    ("line", pa.string(), "the winning line: actions separated by single spaces (won only; "
                          "null otherwise); honest player: the line played, won or lost"),
    ("version", _TEXT, "spidersolve version that solved the deal"),
    ("time", pa.timestamp("s", tz="UTC"), "when the deal was finished (UTC, to the second)"),
    ("player", _TEXT, "who played: solver (the full-knowledge search) or honest (the player "
                      "who sees only what a player sees, SPEC section 11); solver in files "
                      "written before this column"),
    ("samples", pa.int64(), "honest player: samples of the hidden cards per decision (0 for "
                            "the solver)"),
    ("seed", pa.int64(), "honest player: the seed of the samples (0 for the solver)"),
]
SCHEMA = pa.schema([pa.field(name, kind, metadata={"description": text})
                    for name, kind, text in _FIELDS])
COLUMNS = SCHEMA.names
# Columns that change from run to run without the result changing.
VOLATILE = ["seconds", "time"]
INT_COLUMNS = [name for name, kind, _text in _FIELDS if kind == pa.int64()]
TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"  # how load_results gives the time column


class ResultsError(SpiderError):
    """A results file or directory is missing, unreadable or damaged."""


class _Vanished(Exception):
    """A listed part file was deleted (compacted) before it could be read."""


def content_hash(table: pa.Table, meta: dict, columns: list[str] = COLUMNS) -> str:
    """SHA-256 of the rows (every column of ``columns``, in order) and the run metadata."""
    digest = hashlib.sha256()
    digest.update(json.dumps(meta, sort_keys=True).encode())
    for name in columns:
        values = table.column(name).to_pylist()
        digest.update(json.dumps([name, values], default=str, separators=(",", ":")).encode())
    return digest.hexdigest()


def with_meta(table: pa.Table, meta: dict) -> pa.Table:
    """``table`` with ``meta`` and the checksum of both in its schema metadata.

    The table's other metadata (pandas' description of its dtypes) is kept.
    """
    table = table.select(COLUMNS)
    sealed = dict(meta, sha256=content_hash(table, meta))
    metadata = dict(table.schema.metadata or {})
    metadata[META_KEY] = json.dumps(sealed, sort_keys=True).encode()
    return table.replace_schema_metadata(metadata)


def frame_table(frame: pd.DataFrame) -> pa.Table:
    """The Arrow table of a frame of rows (as ``load_results`` gives them), in SCHEMA.

    Integers go through pandas' nullable Int64 and the time through a UTC
    timestamp, so that the pandas metadata stored with the table makes a
    plain ``pandas.read_parquet`` give nullable integers and timestamps.
    """
    frame = frame[COLUMNS].copy()
    for column in INT_COLUMNS:
        frame[column] = frame[column].astype("Int64")
    frame["time"] = pd.to_datetime(frame["time"], utc=True, format="ISO8601")
    return pa.Table.from_pandas(frame, schema=SCHEMA, preserve_index=False)


def rows_table(rows: list[dict], meta: dict) -> pa.Table:
    """An Arrow table of result rows with ``meta`` (and its checksum) in its metadata."""
    if not rows:
        return with_meta(frame_table(empty_frame()), meta)
    # a row without the columns added later is the solver's, as in the files before them
    rows = [dict({name: value for name, (value, _kind) in ADDED.items()}, **row)
            for row in rows]
    frame = pd.DataFrame.from_records(rows, columns=COLUMNS)
    return with_meta(frame_table(frame), meta)


def write_atomic(table: pa.Table, path: Path) -> None:
    """Write a Parquet file so that ``path`` is either absent (or as before) or whole."""
    write_file_atomic(path, lambda handle: pq.write_table(table, handle,
                                                          write_page_checksum=True))


def tidy(frame: pd.DataFrame) -> pd.DataFrame:
    """Drop duplicate keys (keeping the earliest row) and sort deterministically."""
    if frame.empty:
        return frame.reset_index(drop=True)
    frame = frame.sort_values(KEY + ["time"], kind="stable")
    frame = frame.drop_duplicates(subset=KEY, keep="first")
    return frame.sort_values(ORDER, kind="stable").reset_index(drop=True)


def empty_frame() -> pd.DataFrame:
    return _to_pandas(SCHEMA.empty_table())


def _to_pandas(table: pa.Table) -> pd.DataFrame:
    """The rows as ``load_results`` gives them: Int64 integers, text as str or None,
    the time as ISO 8601 text (``2026-12-01T09:00:00Z``)."""
    table = table.select(COLUMNS)
    stamps = pc.strftime(table.column("time"), format=TIME_FORMAT)
    table = table.set_column(COLUMNS.index("time"), "time", stamps)
    table = table.cast(pa.schema([pa.field(f.name, f.type.value_type
                                           if pa.types.is_dictionary(f.type) else f.type)
                                  for f in table.schema]))
    # Nullable integers stay integers (moves and score are missing unless won).
    mapping = {pa.int64(): pd.Int64Dtype(), pa.string(): pd.StringDtype()}
    frame = table.to_pandas(types_mapper=mapping.get, ignore_metadata=True)
    for column in ("source", "code", "rules", "verdict", "first_action", "line", "version",
                   "time", "player"):
        frame[column] = frame[column].astype(object).where(frame[column].notna(), None)
    return frame


def _one_line(err: BaseException) -> str:
    text = " ".join(str(err).split())
    return text or type(err).__name__


def read_file(path: Path) -> tuple[pd.DataFrame, dict]:
    """One results file: its rows and its metadata, checked (see the module docstring)."""
    path = Path(path)
    try:
        table = pq.read_table(path, page_checksum_verification=True)
    except FileNotFoundError:
        raise _Vanished(path) from None
    except Exception as err:  # pyarrow raises many kinds on a damaged file
        if isinstance(err, OSError) and err.errno == errno.ENOENT:
            raise _Vanished(path) from None
        raise ResultsError(f"cannot read results file '{path}': {_one_line(err)}") from None
    try:
        had = table.schema.names
        for name, (value, kind) in ADDED.items():  # a file from before the column
            if name not in had:
                table = table.append_column(name, pa.array([value] * table.num_rows, kind))
        missing = [c for c in COLUMNS if c not in table.schema.names]
        if missing:
            raise ResultsError(f" has no column {missing[0]}: it is not a spidersolve "
                               "results file")
        frame, meta = _checked(table, [c for c in COLUMNS if c in had])
    except ResultsError as err:
        raise ResultsError(f"results file '{path}'{err}") from None
    except Exception as err:  # bytes that decode to nothing valid: text, JSON, types
        raise ResultsError(f"results file '{path}' is damaged or not a spidersolve results "
                           f"file: {_one_line(err)}") from None
    return frame, meta


def _checked(table: pa.Table, hashed: list[str] = COLUMNS) -> tuple[pd.DataFrame, dict]:
    """The rows and metadata of a file's table, once its checksum and rows are checked.

    ``hashed``: the columns the file's checksum covers (those it was written
    with: a file from before a column of ``ADDED`` has a checksum without it).
    A ResultsError here carries the rest of the message after the file's name.
    """
    raw = (table.schema.metadata or {}).get(META_KEY)
    meta = json.loads(raw) if raw else {}
    if not isinstance(meta, dict):
        raise ValueError("its metadata is not a JSON object")
    table = table.select(COLUMNS).cast(SCHEMA)
    stored = meta.pop("sha256", None)
    if stored is not None and stored != content_hash(table, meta, hashed):
        raise ResultsError(" is damaged: its rows or metadata do not match the checksum "
                           "(sha256) written with them; the same batch command with --repair "
                           "sets it aside and solves its deals again")
    frame = _to_pandas(table)
    problem = row_problem(frame)
    if problem:
        raise ResultsError(f": {problem}")
    return frame, meta


def _expected_code(source: str, suits: int, rules: str, deal: int) -> str | None:
    from ..state.codes import GameCode, PysolDeal

    try:
        if source == "pysol":
            return PysolDeal(suits, str(deal)).text()
        return GameCode(suits, rules, deal).text()
    except SpiderError:
        return None


REQUIRED = ["source", "code", "suits", "rules", "deal", "node_limit", "verdict", "nodes",
            "seconds", "version", "time", "player", "samples", "seed"]
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
    digits = ["".join(chars) for chars in zip(*(_BASE32[(deal >> (5 * k)) & 31]
                                                  for k in range(6, -1, -1)))]
    suits = frame["suits"].astype("int64").astype(str)
    rules = frame["rules"].map({"classic": "C", "relaxed": "R"}).fillna("?")
    rules = rules.where(frame["suits"] != 1, "C")
    sp1 = "SP1-S" + suits + rules + "-" + pd.Series(digits, index=frame.index, dtype=object)
    pysol = "pysol:" + suits + ":" + frame["deal"].astype("int64").astype(str)
    return sp1.where(frame["source"] != "pysol", pysol)


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
        wrong |= (full["node_limit"] < 1) | (full["nodes"] < 0)
        # an honest game's nodes add up all its searches, each within the limit
        wrong |= solver & (full["nodes"] > full["node_limit"])
        wrong |= solver & ((full["samples"] != 0) | (full["seed"] != 0))
        wrong |= honest & ~full["verdict"].isin(HONEST_VERDICTS)
        wrong |= honest & ((full["samples"] < 1) | (full["samples"] > MAX_SAMPLES)
                           | (full["seed"] < 0))
        optional = full[OPTIONAL].notna()
        played = full[["moves", "score", "line"]].notna().all(axis=1)
        wrong |= solver & ~won & optional.any(axis=1)
        wrong |= solver & won & ~optional.all(axis=1)
        wrong |= honest & ~played
        checked = (solver & won & optional.all(axis=1)) | (honest & played)
        wrong |= checked & (moves != n_actions).fillna(True)
        first_action = full["first_action"]
        first_ok = ((line != "") & (first_action == first)) | ((line == "")
                                                              & first_action.isna())
        wrong |= checked & ~first_ok
        exact = moves < NO_CLAMP_MOVES
        wrong |= checked & won & ((exact & (score != lowest))
                                  | (~exact & (score < lowest.clip(0))))
        gain = score - (500 - moves)
        wrong |= checked & ~won & ((exact & ~(gain.isin(_LOST_GAINS)).fillna(False))
                                   | (~exact & (score < 0)))
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
    if row["node_limit"] < 1 or row["nodes"] < 0 or (not honest
                                                     and row["nodes"] > row["node_limit"]):
        return f"nodes {row['nodes']} is not within the limit {row['node_limit']}"
    if not honest and (row["samples"] != 0 or row["seed"] != 0):
        return (f"a solver row has samples {row['samples']} and seed {row['seed']} (0 and 0 "
                "for the solver)")
    if honest and not (1 <= row["samples"] <= MAX_SAMPLES and row["seed"] >= 0):
        return (f"an honest row has samples {row['samples']} and seed {row['seed']} (samples "
                f"1 .. {MAX_SAMPLES}, seed at least 0)")
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


class ResultStore:
    """A directory of result files (or one results file, read only)."""

    def __init__(self, path):
        self.path = Path(path)
        self._lock_fd = None

    def files(self) -> list[Path]:
        """The whole result files, compacted results first, then parts by name."""
        if self.path.is_file():
            return [self.path]
        if not self.path.is_dir():
            return []
        parts = sorted(p for p in self.path.glob("part-*.parquet") if p.is_file())
        main = self.path / RESULTS_NAME
        return ([main] if main.is_file() else []) + parts

    def parts(self) -> list[Path]:
        """The part files not yet compacted."""
        if not self.path.is_dir():
            return []
        return [p for p in self.files() if p.name != RESULTS_NAME]

    def exists(self) -> bool:
        return bool(self.files())

    def load(self) -> pd.DataFrame:
        """Every row once, sorted; an empty frame when there is nothing yet."""
        return self.load_with_meta()[0]

    def load_with_meta(self) -> tuple[pd.DataFrame, list[dict]]:
        """Rows, and the metadata of every run that wrote them (by run id)."""
        return self._load(self.files)[1:]

    def _load(self, listing):
        """(files read, rows, runs); lists again if a part vanishes while it is read."""
        for _attempt in range(20):
            paths = listing()
            try:
                loaded = [read_file(path) for path in paths]
            except _Vanished:
                continue  # compacted meanwhile: its rows are in results.parquet now
            break
        else:
            raise ResultsError(f"results at '{self.path}' keep changing while they are read")
        frames, runs = [], {}
        for frame, meta in loaded:
            frames.append(frame)
            for run in meta.get("runs", []):
                if isinstance(run, dict):
                    runs.setdefault(run.get("run_id"), run)
        if not frames:
            return paths, empty_frame(), []
        frame = tidy(pd.concat(frames, ignore_index=True)) if len(frames) > 1 else tidy(frames[0])
        return paths, frame, sorted(runs.values(), key=lambda r: (str(r.get("started", "")),
                                                                  str(r.get("run_id", ""))))

    # -- writing -------------------------------------------------------------
    def check_out(self) -> None:
        if self.path.exists() and not self.path.is_dir():
            raise ResultsError(f"--out '{self.path}' exists and is not a directory")

    def open_for_writing(self) -> None:
        """Create the directory and take its writer's lock (see the module docstring).

        Another writer holding the lock is an error. Temporary files that a
        killed writer left are deleted: only this store's (part and results
        files), only under the lock, so never those of a live writer.
        """
        self.check_out()
        self.path.mkdir(parents=True, exist_ok=True)
        self._lock()
        for pattern in (".part-*.tmp", temp_prefix(self.path / RESULTS_NAME) + "*.tmp"):
            for tmp in self.path.glob(pattern):
                try:
                    tmp.unlink()
                except OSError:
                    pass

    def _lock(self) -> None:
        if self._lock_fd is not None:
            return
        try:
            import fcntl
        except ImportError:  # not POSIX: no lock (docs/robustness.md)
            return
        lock_path = self.path / LOCK_NAME
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as err:
            os.close(fd)
            if err.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise ResultsError(f"another batch is writing to '{self.path}' (it holds "
                                   f"{lock_path}): wait for it to finish, or choose another "
                                   "--out") from None
            raise
        self._lock_fd = fd

    def close(self) -> None:
        """Release the writer's lock (the lock file stays: it is not state)."""
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def set_aside_damaged(self) -> list[Path]:
        """Rename every file that cannot be read (``NAME.damaged``); the new names.

        Only under the writer's lock. Readers ignore the renamed files, so
        the deals they held are missing, and the next batch solves them again.
        """
        moved = []
        for path in self.files():
            try:
                read_file(path)
            except _Vanished:
                continue
            except ResultsError:
                target = path.with_name(path.name + ".damaged")
                n = 1
                while target.exists():
                    n += 1
                    target = path.with_name(f"{path.name}.damaged-{n}")
                os.replace(path, target)
                moved.append(target)
        return moved

    def write_part(self, rows: list[dict], run: dict, seq: int) -> Path:
        """Write one finished chunk of rows as a new part file."""
        path = self.path / f"part-{run['run_id']}-{seq:06d}.parquet"
        write_atomic(rows_table(rows, {"runs": [run]}), path)
        return path

    def compact(self) -> Path | None:
        """Merge every file into ``results.parquet``, then delete the merged parts.

        With no part file there is nothing to merge, and nothing is written.
        """
        main = self.path / RESULTS_NAME
        merged, frame, runs = self._load(self.files)
        if not merged:
            return None
        if merged == [main]:
            return main
        write_atomic(with_meta(frame_table(frame), {"runs": runs}), main)
        for path in merged:
            if path != main:
                path.unlink(missing_ok=True)
        return main


def load_results(path) -> pd.DataFrame:
    """Read a results directory or file; a clear error if there is none.

    >>> frame = load_results("results/")     # doctest: +SKIP
    """
    store = ResultStore(path)
    if not store.path.exists():
        raise ResultsError(f"no results at '{path}': no such file or directory")
    if not store.exists():
        raise ResultsError(f"no results at '{path}': no results.parquet or part files")
    return store.load()


def load_results_and_runs(path) -> tuple[pd.DataFrame, list[dict]]:
    """``load_results`` and ``load_runs`` from one reading of the files."""
    store = ResultStore(path)
    if not store.exists():
        load_results(path)  # raises the error that says why there is nothing
    return store.load_with_meta()


def load_runs(path) -> list[dict]:
    """The settings and versions of the runs that wrote the results at ``path``."""
    return ResultStore(path).load_with_meta()[1]
