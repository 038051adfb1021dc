"""Where a batch run's chunks are solved; every backend gives the same rows.

The rows differ only in the ``seconds`` and ``time`` columns:

- ``InlineBackend``: this process, one deal after another (``--workers 1``);
- ``PoolBackend``: a pool of worker processes started with ``spawn``;
- ``DaskBackend``: a Dask distributed cluster, through ``distributed.Client``.

A backend is a context manager with a ``name``, a number of ``slots`` (the
chunks it solves at once) and ``map(fn, chunks, **kwargs)``, which yields
``fn(chunk, **kwargs)`` for every chunk as it finishes, in any order.

>>> with InlineBackend() as backend:
...     list(backend.map(len, [[1, 2], [3]]))
[2, 1]
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager

from ..errors import SpiderError, shown


class InlineBackend:
    """Solve in this process, chunk after chunk."""

    name = "inline"
    slots = 1

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def map(self, fn, chunks, **kwargs) -> Iterator[list[dict]]:
        """``fn(chunk, **kwargs)`` for every chunk, as each one finishes."""
        for chunk in chunks:
            yield fn(chunk, **kwargs)


def _exit_with_parent(parent_pid: int) -> None:
    """Worker initializer: end this worker when the batch process dies, and
    leave Ctrl-C to the batch process.

    A batch killed with ``kill -9`` cannot stop its workers, and a worker
    deep in a numba search holds the GIL for a long time. On Linux the kernel
    sends the worker SIGKILL when its parent dies (PR_SET_PDEATHSIG); a
    thread that polls the parent id covers other systems between deals.

    Ctrl-C in a terminal signals every process of the batch. A worker is
    started with SIGINT blocked (``PoolBackend.map``), so one that is still
    starting Python or importing cannot print a traceback; here it ignores
    SIGINT for good, and the batch process, which stops on it, ends the
    workers.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # a pending one is dropped
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


@contextmanager
def _sigint_blocked():
    """SIGINT blocked in this thread (where the signal mask can be set) while
    inside: processes started meanwhile begin with it blocked too.

    In the main thread a SIGINT or SIGTERM that comes meanwhile also waits
    until the end: the mask holds this thread only, and Python runs its
    handlers in the main thread whichever thread the system gave the signal
    to, so an interrupt could stop the pool half-way through writing a new
    worker's start-up data, and the worker printed ``EOFError: Ran out of
    input`` beside the batch's one line (seen in ``tests/test_robustness.py``).
    """
    deferred: list = []
    saved = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            saved[sig] = signal.signal(sig, lambda signum, _frame: deferred.append(signum))
    masked = hasattr(signal, "pthread_sigmask")
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if masked else None
    try:
        yield
    finally:
        if masked:
            signal.pthread_sigmask(signal.SIG_SETMASK, before)
        for sig, handler in saved.items():
            signal.signal(sig, handler)
        if deferred:  # now, to the handler it would have met
            signal.raise_signal(deferred[0])


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
        self._pool = ProcessPoolExecutor(
            max_workers=self.slots,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_exit_with_parent,
            initargs=(os.getpid(),),
        )
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
        """``fn(chunk, **kwargs)`` for every chunk, as each one finishes."""
        # submit starts the workers: they inherit SIGINT blocked (see _exit_with_parent),
        # and a Ctrl-C meanwhile reaches this process once it is unblocked
        with _sigint_blocked():
            futures = [self._pool.submit(fn, chunk, **kwargs) for chunk in chunks]
        try:
            for future in as_completed(futures):
                yield future.result()
        except BrokenProcessPool as err:
            raise SpiderError(
                f"a worker process died ({err}); the chunks finished are "
                "saved: run the same command again to go on"
            ) from None


class DaskBackend:
    """A Dask distributed cluster at ``address`` (or a ``distributed.Client``).

    Every worker needs spidersolve installed, the same version.
    """

    name = "dask"

    def __init__(self, address=None, client=None):
        if client is None:  # said at once, before a batch touches its results folder
            check_scheduler(address)
        self.address = address
        self._given = client
        self._client = None
        self.slots = 1

    def __enter__(self):
        from distributed import Client

        if self._given is not None:
            self._client = self._given
        else:
            problem = None
            try:
                self._client = Client(self.address, timeout="20s")
            except (OSError, TimeoutError) as err:
                problem = f"cannot reach the Dask scheduler at '{self.address}': {err}"
            except (ValueError, TypeError) as err:  # distributed's word for a bad address
                problem = (
                    f"'{self.address}' is not a Dask scheduler address like tcp://HOST:8786: {err}"
                )
            except Exception:  # a server that is not Dask: its bytes read as Dask's
                # (a length: MemoryError; a frame: struct.error; ...)
                problem = f"what answers at '{self.address}' is not a Dask scheduler"
            if problem:
                # A Client whose constructor failed is closed by its __del__ at
                # some later garbage collection. Should that fall inside the
                # start of another Client of this process, distributed waits on
                # its own lock for ever. So it is collected here, now.
                gc.collect()
                raise SpiderError(f"--scheduler: {problem}")
        self.slots = max(1, sum(self._client.nthreads().values()))
        return self

    def __exit__(self, *exc):
        if self._given is None and self._client is not None:
            self._client.close()
        return False

    def map(self, fn, chunks, **kwargs) -> Iterator[list[dict]]:
        """``fn(chunk, **kwargs)`` for every chunk, as each one finishes."""
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


def check_scheduler(address) -> None:
    """Raise SpiderError, at once, for an address no batch can use (``address_problem``)
    or when nothing listens at a TCP scheduler address."""
    problem = address_problem(address)
    if problem:
        raise SpiderError(f"--scheduler: {problem}")
    refused = _refused(address)
    if refused:
        raise SpiderError(f"--scheduler: cannot reach the Dask scheduler at '{address}': {refused}")


# the ways a batch in another process can reach a scheduler (distributed's
# inproc:// is within one process: only this one's are taken; ucx:// needs a
# package a batch does not have)
SCHEDULER_SCHEMES = ("tcp", "tls", "ws", "wss")


def address_problem(address) -> str | None:
    """Why ``address`` cannot name a scheduler a batch reaches, or None.

    >>> address_problem("tcp://127.0.0.1:8786") is None, address_problem("localhost") is None
    (True, True)
    >>> address_problem("tcp://127.0.0.1:99999")
    "'tcp://127.0.0.1:99999': its port is not a number 1..65535"
    >>> address_problem("inproc://x")
    "'inproc://x' is not a Dask scheduler address a batch can reach: use tcp://HOST:8786"
    """
    import ipaddress
    from urllib.parse import urlsplit

    text = str(address)
    like = "use tcp://HOST:8786"
    scheme = text.split("://", 1)[0].lower() if "://" in text else "tcp"
    if scheme == "inproc":  # inproc://HOST/PID/N: a cluster within this very process
        fields = text.split("://", 1)[1].split("/")
        if len(fields) == 3 and fields[1] == str(os.getpid()) and fields[2].isdigit():
            return None
    if scheme not in SCHEDULER_SCHEMES:
        return f"'{shown(text)}' is not a Dask scheduler address a batch can reach: {like}"
    try:
        parts = urlsplit(text if "://" in text else f"tcp://{text}")
        port = parts.port
    except ValueError:
        return f"'{shown(text)}': its port is not a number 1..65535"
    if port == 0:
        return f"'{shown(text)}': its port is not a number 1..65535"
    host = parts.hostname
    if not host:
        return f"'{shown(text)}' names no host: {like}"
    if all(c.isdigit() or c == "." for c in host):
        try:
            ipaddress.IPv4Address(host)
        except ValueError:
            return f"'{shown(text)}': '{shown(host)}' is not an IPv4 address"
    return None


def _refused(address) -> str | None:
    """Why nothing listens at a ``tcp://HOST:PORT`` address, found at once (a
    ``distributed.Client`` retries a refused connection until its timeout);
    None if something answers, or for anything but a plain TCP address (Dask
    then says what is wrong)."""
    import socket
    from urllib.parse import urlsplit

    text = str(address)
    try:
        parts = urlsplit(text if "://" in text else f"tcp://{text}")
        host, port = parts.hostname, parts.port
    except ValueError:
        return None
    if parts.scheme != "tcp" or not host or port is None:
        return None
    try:
        socket.create_connection((host, port), timeout=5).close()
    except ConnectionRefusedError:
        return "connection refused (is the scheduler running?)"
    except OSError:
        return None
    return None
