"""Where honest games are lost: the real position, every card known, at each deal.

For every game the honest player lost (``player == honest``, ``verdict ==
lost``) in a results folder or a games CSV, the game's line is replayed and
the real position is solved with full knowledge at --nodes: at the start,
after each deal, and at the game's end. A position still won after the last
deal was thrown away with the stock dealt; one already lost earlier was lost
before. The counts per stage, then one row per game (``w`` won, ``l`` lost,
``u`` unknown at --nodes; the face-down cards after the last deal).

``--critical`` looks closer, at each lost game's *critical decision*: of the
points where the honest player decided (the start, and after each action
that turned up a card or dealt), one whose real position a bisection finds
won at --nodes, the next one not. There the advisor is asked again
(same seed, ``advise(ranking=...)``), and each candidate it scored is
played on the real position and solved at --nodes: did any keep the game
winnable, and how did the advisor rank it?

    python benchmarks/honest_where_lost.py benchmarks/results/honest-train-s4/games.csv
    python benchmarks/honest_where_lost.py --critical benchmarks/results/honest-train-s4/games.csv
"""

from __future__ import annotations

from pathlib import Path

import click
import pandas as pd

from spidersolve.search.honest import HONEST_SAMPLES, advise
from spidersolve.search.solver import solve
from spidersolve.state import GameCode, line_text, replay
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


def critical(code: str, line: str, nodes: int, seed: int = 0, samples: int = HONEST_SAMPLES):
    """The critical decision of a lost game, or None if the start is not won at ``nodes``.

    Decision points are the start and the positions after each action that
    turned up a card or dealt. A bisection over them finds one won at
    ``nodes`` whose next one is not (won within a budget is not monotone
    along a line, so this is one such step, most often the last). Returns
    (its action index, deals left, face-down cards, whether the advisor asked
    again there (``seed``, ``samples``) chooses the plan the game played, and
    the candidates it scored, best first, as (plan text, wins, scored, mean
    value, still won after it)). With one candidate nothing is scored: [].
    """
    start = GameCode.parse(code).position()
    actions = line.split()
    game, positions = replay(start, ""), [start]
    for action in actions:
        game = game.play(action)
        positions.append(game.position)
    hidden = [unknown_count(visible_of(p)) for p in positions]
    points = [0] + [i + 1 for i in range(len(actions) - 1) if hidden[i + 1] < hidden[i]]
    verdicts: dict[int, bool] = {}

    def won(i: int) -> bool:
        if i not in verdicts:
            verdicts[i] = solve(positions[i], nodes=nodes).verdict == "won"
        return verdicts[i]

    if not won(0):
        return None
    lo, hi = 0, len(points) - 1  # points[lo] won and, unless lo == hi, points[hi] not
    if won(points[hi]):
        lo = hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if won(points[mid]) else (lo, mid)
    index = points[lo]
    at = positions[index]
    ranking: list = []
    advice = advise(visible_of(at), samples=samples, seed=seed, ranking=ranking)
    played = " ".join(actions[index : index + len(advice.plan)])
    same = line_text(advice.plan) == played
    scored = []
    for plan, wins, count, value in ranking:
        text = line_text(plan)
        kept = solve(replay(at, text).position, nodes=nodes).verdict == "won"
        scored.append((text, wins, count, value, kept))
    return index, len(at.stock) // 10, hidden[index] - len(at.stock), same, scored


def report_critical(games, nodes: int) -> None:
    counts = dict.fromkeys(["saved", "chosen", "none", "one", "start"], 0)
    for game in games.itertuples():
        seed = int(getattr(game, "seed", 0))
        samples = int(getattr(game, "samples", HONEST_SAMPLES))
        found = critical(game.code, game.line, nodes, seed, samples)
        if found is None:
            counts["start"] += 1
            click.echo(f"{game.deal} start not won at {nodes:,} nodes")
            continue
        index, deals, down, same, scored = found
        kept = [k for k, c in enumerate(scored) if c[4]]
        if not scored:
            kind, says = "one", "one candidate"
        elif kept and kept[0] == 0:
            kind, says = "chosen", "the chosen candidate keeps it won"
        elif kept:
            kind, says = "saved", f"a candidate ranked {kept[0] + 1} keeps it won"
        else:
            kind, says = "none", "no candidate keeps it won"
        counts[kind] += 1
        click.echo(
            f"{game.deal} critical decision at action {index}, {deals} deals left, "
            f"{down} face down; {says}" + ("" if same else " (the game played another plan)")
        )
        for plan, wins, count, value, ok in scored:
            mark = "won" if ok else "-"
            click.echo(
                f"    {plan:<40} won {wins}/{count} of its samples, value {value:.1f}: {mark}"
            )
    click.echo(
        f"\n{sum(counts.values())} lost games, critical decisions at {nodes:,} nodes: "
        f"{counts['saved']} with a scored candidate that keeps the real game won, "
        f"{counts['none']} with none, {counts['chosen']} where the chosen one does, "
        f"{counts['one']} with one candidate, {counts['start']} not won from the start"
    )


@click.command()
@click.argument("source", type=click.Path(exists=True, path_type=Path))
@click.option("--nodes", default=300_000, show_default=True, type=int)
@click.option("--critical", "closer", is_flag=True, help="Each game's critical decision instead.")
def main(source, nodes, closer):
    games = lost_games(source)
    if closer:
        report_critical(games, nodes)
        return
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
