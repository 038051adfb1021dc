"""The result store: per-deal rows in Parquet files under one directory.

A batch run writes each finished chunk of deals as its own part file
(``part-<run>-<seq>.parquet``), atomically: the rows go to a temporary file
in the same directory, which is flushed, synced and then renamed over its
final name with ``os.replace``. A run killed at any moment (``kill -9``
included) leaves only whole part files and perhaps a stray temporary file,
which readers ignore. At the end of a run the parts are compacted into
``results.parquet`` (again written atomically) and then deleted; a run
killed between the two steps leaves rows in both, and readers drop the
duplicates by key.

The key of a row is ``(source, code, node_limit, player, samples, seed)``:
one verdict per deal and budget for the solver (``player`` ``solver``,
``samples`` and ``seed`` 0), one game per deal and options for the honest
player (``player`` ``honest``, ``node_limit`` its nodes per sample search).
Files written before the ``player`` column are read as solver rows. Every file carries the settings and versions of the runs that wrote
it as JSON under the ``spidersolve`` key of the Parquet schema metadata.

>>> store = ResultStore("results/")          # doctest: +SKIP
>>> store.load()                             # doctest: +SKIP
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ..errors import SpiderError

KEY = ["source", "code", "node_limit", "player", "samples", "seed"]
# The deterministic row order: settings first, then the deal number.
ORDER = ["player", "samples", "seed", "source", "suits", "rules", "node_limit", "deal"]
PLAYERS = ("solver", "honest")
# Columns added after the first files were written, and their value in those files.
ADDED = {"player": ("solver", pa.string()), "samples": (0, pa.int64()), "seed": (0, pa.int64())}
RESULTS_NAME = "results.parquet"
META_KEY = b"spidersolve"

SCHEMA = pa.schema([
    ("source", pa.string()),        # "code" (SP1 game codes) or "pysol"
    ("code", pa.string()),          # canonical game code or pysol:S:N name
    ("suits", pa.int64()),
    ("rules", pa.string()),         # "classic" or "relaxed"
    ("deal", pa.int64()),           # deal number (SP1) or PySolFC game number
    ("node_limit", pa.int64()),
    ("verdict", pa.string()),       # "won", "lost" or "unknown"; honest: the game's result
    ("nodes", pa.int64()),          # positions expanded
    ("seconds", pa.float64()),
    ("moves", pa.int64()),          # length of the winning line (won only)
    ("score", pa.int64()),          # final score of the winning line (won only)
    ("first_action", pa.string()),  # first action of the winning line, notation (won only)
    ("line", pa.string()),          # the winning line (won only); honest: the line played
    ("version", pa.string()),       # spidersolve.__version__ that solved it
    ("time", pa.string()),          # UTC ISO 8601 time the deal was finished
    ("player", pa.string()),        # "solver" (full knowledge) or "honest" (SPEC 11)
    ("samples", pa.int64()),        # honest: samples of the hidden cards per decision
    ("seed", pa.int64()),           # honest: the seed of the samples
])
COLUMNS = SCHEMA.names
# Columns that change from run to run without the result changing.
VOLATILE = ["seconds", "time"]


class ResultsError(SpiderError):
    """A results file or directory is missing or unreadable."""


def rows_table(rows: list[dict], meta: dict) -> pa.Table:
    """An Arrow table of result rows with ``meta`` in its schema metadata."""
    table = pa.Table.from_pylist(rows, schema=SCHEMA)
    return table.replace_schema_metadata({META_KEY: json.dumps(meta, sort_keys=True).encode()})


def write_atomic(table: pa.Table, path: Path) -> None:
    """Write a Parquet file so that ``path`` is either absent or whole."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, 0o644)  # mkstemp makes 0600; results are for everyone to read
        with os.fdopen(fd, "wb") as handle:
            pq.write_table(table, handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    _sync_dir(path.parent)


def _sync_dir(folder: Path) -> None:
    # Makes the rename itself durable; not every platform can open a directory.
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


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
    # Nullable integers stay integers (moves and score are missing unless won).
    mapping = {pa.int64(): pd.Int64Dtype(), pa.string(): pd.StringDtype()}
    frame = table.select(COLUMNS).to_pandas(types_mapper=mapping.get)
    for column in ("source", "code", "rules", "verdict", "first_action", "line", "version",
                   "time", "player"):
        frame[column] = frame[column].astype(object).where(frame[column].notna(), None)
    return frame


def read_file(path: Path) -> tuple[pd.DataFrame, dict]:
    """One results file: its rows and its metadata."""
    try:
        table = pq.read_table(path)
    except (OSError, pa.ArrowException) as err:
        raise ResultsError(f"cannot read results file '{path}': {err}") from None
    for name, (value, kind) in ADDED.items():
        if name not in table.schema.names:
            table = table.append_column(name, pa.array([value] * table.num_rows, kind))
    missing = [c for c in COLUMNS if c not in table.schema.names]
    if missing:
        raise ResultsError(f"'{path}' is not a spidersolve results file "
                           f"(no column {missing[0]})")
    raw = (table.schema.metadata or {}).get(META_KEY)
    try:
        meta = json.loads(raw) if raw else {}
        table = table.select(COLUMNS).cast(SCHEMA.remove_metadata())
    except (ValueError, pa.ArrowException) as err:
        raise ResultsError(f"'{path}' is not a spidersolve results file: {err}") from None
    return _to_pandas(table), meta


class ResultStore:
    """A directory of result files (or one results file, read only)."""

    def __init__(self, path):
        self.path = Path(path)

    def files(self) -> list[Path]:
        """The whole result files, compacted results first, then parts by name."""
        if self.path.is_file():
            return [self.path]
        if not self.path.is_dir():
            return []
        parts = sorted(p for p in self.path.glob("part-*.parquet") if p.is_file())
        main = self.path / RESULTS_NAME
        return ([main] if main.is_file() else []) + parts

    def exists(self) -> bool:
        return bool(self.files())

    def load(self) -> pd.DataFrame:
        """Every row once, sorted; an empty frame when there is nothing yet."""
        return self.load_with_meta()[0]

    def load_with_meta(self) -> tuple[pd.DataFrame, list[dict]]:
        """Rows, and the metadata of every run that wrote them (by run id)."""
        frames, runs = [], {}
        for path in self.files():
            frame, meta = read_file(path)
            frames.append(frame)
            for run in meta.get("runs", []):
                runs.setdefault(run.get("run_id"), run)
        if not frames:
            return empty_frame(), []
        frame = tidy(pd.concat(frames, ignore_index=True)) if len(frames) > 1 else tidy(frames[0])
        return frame, sorted(runs.values(), key=lambda r: (r.get("started", ""),
                                                           r.get("run_id", "")))

    def open_for_writing(self) -> None:
        if self.path.exists() and not self.path.is_dir():
            raise ResultsError(f"--out '{self.path}' exists and is not a directory")
        self.path.mkdir(parents=True, exist_ok=True)
        # A stray temporary file is what a killed writer leaves; it never holds
        # rows that a whole file does not (runs into one directory take turns).
        for tmp in self.path.glob(".*.tmp"):
            try:
                tmp.unlink()
            except OSError:
                pass

    def write_part(self, rows: list[dict], run: dict, seq: int) -> Path:
        """Write one finished chunk of rows as a new part file."""
        path = self.path / f"part-{run['run_id']}-{seq:06d}.parquet"
        write_atomic(rows_table(rows, {"runs": [run]}), path)
        return path

    def compact(self) -> Path | None:
        """Merge every file into ``results.parquet``, then delete the merged parts."""
        merged = self.files()
        if not merged:
            return None
        frame, runs = self.load_with_meta()
        main = self.path / RESULTS_NAME
        table = pa.Table.from_pandas(frame[COLUMNS], schema=SCHEMA, preserve_index=False)
        table = table.replace_schema_metadata(
            {META_KEY: json.dumps({"runs": runs}, sort_keys=True).encode()})
        write_atomic(table, main)
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


def load_runs(path) -> list[dict]:
    """The settings and versions of the runs that wrote the results at ``path``."""
    return ResultStore(path).load_with_meta()[1]
