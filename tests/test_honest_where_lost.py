"""benchmarks/honest_where_lost.py: the real position of a lost honest game at each deal."""

import pandas as pd
from data import load_benchmark

from spidersolve.search.solver import solve
from spidersolve.state import GameCode, replay


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
