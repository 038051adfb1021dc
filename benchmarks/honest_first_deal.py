"""Face-down cards at each deal of honest games, beside what full knowledge reaches.

    python benchmarks/honest_first_deal.py                        # the committed training games
    python benchmarks/honest_first_deal.py --games results/bench-honest --nodes 50000

For each honest game (the rows of ``batch --player honest``: a results folder
or a ``games.csv`` like ``benchmarks/results/honest-train-s4/games.csv``), the
line is replayed and, before each deal the player made, two counts are taken:
the face-down cards the player left, and the fewest that a full-knowledge
search of the table alone (the stock taken away, from the position just after
the deal before, or the start) reaches within --nodes (its first row counts
face-down cards only; ``*`` when it walked every position it could reach, so
the count is exact). The second sees every hidden card, so the gap between
them is what seeing the cards is worth to digging, plus whatever the player's
choices lose. Prints one line per game and the means per deal, won and lost
games apart. Not a test.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import statistics
from pathlib import Path

from spidersolve.search.heuristic import DIG, PLAIN, UNBURY, Weights
from spidersolve.search.solver import _Search
from spidersolve.state import Game, as_position, parse_line
from spidersolve.state.position import mark_checked
from spidersolve.stats import load_results

FACE_DOWN_ONLY = Weights(face_down=1)


def face_down(position) -> int:
    return sum(len(column) for column in position.down)


def fewest(position, nodes: int) -> tuple[int, bool]:
    """The fewest face-down cards a full-knowledge search of the table alone reaches."""
    # no stock: outside SPEC 8 on purpose, so marked checked (Position.checked)
    table = mark_checked(dataclasses.replace(position, stock=()))
    run = _Search(Game.start(table), nodes, weights=(FACE_DOWN_ONLY, DIG, PLAIN, UNBURY))
    exact = run.verdict == "lost"  # it walked every position it could reach
    return min(run.best_value, face_down(table)), exact


def games(path: Path) -> list[dict]:
    if path.suffix == ".csv":
        with open(path, newline="") as handle:
            return list(csv.DictReader(handle))
    frame = load_results(path)
    frame = frame[frame["player"] == "honest"]
    return frame[["code", "deal", "verdict", "line"]].astype(str).to_dict("records")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games",
        default=str(Path(__file__).parent / "results/honest-train-s4/games.csv"),
    )
    parser.add_argument("--nodes", type=int, default=100_000)
    args = parser.parse_args()
    by_deal: dict = {}  # (verdict, k) -> [(player, fewest)]
    for row in games(Path(args.games)):
        game = Game.start(as_position(row["code"]))
        segment = game.position
        shown = []
        for action in parse_line(row["line"]):
            if action.is_deal:
                least, exact = fewest(segment, args.nodes)
                player = face_down(game.position)
                n = len(shown) + 1
                by_deal.setdefault((row["verdict"], n), []).append((player, least))
                shown.append(f"{player}/{least}{'*' if exact else ''}")
                game = game.play(action)
                segment = game.position
            else:
                game = game.play(action)
        print(row["deal"], row["verdict"], " ".join(shown), flush=True)
    print("\nmeans before each deal: the player's face-down cards / full knowledge's fewest")
    for verdict in ("won", "lost"):
        cells = []
        for n in range(1, 6):
            pairs = by_deal.get((verdict, n), [])
            if pairs:
                player = statistics.mean(p for p, _ in pairs)
                least = statistics.mean(q for _, q in pairs)
                cells.append(f"deal {n}: {player:.1f}/{least:.1f} ({len(pairs)})")
        print(f"{verdict}: " + "; ".join(cells))


if __name__ == "__main__":
    main()
