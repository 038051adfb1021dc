"""benchmarks/tail.py: the CPU-hours of result rows, with and without ``cpu_seconds``."""

import importlib.util
from pathlib import Path

import pandas as pd

TAIL = Path(__file__).resolve().parent.parent / "benchmarks" / "tail.py"


def load_tail():
    spec = importlib.util.spec_from_file_location("tail", TAIL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cpu_hours_count_cpu_time_and_the_wall_clock_of_older_rows():
    tail = load_tail()
    rows = pd.DataFrame({"seconds": [3600.0, 7200.0, 1800.0], "cpu_seconds": [1800.0, None, 900.0]})
    # 1800 + 7200 (no CPU time: its wall clock) + 900 seconds
    assert tail.cpu_hours(rows) == "2.75 CPU-hours in the rows (1 row timed by the wall clock)"
    rows["cpu_seconds"] = [1800.0, 3600.0, 0.0]
    assert tail.cpu_hours(rows) == "1.50 CPU-hours in the rows"
