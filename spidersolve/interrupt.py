"""Run a numba kernel so that Ctrl-C stops it within a fraction of a second.

Python handles a signal only in the main thread, between bytecodes, so a
kernel that runs for minutes in the main thread does not see Ctrl-C until it
returns. The kernels this module runs are compiled with ``nogil=True`` (the
compiled extension of ``search/native.py`` lets go of the lock too) and
take a stop flag (``int64[1]``) as their last argument, which they poll every
few thousand nodes. ``run_kernel`` calls the kernel in a worker thread while
the main thread waits on it; on ``KeyboardInterrupt`` the main thread sets the
flag, waits for the kernel to return (milliseconds) and raises again, so
nothing is left half-done behind the caller's back. Outside the main thread
(a Dask worker thread, a test runner's thread) no signal can arrive, and the
kernel is simply called.

``ThreadPool`` runs functions that call kernels on worker threads (the honest
advisor's sample searches, two at a time): its threads share one stop flag,
which every kernel they start through ``run_kernel`` takes; Ctrl-C in the
main thread, while it waits for their results, sets it, so every running
search stops within milliseconds and every search not yet started returns at
once, and the pool is shut down before ``KeyboardInterrupt`` goes on.

A signal that comes while the main thread runs a finalizer (a ``__del__``,
a weakref callback such as the one of a thread pool just dropped) raises
its ``KeyboardInterrupt`` there, and Python prints it as "Exception
ignored" and goes on as if nothing came. The command line keeps such an
interrupt (``errors.keep_lost_interrupts``), and the next search, thread
pool map or batch chunk raises it again (``errors.raise_lost``).

>>> import numpy as np
>>> run_kernel(lambda a, stop: a + int(stop[0]), 41)
41
"""

from __future__ import annotations

import threading
import time

import numpy as np

# defined in errors, which imports nothing: the command line catches it before numpy loads
from .errors import Terminated as Terminated
from .errors import raise_lost


def new_flag() -> np.ndarray:
    """A stop flag: one int64 cell, 0 until the kernel is asked to stop."""
    return np.zeros(1, np.int64)


_local = threading.local()  # .stop: the flag of the ThreadPool this thread works for
_helper_cpu = 0.0  # CPU seconds of the main thread's kernels on helper threads (thread_cpu)


def run_kernel(kernel, *args):
    """``kernel(*args, stop)``, stopped through ``stop`` on Ctrl-C.

    Returns what the kernel returns; re-raises ``KeyboardInterrupt`` once the
    kernel has stopped, and any exception the kernel raised. On a thread of
    a ``ThreadPool`` the flag is the pool's.
    """
    if threading.current_thread() is not threading.main_thread():
        shared = getattr(_local, "stop", None)
        return kernel(*args, new_flag() if shared is None else shared)
    global _helper_cpu
    raise_lost()
    stop = new_flag()
    box: dict = {}
    compiled, ended = threading.Event(), threading.Event()

    def target():
        started = time.thread_time()
        try:
            _compile(kernel, (*args, stop))
            compiled.set()
            if not stop[0]:  # Ctrl-C while it compiled: the caller has gone on
                box["value"] = kernel(*args, stop)
        except BaseException as err:  # handed to the caller's thread below
            box["error"] = err
        finally:
            box["cpu"] = time.thread_time() - started
            ended.set()

    worker = threading.Thread(target=target, name="spidersolve-kernel", daemon=True)
    worker.start()
    try:
        ended.wait()  # interruptible: the lock wait returns on a signal
    except KeyboardInterrupt:
        stop[0] = 1  # before compiled is read: the kernel runs only if this is seen too late
        if compiled.is_set():
            # running: it sees the flag within milliseconds. Not worker.join(): once a
            # join is interrupted, the next one can return at once (Python 3.11) while
            # the kernel still writes its results
            ended.wait()
        # else still compiling (a first run: seconds): the thread ends once it is
        # compiled, without running it, so nothing is written behind the caller's back
        raise
    finally:
        _helper_cpu += box.get("cpu", 0.0)
    if "error" in box:
        raise box["error"]
    raise_lost()
    return box["value"]


def _compile(kernel, args) -> None:
    """Compile a numba kernel for ``args`` (or load it from numba's cache) before it
    runs, so that ``run_kernel`` knows when it runs: a first run's compile takes
    seconds and cannot see the stop flag. Anything else (the compiled extension's
    kernels, a plain function, arguments numba cannot type here) is left to compile
    when it runs.
    """
    if not hasattr(kernel, "py_func") or not hasattr(kernel, "compile"):
        return
    from numba import typeof

    try:
        signature = tuple(typeof(arg) for arg in args)
    except Exception:  # noqa: BLE001 - numba types it when it runs
        return
    if signature in kernel.overloads:
        return
    kernel.compile(signature)


def thread_cpu() -> float:
    """CPU seconds of the calling thread, with those of the kernels it ran on helper threads.

    In the main thread ``run_kernel`` runs a kernel on a helper thread, whose
    CPU time ``time.thread_time()`` does not see; it is counted here, so a
    batch row's ``cpu_seconds`` is the search's whichever thread ran it.
    Compare two readings: only their difference means anything.
    """
    own = time.thread_time()
    return own + _helper_cpu if threading.current_thread() is threading.main_thread() else own


class ThreadPool:
    """``workers`` threads whose kernels all stop when the main thread is interrupted.

    ``map`` gives the results in the order of the items. An exception in the
    waiting thread (Ctrl-C, or one raised by a function) sets the pool's stop
    flag and cancels what has not started, so the threads end at once.

    >>> with ThreadPool(2) as pool:
    ...     pool.map(lambda x: x * x, [1, 2, 3])
    [1, 4, 9]
    """

    def __init__(self, workers: int):
        from concurrent.futures import ThreadPoolExecutor

        self.stop = new_flag()
        self._executor = ThreadPoolExecutor(
            max(1, workers), thread_name_prefix="spidersolve", initializer=self._join
        )

    def _join(self):
        _local.stop = self.stop

    def map(self, fn, items) -> list:
        futures = []
        try:
            raise_lost()
            for item in items:
                futures.append(self._executor.submit(fn, item))
            results = [future.result() for future in futures]  # interruptible waits
            raise_lost()
            return results
        except BaseException:
            self.stop[0] = 1
            for future in futures:
                future.cancel()
            raise

    def close(self) -> None:
        """Wait for the threads (quick once the flag is set) and end them."""
        try:
            self._executor.shutdown(wait=True, cancel_futures=True)
        except KeyboardInterrupt:  # a second Ctrl-C: the flag is set, the searches end
            self.stop[0] = 1
            self._executor.shutdown(wait=True, cancel_futures=True)
            raise

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
