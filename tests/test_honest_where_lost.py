"""benchmarks/honest_where_lost.py: the real position of a lost honest game at each deal."""

import pandas as pd
from data import load_benchmark

from spidersolve.search.honest import advise
from spidersolve.search.solver import solve
from spidersolve.state import GameCode, replay
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


def test_the_critical_decision_is_the_last_won_point_and_its_candidates_are_solved():
    where = load_benchmark("honest_where_lost")
    code, line, nodes = "SP1-S2C-AAAAAAD", "deal deal deal deal deal", 3000
    start = GameCode.parse(code).position()
    found = where.critical(code, line, nodes)
    if solve(start, nodes=nodes).verdict != "won":
        assert found is None
        return
    index, deals, down, scored = found
    # every deal is a decision point here: the one found is won, the next one is not
    points = [replay(start, " ".join(["deal"] * k)).position for k in range(5)]
    assert 0 <= index <= 4 and solve(points[index], nodes=nodes).verdict == "won"
    assert index == 4 or solve(points[index + 1], nodes=nodes).verdict != "won"
    assert deals == len(points[index].stock) // 10 == 5 - index
    assert down == 44  # deals turn up no face-down card
    ranking: list = []
    advise(visible_of(points[index]), seed=0, ranking=ranking)
    assert [s[:4] for s in scored] == [
        (" ".join(a.text() for a in plan), wins, count, value)
        for plan, wins, count, value in ranking
    ]
    for plan, _wins, _count, _value, kept in scored:
        after = replay(points[index], plan).position
        assert kept == (solve(after, nodes=nodes).verdict == "won")
