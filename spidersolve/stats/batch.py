"""Batch runs: solve a range of deals under several settings, one row per deal.

The plan (:func:`spidersolve.stats.plan.plan`) is a sorted list of tasks.
Tasks already in the result store are skipped, the rest are cut into chunks
and sent to a backend (:mod:`spidersolve.stats.backends`); each finished
chunk is written as its own part file (see :mod:`spidersolve.stats.store`),
so a run can be killed and started again at any moment and every deal ends
up in the results exactly once.

>>> from spidersolve.stats.plan import plan
>>> tasks = plan("code", [1], ["classic"], range(0, 4), nodes=2000)
>>> report = run_batch(tasks, "results/")        # doctest: +SKIP
"""

from __future__ import annotations

import math
import platform
import time
import uuid
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from .. import __version__
from ..board import plural
from ..errors import raise_lost, shown_path
from ..interrupt import thread_cpu
from ..revision import UNKNOWN, code_revision, row_version
from .backends import InlineBackend
from .plan import (
    MAX_TASKS,
    RetryPlan,
    Setting,
    Task,
    deal_count,
    deal_numbers,
    deal_ranges,
    retry_tasks,
)
from .schema import DEFAULT_SEARCH
from .store import KEY, ResultsError, ResultStore, _Vanished, read_file

# -- solving -----------------------------------------------------------------


def _default_solver():
    from ..search import solve

    return solve


def utc_now() -> str:
    """The time now in UTC, to the second: ``2026-12-01T09:00:00Z``."""
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def solve_task(task: Task, solver: Callable | None = None) -> dict:
    """Solve one deal (or play it, for the honest player) and return its result row."""
    if task.player == "honest":
        return play_task(task)
    solve = solver or _default_solver()
    cpu = thread_cpu()  # the search runs for this thread, whatever the backend
    if task.search == DEFAULT_SEARCH:
        result = solve(task.position(), nodes=task.node_limit)
    else:  # a rung of --retry that runs another search configuration
        result = solve(task.position(), nodes=task.node_limit, weights=task.search)
    cpu = thread_cpu() - cpu
    won = result.verdict == "won"
    line = list(result.line) if won and result.line is not None else None
    return {
        "source": task.source,
        "code": task.code,
        "suits": task.suits,
        "rules": task.rules,
        "deal": task.deal,
        "node_limit": task.node_limit,
        "verdict": result.verdict,
        "nodes": int(result.nodes),
        "seconds": float(result.seconds),
        "moves": int(result.moves) if won else None,
        "score": int(result.score) if won else None,
        "first_action": line[0].text() if line else None,
        "line": result.line_text,
        "version": row_version(),
        "time": utc_now(),
        "player": "solver",
        "samples": 0,
        "seed": 0,
        "search": task.search,
        "cpu_seconds": cpu,
    }


def play_task(task: Task) -> dict:
    """Play one deal with the honest player; its row (``verdict`` is the game's result).

    The line played is replayed with the reference rules before it is kept.
    """
    from ..search.honest_game import play_honest
    from ..search.verify import verify_line
    from ..state import Game

    position = task.position()
    cpu = thread_cpu()  # one thread plays the game and runs its searches
    result = play_honest(position, samples=task.samples, seed=task.seed, nodes=task.node_limit)
    cpu = thread_cpu() - cpu
    verify_line(Game.start(position), result.line, result.result == "won")
    return {
        "source": task.source,
        "code": task.code,
        "suits": task.suits,
        "rules": task.rules,
        "deal": task.deal,
        "node_limit": task.node_limit,
        "verdict": result.result,
        "nodes": int(result.nodes),
        "seconds": float(result.seconds),
        "moves": int(result.moves),
        "score": int(result.score),
        "first_action": result.line[0].text() if result.line else None,
        "line": result.line_text,
        "version": row_version(),
        "time": utc_now(),
        "player": "honest",
        "samples": task.samples,
        "seed": task.seed,
        "search": DEFAULT_SEARCH,
        "cpu_seconds": cpu,
    }


def solve_chunk(tasks: list[Task], solver: Callable | None = None) -> list[dict]:
    """Solve a chunk of deals (the unit of work sent to a backend)."""
    return [solve_task(task, solver) for task in tasks]


# -- the run -----------------------------------------------------------------


@dataclass
class BatchReport:
    """What a run did: tasks planned, skipped (already done) and solved now."""

    planned: int
    skipped: int
    solved: int = 0
    won: int = 0
    lost: int = 0
    unknown: int = 0
    seconds: float = 0.0
    out: str = ""
    run: dict = field(default_factory=dict)
    damaged: list = field(default_factory=list)  # files set aside by repair

    def count(self, rows: list[dict]) -> None:
        """Count the rows of a chunk just written: solved, and by verdict."""
        for row in rows:
            self.solved += 1
            setattr(self, row["verdict"], getattr(self, row["verdict"]) + 1)


def versions() -> dict:
    """The versions of spidersolve, Python and the libraries a run's rows depend on."""
    from importlib.metadata import version

    import numpy
    import pandas
    import pyarrow

    return {
        "spidersolve": __version__,
        "code": code_revision(),
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "numba": version("numba"),  # without importing it (search/native.py)
        "pandas": pandas.__version__,
        "pyarrow": pyarrow.__version__,
        "platform": platform.platform(),
    }


def chunk_size_for(todo: int, slots: int) -> int:
    """Small enough to spread over the workers and to lose little on a kill."""
    return max(1, min(8, math.ceil(todo / (slots * 8)))) if todo else 1


def run_batch(
    tasks: list[Task],
    out,
    backend=None,
    *,
    chunk: int | None = None,
    settings_meta: dict | None = None,
    solver: Callable | None = None,
    on_start: Callable[[int, int], None] | None = None,
    on_chunk: Callable[[list[dict]], None] | None = None,
    repair: bool = False,
    on_damaged: Callable[[Path], None] | None = None,
    mixed: bool = False,
) -> BatchReport:
    """Solve every task not yet in the store at ``out``; write part files as chunks finish.

    Parameters
    ----------
    tasks : the plan (see :func:`spidersolve.stats.plan.plan`).
    out : the results directory; created if needed.
    backend : ``InlineBackend()`` (default), ``PoolBackend(n)`` or ``DaskBackend(address)``.
    chunk : deals per chunk; by default from the number of tasks and workers.
    settings_meta : the run's settings, stored in every file's metadata.
    solver : a picklable function like ``spidersolve.search.solve`` (the default).
    on_start : called with (tasks planned, tasks already done) before solving.
    on_chunk : called with each finished chunk's rows after they are written.
    repair : first set aside (rename to ``NAME.damaged``) every results file
        that cannot be read, so that its deals are solved again; without it a
        damaged file is an error.
    on_damaged : called with the new name of each file set aside.
    mixed : add rows to results made by another version of the code
        (``spidersolve.revision``); without it that is an error, since the
        results would mix two searches.

    Returns
    -------
    BatchReport
        Counts of this run; the rows are in the store (``load_results(out)``).
    """
    started = time.perf_counter()
    store = ResultStore(out)
    store.check_out()
    wanted = sorted(set(tasks))
    todo = wanted if repair else _not_done(store, wanted)
    report = BatchReport(planned=len(wanted), skipped=len(wanted) - len(todo), out=str(store.path))
    if todo and not mixed:  # before anything is locked, set aside or written
        _check_versions(store, damaged_too=False)
    if not todo and not store.parts():
        # finished already: nothing is written (the directory may be read-only)
        if on_start:
            on_start(report.planned, report.skipped)
        report.seconds = time.perf_counter() - started
        return report
    # the code's revision (a third of a CPU-second; the version check above may have
    # computed it) before any worker starts or a file is locked: a Ctrl-C during it
    # stops the batch at once. A finished run never needs it.
    row_version()
    backend = backend or InlineBackend()
    # the backend first: a scheduler that cannot be reached is said before the
    # results folder is made or locked
    with backend:
        store.open_for_writing()  # the writer's lock; another writer is an error
        try:
            if repair:
                for path in store.set_aside_damaged():
                    report.damaged.append(str(path))
                    if on_damaged:
                        on_damaged(path)
            todo = _not_done(store, wanted)  # again, under the lock
            report.skipped = len(wanted) - len(todo)
            if todo and not mixed:  # again, under the lock
                _check_versions(store)
            if on_start:
                on_start(report.planned, report.skipped)
            report.run = new_run(settings_meta, backend.name)
            if todo:
                _solve_chunks(store, todo, backend, report, chunk, solver, on_chunk, mixed)
            store.compact()
        finally:
            store.close()
    report.seconds = time.perf_counter() - started
    return report


def new_run(settings_meta: dict | None, backend_name: str) -> dict:
    """The metadata of a run that starts now, stored with every file it writes."""
    return {
        "run_id": time.strftime("%Y%m%dT%H%M%S", time.gmtime()) + "-" + uuid.uuid4().hex[:8],
        "started": utc_now(),
        "settings": dict(settings_meta or {}),
        "versions": versions(),
        "backend": backend_name,
    }


def _solve_chunks(
    store: ResultStore,
    todo: list[Task],
    backend,
    report: BatchReport,
    chunk: int | None,
    solver: Callable | None,
    on_chunk: Callable[[list[dict]], None] | None,
    mixed: bool = False,
) -> None:
    """Solve ``todo`` on ``backend`` (entered); write and count each chunk as it finishes.

    Unless ``mixed``, a chunk whose rows another version of the code made (a
    worker with other files: a Dask worker, a process started afresh) is an
    error, and is not written.
    """
    run = report.run
    size = chunk or chunk_size_for(len(todo), backend.slots)
    run["settings"]["chunk"] = size
    chunks = [todo[i : i + size] for i in range(0, len(todo), size)]
    extra = {"solver": solver} if solver is not None else {}
    for seq, rows in enumerate(backend.map(solve_chunk, chunks, **extra)):
        # this run's workers: an unknown revision here is known no better there
        others = None if mixed else _other_versions((r["version"] for r in rows), True)
        if others:
            raise ResultsError(
                f"a worker runs another version of the code ({others[1]}; this is "
                f"{others[2]}): its rows are not kept; give every worker this "
                "spidersolve, or --mixed-versions to keep them anyway"
            )
        store.write_part(rows, run, seq)
        report.count(rows)
        if on_chunk:
            on_chunk(rows)
        raise_lost()  # a Ctrl-C that came during a finalizer: the written chunks stand


# -- what the runs planned -----------------------------------------------------


def _not_done(store: ResultStore, tasks: list[Task]) -> list[Task]:
    """The tasks whose key is not in the store yet."""
    if not store.exists():
        return list(tasks)
    done = _keys(store.load())  # once: a resumed run of 32,000 tasks read it per task
    return [t for t in tasks if t.key not in done]


def _check_versions(store: ResultStore, damaged_too: bool = True) -> None:
    """Refuse to add rows of this code to rows made by another (``mixed`` allows it).

    ``damaged_too`` False: files that cannot be read are passed over (``--repair``
    sets them aside later). Code of an unknown revision matches no row.
    """
    versions = []
    for path in store.files():
        try:
            versions.extend(read_file(path)[0]["version"])
        except _Vanished:  # compacted meanwhile: its rows are in another file
            continue
        except ResultsError:
            if damaged_too:
                raise
    others = _other_versions(versions)
    if others:
        count, listed, here = others
        raise ResultsError(
            f"--out '{shown_path(store.path)}': {plural(count, 'row')} of it "
            f"{'was' if count == 1 else 'were'} made by another version of the code "
            f"({listed}; this is {here}), so its rows would come from two searches: "
            "choose another --out, or give --mixed-versions to add to it anyway"
        )


def _other_versions(versions, unknown_matches: bool = False) -> tuple[int, str, str] | None:
    """(how many, which, this code's) of ``versions`` are not this code's
    ``row_version()``; None if all are. Code of an unknown revision matches no
    row but, with ``unknown_matches``, the rows of the same unknown version."""
    here = row_version()
    unknown = here.endswith("+" + UNKNOWN) and not unknown_matches
    others = [str(v) for v in versions if unknown or v != here]
    if not others:
        return None
    return len(others), ", ".join(sorted(set(others))), here


def _row_keys(frame):
    """The key of each row, in order (``store.KEY``, as ``Task.key`` gives it)."""
    return zip(
        frame["source"],
        frame["code"],
        frame["node_limit"].astype(int),
        frame["player"],
        frame["samples"].astype(int),
        frame["seed"].astype(int),
        frame["search"],
    )


def _keys(frame) -> set:
    """The key of every row."""
    return set(_row_keys(frame))


def row_verdicts(frame) -> dict:
    """The verdict of every row, by its key (``store.KEY``, as ``Task.key`` gives it)."""
    if frame.empty:
        return {}
    return dict(zip(_row_keys(frame), frame["verdict"]))


def retry_plan(out, tasks: list[Task], budget) -> RetryPlan:
    """The tasks of ``batch --retry``: those of ``tasks`` left unknown in ``out``, at ``budget``.

    ``budget``: a node limit or a ``plan.Rung`` (a limit and a search). Also
    the tasks that have no row in ``out`` (see :func:`plan.retry_tasks`).
    """
    store = ResultStore(out)
    frame = store.load() if store.exists() else None
    return retry_tasks(tasks, row_verdicts(frame) if frame is not None else {}, budget)


def planned_keys(runs: list[dict], frame=None) -> set | None:
    """The keys (``store.KEY``) the runs set out to solve or play, from their metadata.

    None when some run's settings do not say (files not written by ``batch``).
    Runs from before the honest player were the solver's. A ``--retry`` run
    (``retry_from`` in its settings) planned the deals that ``frame`` holds as
    unknown at the smaller limit; without ``frame`` its plan is not known.
    """
    verdicts = row_verdicts(frame) if frame is not None else None
    keys = set()
    for run in runs:
        meta = run.get("settings") or {}
        try:
            source = meta["source"]
            player = meta.get("player") or "solver"
            if player == "honest":
                from ..search.honest import HONEST_NODES

                samples, seed = int(meta["samples"]), int(meta["seed"])
                given = meta["node_limit"]
                limits = {
                    s: int(given) if given is not None else HONEST_NODES[s] for s in (1, 2, 4)
                }
            elif player == "solver":
                samples = seed = 0
                limits = dict.fromkeys((1, 2, 4), int(meta["node_limit"]))
            else:
                return None
            ranges = deal_ranges(meta["deals"])
            if deal_count(ranges) > MAX_TASKS:  # more than a run plans: not a batch's
                return None
            deals = deal_numbers(ranges)
            chosen = [
                Setting(source, int(text.split()[0]), text.split()[1]) for text in meta["settings"]
            ]
            search = str(meta.get("search") or DEFAULT_SEARCH)
            base_search = search
            if meta.get("retry_from") is not None:
                if player != "solver" or verdicts is None:
                    return None
                limits = dict.fromkeys((1, 2, 4), int(meta["retry_from"]))
                base_search = str(meta.get("retry_from_search") or DEFAULT_SEARCH)
            tasks = [
                Task(
                    player,
                    samples,
                    seed,
                    s.source,
                    s.suits,
                    s.rules,
                    limits[s.suits],
                    d,
                    base_search,
                )
                for s in chosen
                for d in deals
            ]
            if meta.get("retry_from") is not None:
                tasks = retry_tasks(tasks, verdicts, int(meta["node_limit"]), search).again
            keys.update(t.key for t in tasks)
        except (KeyError, ValueError, TypeError, IndexError, AttributeError):
            return None
    return keys


def missing_count(frame, runs: list[dict]) -> tuple[int, int, int] | None:
    """(deals planned by the runs, how many of them lack a planned row, how many of
    those have no row at all), or None if unknown.

    A deal retried at a larger limit or with another search (``--retry``) is
    planned once per rung, but counted once: it lacks a row if any of its
    planned rows is missing. One that has its first row but not all its
    retries' is a stopped ladder's, not an interrupted first run's.
    """
    keys = planned_keys(runs, frame)
    if not keys:
        return None
    deal = [i for i, name in enumerate(KEY) if name not in ("node_limit", "search")]

    def deals(some) -> set:
        return {tuple(k[i] for i in deal) for k in some}

    have = _keys(frame)
    lacking = deals(keys - have)
    return len(deals(keys)), len(lacking), len(lacking - deals(have))


def report_dict(report: BatchReport) -> dict:
    """The report as a plain dict (for JSON)."""
    return asdict(report)
