"""benchmarks/honest_where_lost.py: the real position of a lost honest game at each deal."""

import pandas as pd
from data import load_benchmark

from spidersolve.search.honest import advise
from spidersolve.search.solver import solve
from spidersolve.state import GameCode, legal_actions, line_text, replay
from spidersolve.state.visible import visible_of


def test_each_deal_of_a_game_is_solved_with_every_card_known(tmp_path):
    where = load_benchmark("honest_where_lost")
    code, line = "SP1-S1C-AAAAAAD", "deal deal deal deal deal"
    letters, hidden, end = where.stages(code, line, 2000)
    start = GameCode.parse(code).position()
    expected = [
        solve(replay(start, " ".join(["deal"] * k)).position, nodes=2000).verdict[0]
        for k in range(6)
    ]
    assert letters == "".join(expected) and set(letters) <= set("wlu")
    assert hidden == 44  # five deals turn up no face-down card
    assert end == expected[-1]
    games = pd.DataFrame(
        {
            "code": [code] * 3,
            "deal": [3, 3, 4],
            "player": ["honest", "solver", "honest"],
            "verdict": ["lost", "lost", "won"],
            "line": [line] * 3,
        }
    )
    games.to_csv(tmp_path / "games.csv", index=False)
    assert list(where.lost_games(tmp_path / "games.csv").index) == [0]


def test_the_critical_decision_is_a_won_point_before_one_not_won_and_its_candidates_solved():
    where = load_benchmark("honest_where_lost")
    code, nodes = "SP1-S2C-AAAAAAD", 3000
    start = GameCode.parse(code).position()
    # a deal, then a move that reveals nothing (the top of two face-up cards): not a
    # decision point; then four deals
    after_deal = replay(start, "deal").position
    quiet = next(
        a
        for a in legal_actions(after_deal)
        if not a.is_deal and len(after_deal.up[a.src]) > a.n_cards
    )
    line = f"deal {quiet.text()} deal deal deal deal"
    found = where.critical(code, line, nodes)
    assert solve(start, nodes=nodes).verdict == "won"  # so the game has a critical point
    index, deals, down, same, scored = found
    cuts = [0, 1, 3, 4, 5]  # the start, after each deal but the last; never after the move
    assert index in cuts
    at = replay(start, " ".join(line.split()[:index])).position
    assert solve(at, nodes=nodes).verdict == "won"
    later = cuts[cuts.index(index) + 1 :]
    if later:
        nxt = replay(start, " ".join(line.split()[: later[0]])).position
        assert solve(nxt, nodes=nodes).verdict != "won"
    assert deals == len(at.stock) // 10 and down == 44  # no face-down card turned up
    ranking: list = []
    advice = advise(visible_of(at), seed=0, ranking=ranking)
    played = line.split()[index : index + len(advice.plan)]
    assert same == (line_text(advice.plan) == " ".join(played))
    assert [c[0] for c in scored] == [line_text(p[0]) for p in ranking]
    for plan, _wins, _count, _value, kept in scored:
        assert kept == (solve(replay(at, plan).position, nodes=nodes).verdict == "won")
