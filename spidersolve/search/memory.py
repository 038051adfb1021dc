"""The memory a search needs, checked before it starts.

A search keeps every position it expands (112 bytes packed, its entry and
depth) and, for every distinct position it generates, its parent, action,
128-bit hash, a slot of the transposition table and one heap key per
heuristic row; the arrays double when full. Measured peak resident size
above the loaded process (``benchmarks``-style runs of 100,000 to
2,000,000 nodes, 2026-12-01): 0.26-0.38 KB a node for SP1-S4C-AAAAAFS after
three deals (2-3.5 positions generated a node), 0.96 KB from its start (8.4
a node), 1.2 KB for Relaxed four-suit deals (12 a node). A node limit is
therefore budgeted at ``BYTES_PER_NODE`` = 1.5 KB, plus ``BASE_BYTES`` for
the process itself (numpy, numba and the kernels: 190 MB measured).

>>> needed_bytes(1_000_000) // 10**6
1745
>>> parse_size("4G")
4294967296
"""

from __future__ import annotations

import os

from ..errors import SpiderError

BYTES_PER_NODE = 1536
BASE_BYTES = 200 * 2**20
_UNITS = {
    "": 1,
    "B": 1,
    "K": 2**10,
    "KB": 2**10,
    "KIB": 2**10,
    "M": 2**20,
    "MB": 2**20,
    "MIB": 2**20,
    "G": 2**30,
    "GB": 2**30,
    "GIB": 2**30,
    "T": 2**40,
    "TB": 2**40,
    "TIB": 2**40,
}
NODE_COST_TEXT = "a node costs up to 1.5 KB of memory"


def needed_bytes(nodes: int, processes: int = 1, search_memory: int | None = None) -> int:
    """The most memory ``processes`` searches of ``nodes`` nodes each may take.

    ``search_memory``: each search's arrays are capped at that many bytes
    (``solve(..., memory=...)``, ``batch --search-memory``), so a search
    takes no more than the process and the cap, whatever its node limit.

    >>> needed_bytes(10**9, search_memory=2**30) // 2**20
    1224
    """
    one = BASE_BYTES + BYTES_PER_NODE * int(nodes)
    if search_memory is not None:
        one = min(one, BASE_BYTES + int(search_memory))
    return processes * one


def _meminfo_bytes(field: str, pages: str) -> int | None:
    """Linux ``/proc/meminfo``'s ``field`` in bytes, else ``sysconf(pages)`` pages, else None."""
    try:
        with open("/proc/meminfo", encoding="ascii") as handle:
            for line in handle:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf(pages) * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def available_bytes() -> int | None:
    """Memory available for new work (Linux ``MemAvailable``), or None if unknown."""
    return _meminfo_bytes("MemAvailable", "SC_AVPHYS_PAGES")


def total_bytes() -> int | None:
    """This machine's memory (Linux ``MemTotal``), or None if unknown."""
    return _meminfo_bytes("MemTotal", "SC_PHYS_PAGES")


def parse_size(text: str, option: str = "--memory") -> int:
    """``"4G"``, ``"500MB"``, ``"1.5GiB"`` or a number of bytes -> bytes (units of 1024)."""
    raw = str(text).strip().upper().replace("_", "")
    number = raw.rstrip("KMGTIB")
    unit = raw[len(number) :]
    try:
        value = float(number)
    except ValueError:
        value = float("nan")
    if unit not in _UNITS or not value == value or not 0 < value < float("inf"):
        raise SpiderError(
            f"{option}: '{text}' is not a memory size (like 4G, 500M or a number of bytes)"
        )
    if value * _UNITS[unit] >= 2**60:
        raise SpiderError(f"{option}: '{text}' is more than any machine's memory (1 EB or more)")
    size = int(value * _UNITS[unit])
    if size < 1:
        raise SpiderError(f"{option}: '{text}' is less than a byte")
    return size


def size_text(n: int) -> str:
    """A size in bytes as people write it: ``1.5 GB``, ``500 MB``, ``1 KB``, ``12 bytes``."""
    if n >= 2**30:
        return f"{n / 2**30:,.1f} GB"
    if n >= 2**20:
        return f"{n / 2**20:.0f} MB"
    if n >= 2**10:
        return f"{n / 2**10:.0f} KB"
    return "1 byte" if n == 1 else f"{n} bytes"


def check_memory(
    nodes: int,
    cap: int | None = None,
    processes: int = 1,
    option: str = "--nodes",
    memory_option: bool = True,
    threads: bool = False,
    search_memory: int | None = None,
    cap_option: bool = False,
    subject: str | None = None,
) -> None:
    """Refuse a node limit whose searches may need more than ``cap`` bytes.

    ``cap`` defaults to the memory available now; with neither, nothing is
    checked. The error is one line that says the estimate and what to do.
    ``threads``: the ``processes`` searches run side by side on threads of
    one process (the honest advisor), not as ``--workers``. ``search_memory``
    caps each search (see ``needed_bytes``); ``cap_option``: the command has
    ``--search-memory``, so the error names it. ``subject``: what the search
    is, when no option can lower its ``nodes`` (the error then says so).
    """
    limit = cap if cap is not None else available_bytes()
    if limit is None:
        return
    shared = (processes - 1) * BASE_BYTES if threads else 0  # threads share one process
    need = needed_bytes(nodes, processes, search_memory) - shared
    if need <= limit:
        return
    where = (
        "the --memory cap of " + size_text(limit)
        if cap is not None
        else size_text(limit) + " of memory available"
    )
    floor = needed_bytes(0, processes) - shared
    if floor > limit:  # no node limit fits: the processes alone need more
        raise SpiderError(
            f"any search needs at least {size_text(floor)} (the process itself"
            + (f", {processes} of them" if processes > 1 and not threads else "")
            + f"), more than {where}"
            + (": raise --memory" if cap is not None else "")
            + (" or lower --workers" if processes > 1 and not threads else "")
        )
    if search_memory is not None and need < needed_bytes(nodes, processes) - shared:
        raise SpiderError(
            f"--search-memory {size_text(search_memory)} and the process itself "
            f"({size_text(BASE_BYTES)}) need {size_text(need)}, more than {where}"
            ": lower --search-memory"
        )
    who = (
        ""
        if processes == 1
        else f" with {processes} searches side by side"
        if threads
        else f" with {processes} worker processes"
    )
    more = "more than"
    if size_text(need) == size_text(limit):  # rounded alike: say by how much it is over
        more = f"{need - limit:,} bytes more than"
    if subject is not None:
        raise SpiderError(
            f"{subject} ({nodes} nodes) may need {size_text(need)} ({NODE_COST_TEXT}), "
            f"{more} {where}: raise --memory"
        )
    raise SpiderError(
        f"{option} {nodes}{who} may need {size_text(need)} "
        f"({NODE_COST_TEXT}), {more} {where}: lower {option}"
        + (" or --workers" if processes > 1 and not threads else "")
        + (
            ""
            if not memory_option
            else " or raise --memory"
            if cap is not None
            else " or set --memory"
        )
        + (
            ""
            if not cap_option
            else ", or cap each search with --search-memory"
            if search_memory is None
            else ", or a lower --search-memory"
        )
    )


def threads_that_fit(nodes: int, threads: int, cap: int | None = None) -> int:
    """The most of ``threads`` searches side by side in one process that fit in
    memory (at least 1): the process is counted once."""
    limit = cap if cap is not None else available_bytes()
    if limit is None:
        return threads
    each = needed_bytes(nodes) - BASE_BYTES
    return max(1, min(threads, (limit - BASE_BYTES) // max(each, 1)))


def workers_that_fit(
    nodes: int, workers: int, cap: int | None = None, search_memory: int | None = None
) -> int:
    """The most of ``workers`` processes whose searches fit in memory (at least 1)."""
    limit = cap if cap is not None else available_bytes()
    if limit is None:
        return workers
    return max(1, min(workers, limit // needed_bytes(nodes, search_memory=search_memory)))
