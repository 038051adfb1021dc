"""The columns of the results and their Arrow and pandas forms.

One row per deal and setting (see :mod:`spidersolve.stats.store` for the
files). ``SCHEMA`` gives every column its Arrow type and a description;
``rows_table`` and ``frame_table`` build a table in it, sealed with the run
metadata and a SHA-256 of both (``with_meta``); ``table_frame`` gives the
rows back as ``load_results`` does.

>>> KEY
['source', 'code', 'node_limit', 'player', 'samples', 'seed', 'search']
"""

from __future__ import annotations

import hashlib
import json

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

KEY = ["source", "code", "node_limit", "player", "samples", "seed", "search"]
# The deterministic row order: settings first, then the deal number (then the search).
ORDER = ["player", "samples", "seed", "source", "suits", "rules", "node_limit", "deal", "search"]
PLAYERS = ("solver", "honest")
# The solver's search configuration unless a rung of ``batch --retry`` names another.
DEFAULT_SEARCH = "default"
# Columns added after the first files were written, and their value in those files.
ADDED = {
    "player": ("solver", pa.string()),
    "samples": (0, pa.int64()),
    "seed": (0, pa.int64()),
    "search": (DEFAULT_SEARCH, pa.string()),
    "cpu_seconds": (None, pa.float64()),
}
META_KEY = b"spidersolve"
VERDICTS = ("won", "lost", "unknown")
SOURCES = ("code", "pysol")

_TEXT = pa.dictionary(pa.int32(), pa.string())  # repeated text: dictionary-encoded
_FIELDS = [
    (
        "source",
        _TEXT,
        "where the deal comes from: code (SP1 game codes) or pysol (PySolFC game numbers)",
    ),
    ("code", pa.string(), "the deal: its canonical SP1 game code, or pysol:SUITS:NUMBER"),
    ("suits", pa.int64(), "number of suits: 1, 2 or 4"),
    ("rules", _TEXT, "rule variant: classic or relaxed (1 suit is always classic)"),
    ("deal", pa.int64(), "deal number (SP1, 0 .. 2^35 - 1) or PySolFC game number"),
    (
        "node_limit",
        pa.int64(),
        "node limit of the search (positions expanded); honest player: "
        "the limit of each sample search",
    ),
    (
        "verdict",
        _TEXT,
        "won (a winning line found and replayed), lost (the search was "
        "exhaustive) or unknown (the node limit was reached first); honest "
        "player: the game's result, won or lost",
    ),
    (
        "nodes",
        pa.int64(),
        "nodes the search used (positions expanded); honest player: the "
        "nodes of all its searches in the game",
    ),
    (
        "seconds",
        pa.float64(),
        "wall-clock time of the whole solve (honest player: the whole game), in seconds",
    ),
    (
        "moves",
        pa.int64(),
        "length of the winning line in actions, deals included (won only; "
        "null otherwise); honest player: the length of the line played",
    ),
    (
        "score",
        pa.int64(),
        "final score of the winning line (won only; null otherwise); "
        "honest player: the game's final score",
    ),
    (
        "first_action",
        pa.string(),
        "first action of the winning line, in notation like 7>3x2 "
        "(won only; null otherwise); honest player: of the line "
        "played (null if it is empty)",
    ),
    (
        "line",
        pa.string(),
        "the winning line: actions separated by single spaces (won only; "
        "null otherwise); honest player: the line played, won or lost",
    ),
    (
        "version",
        _TEXT,
        "spidersolve version that solved the deal, + the revision of its rules and "
        "search (spidersolve.revision), as in 0.1.0+88fee989336c; the version alone "
        "in files written before 2026-12-08",
    ),
    ("time", pa.timestamp("s", tz="UTC"), "when the deal was finished (UTC, to the second)"),
    (
        "player",
        _TEXT,
        "who played: solver (the full-knowledge search) or honest (the player "
        "who sees only what a player sees, SPEC section 11); solver in files "
        "written before this column",
    ),
    (
        "samples",
        pa.int64(),
        "honest player: samples of the hidden cards per decision (0 for the solver)",
    ),
    ("seed", pa.int64(), "honest player: the seed of the samples (0 for the solver)"),
    (
        "search",
        _TEXT,
        "the solver's search configuration: default, or the name of another "
        "(search.heuristic.PRESETS) that a rung of batch --retry ran, as in "
        "--retry 1e6@kp300; default for the honest player and in files written "
        "before this column",
    ),
    (
        "cpu_seconds",
        pa.float64(),
        "CPU time of the thread that solved the deal (honest player: that played "
        "the game), in seconds; unlike seconds, it does not grow when the machine "
        "is busy with other work; null in files written before this column",
    ),
]
SCHEMA = pa.schema(
    [pa.field(name, kind, metadata={"description": text}) for name, kind, text in _FIELDS]
)
COLUMNS = SCHEMA.names
# Columns that change from run to run without the result changing.
VOLATILE = ["seconds", "time", "cpu_seconds"]
INT_COLUMNS = [name for name, kind, _text in _FIELDS if kind == pa.int64()]
TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"  # how load_results gives the time column


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
    rows = [dict({name: value for name, (value, _kind) in ADDED.items()}, **row) for row in rows]
    frame = pd.DataFrame.from_records(rows, columns=COLUMNS)
    return with_meta(frame_table(frame), meta)


def tidy(frame: pd.DataFrame) -> pd.DataFrame:
    """Drop duplicate keys (keeping the earliest row) and sort deterministically."""
    if frame.empty:
        return frame.reset_index(drop=True)
    frame = frame.sort_values(KEY + ["time"], kind="stable")
    frame = frame.drop_duplicates(subset=KEY, keep="first")
    return frame.sort_values(ORDER, kind="stable").reset_index(drop=True)


def empty_frame() -> pd.DataFrame:
    """A frame of no rows with every column, as ``load_results`` gives them."""
    return table_frame(SCHEMA.empty_table())


def table_frame(table: pa.Table) -> pd.DataFrame:
    """The rows as ``load_results`` gives them: Int64 integers, text as str or None,
    the time as ISO 8601 text (``2026-12-01T09:00:00Z``)."""
    table = table.select(COLUMNS)
    stamps = pc.strftime(table.column("time"), format=TIME_FORMAT)
    table = table.set_column(COLUMNS.index("time"), "time", stamps)
    table = table.cast(
        pa.schema(
            [
                pa.field(f.name, f.type.value_type if pa.types.is_dictionary(f.type) else f.type)
                for f in table.schema
            ]
        )
    )
    # Nullable integers stay integers (moves and score are missing unless won).
    mapping = {pa.int64(): pd.Int64Dtype(), pa.string(): pd.StringDtype()}
    frame = table.to_pandas(types_mapper=mapping.get, ignore_metadata=True)
    for column in (
        "source",
        "code",
        "rules",
        "verdict",
        "first_action",
        "line",
        "version",
        "time",
        "player",
        "search",
    ):
        frame[column] = frame[column].astype(object).where(frame[column].notna(), None)
    return frame
