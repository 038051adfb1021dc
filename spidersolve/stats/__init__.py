"""Batch runs and their statistics: the plan, the runner and its backends, the
result store, win rates with Wilson intervals and nested budgets, the verdicts
settled by escalation (``batch --retry``), plots and the hint table."""

from .backends import DaskBackend, InlineBackend, PoolBackend, make_backend
from .batch import BatchReport, run_batch, solve_chunk
from .hint_table import hints_frame
from .plan import Task, plan, settings
from .store import ResultsError, ResultStore, load_results, load_runs
from .winrates import (
    budget_table,
    curve,
    hardest,
    render,
    settled,
    stats_flat,
    stats_json,
    summary,
    unresolved,
    verdicts_within,
    wilson_interval,
)

__all__ = [
    "BatchReport",
    "DaskBackend",
    "InlineBackend",
    "PoolBackend",
    "ResultStore",
    "ResultsError",
    "Task",
    "budget_table",
    "curve",
    "hardest",
    "hints_frame",
    "load_results",
    "load_runs",
    "make_backend",
    "plan",
    "render",
    "run_batch",
    "settings",
    "settled",
    "solve_chunk",
    "stats_flat",
    "stats_json",
    "summary",
    "unresolved",
    "verdicts_within",
    "wilson_interval",
]
