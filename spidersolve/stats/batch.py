"""Batch runs: solve a range of deals under several settings, one row per deal.

The plan is a sorted list of tasks (player, samples, seed, source, suits,
rules, node limit, deal). Tasks already in the result store are skipped, the
rest are cut into chunks and sent to a backend; each finished chunk is
written as its own part file
(see :mod:`spidersolve.stats.store`), so a run can be killed and started
again at any moment and every deal ends up in the results exactly once.

Backends, all with the same results (bar the ``seconds`` and ``time`` columns):

- ``InlineBackend``: this process, one deal after another (``--workers 1``);
- ``PoolBackend``: a pool of worker processes started with ``spawn``;
- ``DaskBackend``: a Dask distributed cluster, through ``distributed.Client``.

>>> tasks = plan("code", [1], ["classic"], range(0, 4), nodes=2000)
>>> [t.code for t in tasks]
['SP1-S1C-AAAAAAA', 'SP1-S1C-AAAAAAB', 'SP1-S1C-AAAAAAC', 'SP1-S1C-AAAAAAD']
"""

from __future__ import annotations

import math
import multiprocessing
import os
import platform
import time
import uuid
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterable, Iterator

from .. import __version__
from ..errors import SpiderError
from ..state.codes import MAX_DEAL, RULES, GameCode, PysolDeal
from .store import PLAYERS, ResultStore

SOURCES = ("code", "pysol")
MAX_PYSOL = 10**20 - 1
MAX_STORED_DEAL = 2**63 - 1  # the results' deal column is int64
# The most tasks (deals x settings) one run plans: the plan is a list in
# memory (about 200 bytes a task) and a million deals take a day on 2 cores.
# A longer range is several runs into the same --out.
MAX_TASKS = 1_000_000


# -- arguments ---------------------------------------------------------------

def parse_suits(text: str) -> list[int]:
    """``"1,2,4"`` -> ``[1, 2, 4]``; anything but 1, 2 and 4 is an error."""
    out = []
    for token in _tokens(text, "--suits"):
        if token not in ("1", "2", "4"):
            raise SpiderError(f"--suits: '{token}' is not a suit count (1, 2 or 4)")
        if int(token) not in out:
            out.append(int(token))
    return sorted(out)


def parse_rules(text: str) -> list[str]:
    """``"classic,relaxed"`` -> ``["classic", "relaxed"]``."""
    out = []
    for token in _tokens(text, "--rules"):
        rules = token.lower()
        if rules not in RULES:
            raise SpiderError(f"--rules: '{token}' is not a rule variant (classic or relaxed)")
        if rules not in out:
            out.append(rules)
    return sorted(out)


def parse_deals(text: str) -> list[int]:
    """Deal numbers from ``"A:B"`` (A up to B-1), ``"N"`` or a comma list of both.

    >>> parse_deals("0:3,7")
    [0, 1, 2, 7]
    """
    ranges = []
    for token in _tokens(text, "--deals"):
        parts = token.split(":")
        if len(parts) not in (1, 2) or not all(p.strip().isascii() and p.strip().isdigit()
                                               for p in parts):
            raise SpiderError(f"--deals: '{token}' is not a deal number or a range A:B")
        bounds = [int(part) for part in parts]
        if len(bounds) == 1:
            ranges.append((bounds[0], bounds[0] + 1))
            continue
        start, stop = bounds
        if stop <= start:
            raise SpiderError(f"--deals: '{token}' is an empty range (A:B means deals A up "
                              "to B-1, so B must be above A)")
        ranges.append((start, stop))
    # counted before anything is built: a range of billions is refused, not planned
    total = sum(stop - start for start, stop in ranges)
    if total > MAX_TASKS:
        raise SpiderError(f"--deals: {total:,} deals is more than one run plans (at most "
                          f"{MAX_TASKS:,}); split the range into several runs into the same "
                          "--out")
    out: set[int] = set()
    for start, stop in ranges:
        out.update(range(start, stop))
    return sorted(out)


def _tokens(text: str, option: str) -> list[str]:
    tokens = [t.strip() for t in str(text).split(",") if t.strip()]
    if not tokens:
        raise SpiderError(f"{option}: nothing given")
    return tokens


@dataclass(frozen=True, order=True)
class Setting:
    """One game variant of a run: where the deals come from, suits and rules."""

    source: str
    suits: int
    rules: str


def settings(source: str, suits: Iterable[int], rules: Iterable[str]) -> list[Setting]:
    """The distinct settings; 1 suit relaxed is 1 suit classic, so it is kept once."""
    if source not in SOURCES:
        raise SpiderError(f"--source: '{source}' is not a deal source (code or pysol)")
    rules = list(rules)
    if source == "pysol" and "relaxed" in rules:
        raise SpiderError("--source pysol: PySolFC's Spider games use classic rules only")
    seen = {Setting(source, s, "classic" if s == 1 else r) for s in suits for r in rules}
    return sorted(seen)


@dataclass(frozen=True, order=True)
class Task:
    """One deal to solve (or to play, for the honest player). Sorts as the results table."""

    player: str
    samples: int
    seed: int
    source: str
    suits: int
    rules: str
    node_limit: int
    deal: int

    @property
    def code(self) -> str:
        if self.source == "pysol":
            return PysolDeal(self.suits, str(self.deal)).text()
        return GameCode(self.suits, self.rules, self.deal).text()

    @property
    def key(self) -> tuple:
        return (self.source, self.code, self.node_limit, self.player, self.samples, self.seed)

    def position(self):
        if self.source == "pysol":
            return PysolDeal.parse(self.code).position()
        return GameCode(self.suits, self.rules, self.deal).position()


def plan(source: str, suits: Iterable[int], rules: Iterable[str], deals: Iterable[int],
         nodes: int | None, player: str = "solver", samples: int = 0,
         seed: int = 0) -> list[Task]:
    """Every task of a run, sorted, after checking the deal numbers and the limit.

    ``player`` ``honest`` plays each deal with the honest player (SPEC 11):
    ``nodes`` is then its budget per sample search (None: by the number of
    suits), with ``samples`` per decision and ``seed``.
    """
    if player not in PLAYERS:
        raise SpiderError(f"--player: '{player}' is not a player (solver or honest)")
    if player == "solver":
        samples = seed = 0
        if nodes is None:
            raise SpiderError("--nodes: a node limit is needed")
    elif not 1 <= samples <= 10_000:
        raise SpiderError(f"--samples: 1 .. 10000, not {samples}")
    deals = sorted(set(deals))
    if not deals:
        raise SpiderError("--deals: no deals given")
    if nodes is not None and nodes < 1:
        raise SpiderError(f"--nodes: the node limit must be at least 1, not {nodes}")
    low, high = (1, MAX_PYSOL) if source == "pysol" else (0, MAX_DEAL)
    for deal in (deals[0], deals[-1]):
        if not low <= deal <= high:
            what = "PySolFC game numbers" if source == "pysol" else "deal numbers"
            raise SpiderError(f"--deals: {what} run from {low} to {high}, not {deal}")
    if deals[-1] > MAX_STORED_DEAL:
        raise SpiderError(f"--deals: PySolFC game {deals[-1]} is beyond what the results' "
                          f"deal column holds (a 64-bit integer, at most {MAX_STORED_DEAL}); "
                          f"solve such games one by one with 'spidersolve solve "
                          f"pysol:{min(suits)}:{deals[-1]}'")
    chosen = settings(source, suits, rules)
    if len(deals) * len(chosen) > MAX_TASKS:
        raise SpiderError(f"--deals: {len(deals):,} deals x {len(chosen)} settings is "
                          f"{len(deals) * len(chosen):,} tasks, more than one run plans (at "
                          f"most {MAX_TASKS:,}); split the range into several runs into the "
                          "same --out")
    if player == "honest":
        from ..search.honest import HONEST_NODES

        return sorted(Task(player, samples, seed, s.source, s.suits, s.rules,
                           nodes or HONEST_NODES[s.suits], d)
                      for s in chosen for d in deals)
    return sorted(Task(player, 0, 0, s.source, s.suits, s.rules, nodes, d)
                  for s in chosen for d in deals)


# -- solving -----------------------------------------------------------------

def _default_solver():
    from ..search import solve
    return solve


def utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


def solve_task(task: Task, solver: Callable | None = None) -> dict:
    """Solve one deal (or play it, for the honest player) and return its result row."""
    if task.player == "honest":
        return play_task(task)
    solve = solver or _default_solver()
    result = solve(task.position(), nodes=task.node_limit)
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
        "version": __version__,
        "time": utc_now(),
        "player": "solver", "samples": 0, "seed": 0,
    }


def play_task(task: Task) -> dict:
    """Play one deal with the honest player; its row (``verdict`` is the game's result).

    The line played is replayed with the reference rules before it is kept.
    """
    from ..search.honest_game import play_honest
    from ..search.verify import verify_line
    from ..state import Game

    position = task.position()
    result = play_honest(position, samples=task.samples, seed=task.seed,
                         nodes=task.node_limit)
    verify_line(Game.start(position), result.line, result.result == "won")
    return {
        "source": task.source, "code": task.code, "suits": task.suits, "rules": task.rules,
        "deal": task.deal, "node_limit": task.node_limit, "verdict": result.result,
        "nodes": int(result.nodes), "seconds": float(result.seconds),
        "moves": int(result.moves), "score": int(result.score),
        "first_action": result.line[0].text() if result.line else None,
        "line": result.line_text, "version": __version__, "time": utc_now(),
        "player": "honest", "samples": task.samples, "seed": task.seed,
    }


def solve_chunk(tasks: list[Task], solver: Callable | None = None) -> list[dict]:
    """Solve a chunk of deals (the unit of work sent to a backend)."""
    return [solve_task(task, solver) for task in tasks]


# -- backends ------------------------------------------------------------------

class InlineBackend:
    """Solve in this process, chunk after chunk."""

    name = "inline"
    slots = 1

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def map(self, fn, chunks, **kwargs) -> Iterator[list[dict]]:
        for chunk in chunks:
            yield fn(chunk, **kwargs)


def _exit_with_parent(parent_pid: int) -> None:
    """Worker initializer: end this worker when the batch process dies.

    A batch killed with ``kill -9`` cannot stop its workers, and a worker
    deep in a numba search holds the GIL for a long time. On Linux the kernel
    sends the worker SIGKILL when its parent dies (PR_SET_PDEATHSIG); a
    thread that polls the parent id covers other systems between deals.
    """
    import signal
    import threading

    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # 1 = PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass

    def watch():
        while os.getppid() == parent_pid:
            time.sleep(1.0)
        os._exit(1)

    if os.getppid() != parent_pid:
        os._exit(1)
    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


class PoolBackend:
    """A pool of worker processes; results come back as chunks finish.

    Workers are started with ``spawn``, so nothing depends on state forked
    from the parent (numba and threads do not survive a fork well).
    """

    name = "processes"

    def __init__(self, workers: int):
        if workers < 1:
            raise SpiderError(f"--workers: at least 1 worker, not {workers}")
        self.slots = workers
        self._pool = None

    def __enter__(self):
        self._pool = ProcessPoolExecutor(max_workers=self.slots,
                                         mp_context=multiprocessing.get_context("spawn"),
                                         initializer=_exit_with_parent,
                                         initargs=(os.getpid(),))
        return self

    def __exit__(self, exc_type, *exc):
        # On an error or ^C, do not wait for chunks that have not started, nor
        # for those that have: their rows are not written (the batch process
        # writes them), so ending the workers loses nothing but their work.
        if exc_type is not None:
            for process in list((getattr(self._pool, "_processes", None) or {}).values()):
                process.terminate()
        self._pool.shutdown(wait=exc_type is None, cancel_futures=True)
        return False

    def map(self, fn, chunks, **kwargs) -> Iterator[list[dict]]:
        futures = [self._pool.submit(fn, chunk, **kwargs) for chunk in chunks]
        try:
            for future in as_completed(futures):
                yield future.result()
        except BrokenProcessPool as err:
            raise SpiderError(f"a worker process died ({err}); the chunks finished are "
                              "saved: run the same command again to go on") from None


class DaskBackend:
    """A Dask distributed cluster at ``address`` (or a ``distributed.Client``).

    Every worker needs spidersolve installed, the same version.
    """

    name = "dask"

    def __init__(self, address=None, client=None):
        self.address = address
        self._given = client
        self._client = None
        self.slots = 1

    def __enter__(self):
        from distributed import Client

        if self._given is not None:
            self._client = self._given
        else:
            try:
                self._client = Client(self.address, timeout="20s")
            except (OSError, TimeoutError) as err:
                raise SpiderError(f"--scheduler: cannot reach the Dask scheduler at "
                                  f"'{self.address}': {err}") from None
            except (ValueError, TypeError) as err:  # distributed's word for a bad address
                raise SpiderError(f"--scheduler: '{self.address}' is not a Dask scheduler "
                                  f"address like tcp://HOST:8786: {err}") from None
        self.slots = max(1, sum(self._client.nthreads().values()))
        return self

    def __exit__(self, *exc):
        if self._given is None and self._client is not None:
            self._client.close()
        return False

    def map(self, fn, chunks, **kwargs) -> Iterator[list[dict]]:
        from distributed import as_completed as dask_completed

        chunks = list(chunks)
        if not chunks:
            return
        futures = self._client.map(fn, chunks, pure=False, **kwargs)
        try:
            for future in dask_completed(futures):
                yield future.result()
        finally:
            self._client.cancel(futures)


def make_backend(workers: int | None = None, scheduler: str | None = None):
    """The backend a run asks for: Dask with a scheduler, else processes or inline."""
    if scheduler:
        return DaskBackend(scheduler)
    if workers is None:
        workers = os.cpu_count() or 1
    if workers < 1:
        raise SpiderError(f"--workers: at least 1 worker, not {workers}")
    return InlineBackend() if workers == 1 else PoolBackend(workers)


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


def versions() -> dict:
    import numba
    import numpy
    import pandas
    import pyarrow

    return {"spidersolve": __version__, "python": platform.python_version(),
            "numpy": numpy.__version__, "numba": numba.__version__,
            "pandas": pandas.__version__, "pyarrow": pyarrow.__version__,
            "platform": platform.platform()}


def chunk_size_for(todo: int, slots: int) -> int:
    """Small enough to spread over the workers and to lose little on a kill."""
    return max(1, min(8, math.ceil(todo / (slots * 8)))) if todo else 1


def run_batch(tasks: list[Task], out, backend=None, *, chunk: int | None = None,
              settings_meta: dict | None = None, solver: Callable | None = None,
              on_start: Callable[[int, int], None] | None = None,
              on_chunk: Callable[[list[dict]], None] | None = None,
              repair: bool = False,
              on_damaged: Callable[[Path], None] | None = None) -> BatchReport:
    """Solve every task not yet in the store at ``out``; write part files as chunks finish.

    Parameters
    ----------
    tasks : the plan (see :func:`plan`).
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
    report = BatchReport(planned=len(wanted), skipped=len(wanted) - len(todo),
                         out=str(store.path))
    if not todo and not store.parts():
        # finished already: nothing is written (the directory may be read-only)
        if on_start:
            on_start(report.planned, report.skipped)
        report.seconds = time.perf_counter() - started
        return report
    store.open_for_writing()  # the writer's lock; another writer is an error
    try:
        if repair:
            for path in store.set_aside_damaged():
                report.damaged.append(str(path))
                if on_damaged:
                    on_damaged(path)
        todo = _not_done(store, wanted)  # again, under the lock
        report.skipped = len(wanted) - len(todo)
        if on_start:
            on_start(report.planned, report.skipped)
        backend = backend or InlineBackend()
        run = {"run_id": time.strftime("%Y%m%dT%H%M%S", time.gmtime()) + "-"
               + uuid.uuid4().hex[:8], "started": utc_now(),
               "settings": dict(settings_meta or {}), "versions": versions(),
               "backend": backend.name}
        report.run = run
        if todo:
            with backend:
                size = chunk or chunk_size_for(len(todo), backend.slots)
                run["settings"]["chunk"] = size
                chunks = [todo[i:i + size] for i in range(0, len(todo), size)]
                extra = {"solver": solver} if solver is not None else {}
                for seq, rows in enumerate(backend.map(solve_chunk, chunks, **extra)):
                    store.write_part(rows, run, seq)
                    for row in rows:
                        report.solved += 1
                        setattr(report, row["verdict"], getattr(report, row["verdict"]) + 1)
                    if on_chunk:
                        on_chunk(rows)
        store.compact()
    finally:
        store.close()
    report.seconds = time.perf_counter() - started
    return report


def _not_done(store: ResultStore, tasks: list[Task]) -> list[Task]:
    """The tasks whose key is not in the store yet."""
    if not store.exists():
        return list(tasks)
    return [t for t in tasks if t.key not in _keys(store.load())]


def _keys(frame) -> set:
    """The key of every row (``store.KEY``, as ``Task.key`` gives it)."""
    return set(zip(frame["source"], frame["code"], frame["node_limit"].astype(int),
                   frame["player"], frame["samples"].astype(int), frame["seed"].astype(int)))


def planned_keys(runs: list[dict]) -> set | None:
    """The keys (``store.KEY``) the runs set out to solve or play, from their metadata.

    None when some run's settings do not say (files not written by ``batch``).
    Runs from before the honest player were the solver's.
    """
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
                limits = {s: int(given) if given is not None else HONEST_NODES[s]
                          for s in (1, 2, 4)}
            elif player == "solver":
                samples = seed = 0
                limits = dict.fromkeys((1, 2, 4), int(meta["node_limit"]))
            else:
                return None
            deals = parse_deals(meta["deals"])
            chosen = [Setting(source, int(text.split()[0]), text.split()[1])
                      for text in meta["settings"]]
            tasks = [Task(player, samples, seed, s.source, s.suits, s.rules, limits[s.suits], d)
                     for s in chosen for d in deals]
            keys.update(t.key for t in tasks)
        except (KeyError, ValueError, TypeError, IndexError, AttributeError):
            return None
    return keys


def missing_count(frame, runs: list[dict]) -> tuple[int, int] | None:
    """(deals planned by the runs, how many of them have no row), or None if unknown."""
    keys = planned_keys(runs)
    if not keys:
        return None
    return len(keys), len(keys - _keys(frame))


def report_dict(report: BatchReport) -> dict:
    return asdict(report)
