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
has its line played, moves and score either way: see
:mod:`spidersolve.stats.row_checks`). A damaged file is an error naming the
file and the damage.

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
import stat
from collections import OrderedDict
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ..errors import SpiderError, shown_path
from ..files import output_problem, temp_prefix, write_asked
from .row_checks import row_problem
from .schema import (
    ADDED,
    COLUMNS,
    KEY,
    META_KEY,
    ORDER,
    PLAYERS,
    SCHEMA,
    VOLATILE,
    content_hash,
    empty_frame,
    frame_table,
    rows_table,
    table_frame,
    tidy,
    with_meta,
)

# The schema's names are the store's too (``from spidersolve.stats.store import KEY``).
__all__ = [
    "ADDED",
    "COLUMNS",
    "KEY",
    "LOCK_NAME",
    "META_KEY",
    "ORDER",
    "PLAYERS",
    "RESULTS_NAME",
    "SCHEMA",
    "VOLATILE",
    "ResultStore",
    "ResultsError",
    "content_hash",
    "empty_frame",
    "frame_table",
    "load_results",
    "load_results_and_runs",
    "load_runs",
    "read_file",
    "rows_table",
    "table_frame",
    "tidy",
    "with_meta",
    "write_atomic",
]

RESULTS_NAME = "results.parquet"
LOCK_NAME = ".spidersolve.lock"


class ResultsError(SpiderError):
    """A results file or directory is missing, unreadable or damaged."""


class _Vanished(Exception):
    """A listed part file was deleted (compacted) before it could be read."""


def write_atomic(table: pa.Table, path: Path) -> None:
    """Write a Parquet file so that ``path`` is either absent (or as before) or whole.

    A failure (a full disk, a name too long) is one ``SpiderError`` that names
    the file (``files.write_asked``).
    """
    write_asked(path, lambda handle: pq.write_table(table, handle, write_page_checksum=True))


def _strerror(err: OSError) -> str:
    """The words of an ``OSError`` without its number and file name."""
    return err.strerror or _one_line(err)


def _one_line(err: BaseException) -> str:
    text = " ".join(str(err).split())
    return text or type(err).__name__


# Files read and checked before, by path: (digest of the bytes, rows, metadata).
# A batch --retry ladder reads the same store twice a rung; checking its rows
# again each time cost 1.4 s a read on PySolFC's 32,000 deals. Keyed on the
# whole content, so a file changed in place (even within one clock tick, with
# the same size) is read and checked again.
_READ: OrderedDict[Path, tuple[bytes, pd.DataFrame, str]] = OrderedDict()
_READ_KEEP = 8


REPAIR_HINT = "the same batch command with --repair sets it aside and solves its deals again"


def read_file(path: Path) -> tuple[pd.DataFrame, dict]:
    """One results file: its rows and its metadata, checked (see the module docstring)."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise _Vanished(path) from None
    except OSError as err:
        if err.errno == errno.ENOENT:
            raise _Vanished(path) from None
        raise ResultsError(f"cannot read results file '{path}': {_strerror(err)}") from None
    digest = hashlib.blake2b(data, digest_size=32).digest()
    key = path.resolve()
    seen = _READ.get(key)
    if seen is not None and seen[0] == digest:
        _READ.move_to_end(key)
        return seen[1].copy(), json.loads(seen[2])
    frame, meta = _read_checked(path, data)
    _READ[key] = (digest, frame.copy(), json.dumps(meta))
    while len(_READ) > _READ_KEEP:
        _READ.popitem(last=False)
    return frame, meta


def _read_checked(path: Path, data: bytes) -> tuple[pd.DataFrame, dict]:
    """The rows and metadata of the bytes of results file ``path``, checked."""
    try:
        table = pq.read_table(pa.BufferReader(data), page_checksum_verification=True)
    except Exception as err:  # pyarrow raises many kinds on a damaged file
        # pyarrow names the source it read, here the buffer, not the file.
        why = _one_line(err).replace("Could not open Parquet input source '<Buffer>': ", "")
        why = why.rstrip(" .")  # a sentence of its own ends in a stop; ours goes on
        if path.name == RESULTS_NAME or path.name.startswith("part-"):
            raise ResultsError(f"cannot read results file '{path}': {why}; {REPAIR_HINT}") from None
        raise ResultsError(f"'{path}' is not a results file (Parquet): {why}") from None
    try:
        had = table.schema.names
        for name, (value, kind) in ADDED.items():  # a file from before the column
            if name not in had:
                table = table.append_column(name, pa.array([value] * table.num_rows, kind))
        missing = [c for c in COLUMNS if c not in table.schema.names]
        if missing:
            raise ResultsError(f" has no column {missing[0]}: it is not a spidersolve results file")
        frame, meta = _checked(table, [c for c in COLUMNS if c in had])
    except ResultsError as err:
        raise ResultsError(f"results file '{path}'{err}") from None
    except Exception as err:  # bytes that decode to nothing valid: text, JSON, types
        raise ResultsError(
            f"results file '{path}' is damaged or not a spidersolve results file: {_one_line(err)}"
        ) from None
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
        raise ResultsError(
            " is damaged: its rows or metadata do not match the checksum "
            f"(sha256) written with them; {REPAIR_HINT}"
        )
    frame = table_frame(table)
    problem = row_problem(frame)
    if problem:
        raise ResultsError(f": {problem}")
    return frame, meta


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
        parts = [p for p in self.part_names() if p.is_file()]
        main = self.path / RESULTS_NAME
        return ([main] if main.is_file() else []) + parts

    def part_names(self) -> list[Path]:
        """Every ``part-*.parquet`` in the folder, by name, whatever it is.

        A folder that cannot be listed is a ``ResultsError`` (``Path.glob``
        would pass it over in silence, and its part files with it).
        """
        try:
            names = os.listdir(self.path)
        except OSError as err:
            raise ResultsError(
                f"cannot list the results folder '{shown_path(self.path)}': {_strerror(err)}"
            ) from None
        return [
            self.path / name
            for name in sorted(names)
            if name.startswith("part-") and name.endswith(".parquet")
        ]

    def odd_file(self) -> str | None:
        """What is wrong with a results or part file that is there but is no file
        (a folder, a broken link, a device); None if nothing is."""
        if not self.path.is_dir():
            return None
        for odd in [self.path / RESULTS_NAME, *self.part_names()]:
            try:
                problem = _not_a_file(odd)
            except OSError as err:
                problem = f"cannot be looked at: {_strerror(err)}"
            if problem:
                return f"its {odd.name} {problem}"
        return None

    def parts(self) -> list[Path]:
        """The part files not yet compacted."""
        if not self.path.is_dir():
            return []
        return [p for p in self.files() if p.name != RESULTS_NAME]

    def exists(self) -> bool:
        """Whether there is any results file yet."""
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
        return (
            paths,
            frame,
            sorted(
                runs.values(), key=lambda r: (str(r.get("started", "")), str(r.get("run_id", "")))
            ),
        )

    # -- writing -------------------------------------------------------------
    def check_out(self) -> None:
        """Refuse a path that exists and is not a directory (``--out`` of ``batch``)."""
        if self.path.exists() and not self.path.is_dir():
            raise ResultsError(f"--out '{self.path}' exists and is not a directory")

    def open_for_writing(self) -> None:
        """Create the directory and take its writer's lock (see the module docstring).

        Another writer holding the lock is an error. Temporary files that a
        killed writer left are deleted: only this store's (part and results
        files), only under the lock, so never those of a live writer.
        """
        self.check_out()
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            if not os.access(self.path, os.W_OK | os.X_OK):
                raise PermissionError(errno.EACCES, "it is read-only")
        except OSError as err:
            raise ResultsError(
                f"--out: cannot write '{shown_path(self.path)}': {_strerror(err)}"
            ) from None
        # the results file is written at the end: refuse a folder or a device there now
        # (no probe file: before the lock, another batch's clean-up could take it)
        problem = output_problem(str(self.path / RESULTS_NAME), probe=False)
        if problem:
            raise ResultsError(f"--out: {problem}")
        problem = self.odd_file()  # what stats would refuse to read, batch refuses to write
        if problem:
            raise ResultsError(f"--out '{shown_path(self.path)}': {problem}")
        try:
            self._lock()
        except OSError as err:
            raise ResultsError(
                f"--out: cannot write '{shown_path(self.path / LOCK_NAME)}': {_strerror(err)}"
            ) from None
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
                raise ResultsError(
                    f"another batch is writing to '{self.path}' (it holds "
                    f"{lock_path}): wait for it to finish, or choose another "
                    "--out"
                ) from None
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
    return load_results_and_runs(path)[0]


def load_results_and_runs(path) -> tuple[pd.DataFrame, list[dict]]:
    """The rows and ``load_runs`` from one reading of the files; a clear error
    (``ResultsError``) if there are none, or if a file among them is not a file."""
    if not str(path).strip():
        raise ResultsError("an empty name: give a results folder (batch --out) or file")
    try:
        return _load_results_and_runs(path)
    except OSError as err:  # a name too long, a folder that may not be entered
        raise ResultsError(f"cannot read '{shown_path(path)}': {_strerror(err)}") from None


def _load_results_and_runs(path) -> tuple[pd.DataFrame, list[dict]]:
    store = ResultStore(path)
    name = shown_path(path)
    if not store.path.exists():
        if os.path.islink(store.path):
            raise ResultsError(
                f"no results at '{name}': a symbolic link that leads to no file (a loop, "
                "or its target is gone)"
            )
        raise ResultsError(f"no results at '{name}': no such file or directory")
    if not store.path.is_dir() and not store.path.is_file():
        raise ResultsError(f"no results at '{name}': it is neither a folder nor a regular file")
    problem = store.odd_file()  # a folder, a pipe, a device or a broken link is not skipped
    if problem:
        raise ResultsError(f"no results at '{name}': {problem}")
    if not store.exists():
        raise ResultsError(f"no results at '{name}': no results.parquet or part files")
    frame, runs = store.load_with_meta()
    if frame.empty:
        raise ResultsError(f"no results at '{name}': its files hold no rows")
    return frame, runs


def _not_a_file(path: Path) -> str | None:
    """Why ``path`` is there but is no results file; None for a regular file or
    none at all (a part a compaction deletes while it is looked at is none)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        try:
            os.lstat(path)
        except FileNotFoundError:
            return None
        return "is a broken link"
    if stat.S_ISDIR(mode):
        return "is a folder, not a file"
    return None if stat.S_ISREG(mode) else "is not a regular file"


def load_runs(path) -> list[dict]:
    """The settings and versions of the runs that wrote the results at ``path``."""
    return ResultStore(path).load_with_meta()[1]
