"""Test data shared by several test files: the golden vectors, hand-made
positions and result rows, and the check of a command's one error line.

Test files import from here (``from data import ...``), never from each
other. Every path is relative to this file, so the tests run from any folder.
"""

from __future__ import annotations

import importlib.util
import json
import signal
import sys
from collections import Counter
from pathlib import Path

from spidersolve.cards import card_text, ordered_deck, parse_card
from spidersolve.state import GameCode

VECTORS = Path(__file__).parent / "vectors"

# -- golden vectors ----------------------------------------------------------------------------


def read_vectors(name: str) -> list[dict]:
    """Every line of ``tests/vectors/<name>.jsonl``, parsed.

    A missing or empty file is an error at collection time, never a skip:
    losing a golden file must fail the suite loudly.
    """
    path = VECTORS / f"{name}.jsonl"
    if not path.is_file():
        raise FileNotFoundError(f"golden vector file {path} is missing")
    rows = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError as err:
                    raise ValueError(f"{path}:{number}: not JSON: {err}") from None
    if not rows:
        raise ValueError(f"golden vector file {path} is empty")
    return rows


def vector_id(row: dict) -> str:
    """A short readable test id for one vector line."""
    for key in ("name", "code", "source", "input"):
        if key in row:
            label = repr(row[key]) if key == "input" else str(row[key])
            return label + (f"-d{row['depth']}" if "depth" in row else "")
    return "row"


# -- hand-made positions -----------------------------------------------------------------------

# 2 suits, 6 runs removed, the stock empty: no legal action.
STUCK_TEXT = """spider 2 classic
removed: S S S H H H
stock:
1: 2S 2H | AS
2: 4S 4H | AH
3: 6S 6H | 3S
4: 8S 8H | 3H
5: TH TS | 5S
6: JS JH | 5H
7: QS | 7S
8: QH | 7H
9: KS | 9S
10: KH | 9H
"""

# The same cards but 9H and TH swapped: one legal action (9>10: 9S onto TH),
# after which nothing can move.
LOST_TEXT = STUCK_TEXT.replace("5: TH TS | 5S", "5: 9H TS | 5S").replace(
    "10: KH | 9H", "10: KH | TH"
)

# 4 suits, 6 runs removed, clubs left so that nothing moves and the stock is empty.
CLUBS_STUCK_TEXT = """\
spider 4 classic
removed: S S H H D D
stock:
1: AC AC | KC
2: 2C 2C | KC
3: 3C 3C | JC
4: 4C 4C | JC
5: 6C 6C | 9C
6: 8C 8C | 9C
7: TC TC | 7C
8: QC QC | 7C
9: | 5C
10: | 5C
"""


def filled_position_text(
    suits: int, up: dict[int, str], down: dict[int, str] | None = None, stock: int = 0
) -> str:
    """Position text with ``up`` and ``down`` (columns 1..10) and the rest of the deck.

    Columns missing from ``up`` get one card each; the cards left go face
    down under column 10 (which tests do not touch); ``stock`` deals first.
    """
    down = dict(down or {})
    left = Counter(ordered_deck(suits))
    for text in list(up.values()) + list(down.values()):
        left.subtract(parse_card(t) for t in text.split() if t != "??")
    unknown = sum(text.split().count("??") for text in down.values())
    pool = sorted(left.elements(), key=lambda c: (-(c & 15), c))
    up = dict(up)
    for c in range(1, 11):
        if c not in up:
            up[c] = card_text(pool.pop(0))
    pool = pool[unknown:]
    stock_cards, rest = pool[: 10 * stock], pool[10 * stock :]
    down[10] = (down.get(10, "") + " " + " ".join(card_text(c) for c in rest)).strip()
    lines = [
        f"spider {suits} classic",
        "removed:",
        " ".join(["stock:"] + [card_text(c) for c in stock_cards]),
    ]
    for c in range(1, 11):
        lines.append(" ".join(f"{c}: {down.get(c, '')} | {up[c]}".split()))
    return "\n".join(lines) + "\n"


# -- result rows -------------------------------------------------------------------------------


def result_row(suits, rules, deal, verdict, nodes, limit=1000, first_action=None, moves=None):
    """A hand-made row; a won one gets a line of ``moves`` actions starting with
    ``first_action`` and the score such a line ends with (the store checks both)."""
    code = GameCode(suits, rules, deal)
    line = score = None
    if verdict == "won":
        first_action = first_action or "1>2"
        line = " ".join([first_action] + ["deal"] * (moves - 1))
        score = 1300 - moves
    return {
        "source": "code",
        "code": code.text(),
        "suits": suits,
        "rules": code.rules,
        "deal": deal,
        "node_limit": limit,
        "verdict": verdict,
        "nodes": nodes,
        "seconds": nodes / 1000,
        "moves": moves,
        "score": score,
        "first_action": first_action,
        "line": line,
        "version": "0.1.0",
        "time": "2025-01-01T00:00:00Z",
    }


def hand_table() -> list[dict]:
    """1 suit: 7 won, 1 lost, 2 unknown of 10; 4 suits relaxed: 3 unknown of 3."""
    won_nodes = [10, 20, 30, 40, 50, 60, 700]
    rows = [result_row(1, "classic", d, "won", n, moves=100 + d) for d, n in enumerate(won_nodes)]
    rows.append(result_row(1, "classic", 7, "lost", 500))
    rows += [result_row(1, "classic", d, "unknown", 1000) for d in (8, 9)]
    rows += [result_row(4, "relaxed", d, "unknown", 1000) for d in range(3)]
    return rows


# -- checks ------------------------------------------------------------------------------------


def assert_error(result, *fragments):
    """One ``error:`` line on stderr, status 2, nothing on stdout, no traceback."""
    assert result.exit_code == 2, (result.output, result.exception)
    assert isinstance(result.exception, SystemExit), result.exception
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


# -- signals -----------------------------------------------------------------------------------


def ctrl_c_as_from_a_terminal():
    """``preexec_fn`` of a command a test sends SIGINT: SIGINT as a terminal gives it.

    A test run started in the background (``make test &``, ``nohup``) ignores
    SIGINT, and a command started with SIGINT ignored rightly keeps ignoring it.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


# -- benchmark scripts -------------------------------------------------------------------------


def load_benchmark(name: str):
    """``benchmarks/<name>.py`` as a module (the folder is not a package), to test its parts."""
    path = Path(__file__).resolve().parent.parent / "benchmarks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # numba's cache (cache=True) finds its functions by module
    spec.loader.exec_module(module)
    return module
