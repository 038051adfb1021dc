"""What the benchmarks that time whole ``spidersolve`` processes share."""

from __future__ import annotations

import shutil
import subprocess
import sys


def spidersolve_exe() -> str:
    """The installed ``spidersolve`` console script (on PATH, else beside this Python)."""
    return shutil.which("spidersolve") or str(sys.prefix) + "/bin/spidersolve"


def sp1_codes(exe: str, suits: int, count: int) -> list[str]:
    """The game codes of SP1 deals 0..count-1 with ``suits`` suits (``spidersolve codes``)."""
    return subprocess.run(
        [exe, "codes", "--suits", str(suits), "--start", "0", "--count", str(count)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
