"""benchmarks/tail.py: the CPU-hours of result rows, with and without ``cpu_seconds``."""

import pandas as pd
from data import load_benchmark


def load_tail():
    return load_benchmark("tail")


def test_cpu_hours_count_cpu_time_and_the_wall_clock_of_older_rows():
    tail = load_tail()
    rows = pd.DataFrame({"seconds": [3600.0, 7200.0, 1800.0], "cpu_seconds": [1800.0, None, 900.0]})
    # 1800 + 7200 (no CPU time: its wall clock) + 900 seconds
    assert tail.cpu_hours(rows) == "2.75 CPU-hours in the rows (1 row timed by the wall clock)"
    rows["cpu_seconds"] = [1800.0, 3600.0, 0.0]
    assert tail.cpu_hours(rows) == "1.50 CPU-hours in the rows"
