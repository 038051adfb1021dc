"""Where honest games are lost: the real position, every card known, at each deal.

For every game the honest player lost (``player == honest``, ``verdict ==
lost``) in a results folder or a games CSV, the game's line is replayed and
the real position is solved with full knowledge at --nodes: at the start,
after each deal, and at the game's end. A position still won after the last
deal was thrown away with the stock dealt; one already lost earlier was lost
before. The counts per stage, then one row per game (``w`` won, ``l`` lost,
``u`` unknown at --nodes; the face-down cards after the last deal).

    python benchmarks/honest_where_lost.py benchmarks/results/honest-train-s4/games.csv
"""

from __future__ import annotations

from pathlib import Path

import click
import pandas as pd

from spidersolve.search.solver import solve
from spidersolve.state import GameCode, replay
from spidersolve.state.visible import unknown_count, visible_of


def lost_games(path: Path) -> pd.DataFrame:
    if path.suffix == ".csv":
        frame = pd.read_csv(path)
    else:
        from spidersolve.stats import load_results

        frame = load_results(path)
    return frame[(frame["player"] == "honest") & (frame["verdict"] == "lost")]


def stages(code: str, line: str, nodes: int) -> tuple[str, int, str]:
    """Letters for the start and after each deal, face-down cards after the last
    deal, and the letter of the game's last position."""
    start = GameCode.parse(code).position()
    actions = line.split()
    cuts = [0] + [i + 1 for i, a in enumerate(actions) if a == "deal"]
    letters = []
    for cut in cuts:
        position = replay(start, " ".join(actions[:cut])).position
        letters.append(solve(position, nodes=nodes).verdict[0])
    hidden = unknown_count(visible_of(position))
    end = solve(replay(start, line).position, nodes=nodes).verdict[0]
    return "".join(letters), hidden, end


@click.command()
@click.argument("source", type=click.Path(exists=True, path_type=Path))
@click.option("--nodes", default=300_000, show_default=True, type=int)
def main(source, nodes):
    games = lost_games(source)
    rows = []
    for game in games.itertuples():
        letters, hidden, end = stages(game.code, game.line, nodes)
        rows.append((game.deal, letters, hidden, end))
        click.echo(f"{game.deal} {letters} end {end} face-down after the last deal {hidden}")
    width = max((len(r[1]) for r in rows), default=0)
    click.echo(f"\n{len(rows)} lost games, real positions solved at {nodes:,} nodes")
    for stage in range(width):
        letters = [r[1][stage] for r in rows if len(r[1]) > stage]
        click.echo(
            f"after deal {stage}: {letters.count('w')} won, {letters.count('l')} lost, "
            f"{letters.count('u')} unknown"
        )
    ends = [r[3] for r in rows]
    click.echo(
        f"at the end: {ends.count('w')} won, {ends.count('l')} lost, {ends.count('u')} unknown"
    )


if __name__ == "__main__":
    main()
