"""Every line of every golden vector file, against the reference rules."""

from __future__ import annotations

from pathlib import Path

import pytest
from data import VECTORS, read_vectors, vector_id

from spidersolve.state import (
    Action,
    CodeError,
    GameCode,
    Position,
    PysolDeal,
    apply,
    legal_actions,
    load_source,
    replay,
)
from spidersolve.state.perft import divide, perft

CODES = read_vectors("codes")
DEALS = read_vectors("deals")
PYSOL = read_vectors("pysol")
PERFT = read_vectors("perft")
WALKS = read_vectors("walks")
WINS = read_vectors("wins")
POSITIONS = read_vectors("positions")

# Depth 5 is the slowest (up to ~1 s each in pure Python); still run by default.
PERFT_PARAMS = [
    pytest.param(row, id=vector_id(row), marks=[pytest.mark.slow] if row["depth"] >= 5 else [])
    for row in PERFT
]


# The contract's golden files, in shared/ beside the project (here and in CI):
# tests/vectors is their copy, byte for byte. A clone alone has no shared/.
SHARED_VECTORS = Path(__file__).resolve().parent.parent.parent / "shared" / "vectors"


def test_every_golden_file_is_read_by_the_tests():
    assert sorted(path.stem for path in VECTORS.glob("*.jsonl")) == [
        "codes",
        "deals",
        "perft",
        "positions",
        "pysol",
        "visible",
        "walks",
        "wins",
    ]


@pytest.mark.skipif(not SHARED_VECTORS.is_dir(), reason=f"no {SHARED_VECTORS} beside the project")
def test_golden_files_are_the_shared_ones_byte_for_byte():
    ours = sorted(path.name for path in VECTORS.iterdir())
    assert ours == sorted(path.name for path in SHARED_VECTORS.iterdir())
    for name in ours:
        assert (VECTORS / name).read_bytes() == (SHARED_VECTORS / name).read_bytes(), name


@pytest.mark.parametrize("row", [r for r in CODES if r["expect"] == "error"], ids=vector_id)
def test_bad_code_is_refused(row):
    with pytest.raises(CodeError):
        GameCode.parse(row["input"])


@pytest.mark.parametrize("row", [r for r in CODES if r["expect"] != "error"], ids=vector_id)
def test_code_parses_to_its_canonical_form(row):
    expect = row["expect"]
    code = GameCode.parse(row["input"])
    assert code.text() == expect["code"]
    assert (code.suits, code.rules, code.deal_number) == (
        expect["suits"],
        expect["rules"],
        expect["deal_number"],
    )
    assert GameCode.parse(code.text()) == code


@pytest.mark.parametrize("row", DEALS, ids=vector_id)
def test_deal_lays_out_the_shuffled_deck(row):
    code = GameCode.parse(row["code"])
    assert (code.suits, code.rules, code.deal_number) == (
        row["suits"],
        row["rules"],
        row["deal_number"],
    )
    assert GameCode(row["suits"], row["rules"], row["deal_number"]).text() == row["code"]
    position = code.position()
    assert position.to_text() == row["position"]
    assert Position.from_text(row["position"]) == position
    assert load_source(row["code"]) == (position, row["code"])


@pytest.mark.parametrize("row", PYSOL, ids=vector_id)
def test_pysol_deal_matches_pysolfc(row):
    deal = PysolDeal.parse(row["source"])
    assert deal.text() == row["source"]
    assert deal.position().to_text() == row["position"]
    assert load_source(row["source"])[0].to_text() == row["position"]


@pytest.mark.parametrize("row", PERFT_PARAMS)
def test_reference_perft_counts_the_action_sequences(row):
    position = GameCode.parse(row["code"]).position()
    leaves = perft(position, row["depth"])
    if leaves != row["leaves"]:  # show where it goes wrong, as a perft divide does
        split = "\n".join(f"{a.text()}: {n}" for a, n in divide(position, row["depth"]))
        pytest.fail(f"{row['code']} depth {row['depth']}: {leaves} != {row['leaves']}\n{split}")


@pytest.mark.parametrize("row", [r for r in PERFT if r["depth"] == 3], ids=vector_id)
def test_perft_divide_sums_to_perft_and_every_counted_leaf_can_be_played(row):
    position = GameCode.parse(row["code"]).position()
    split = divide(position, row["depth"])
    assert [a for a, _ in split] == legal_actions(position)
    assert sum(n for _, n in split) == row["leaves"]

    def played(pos, depth):  # no bulk counting at the last level
        if depth == 0:
            return 1
        return sum(played(apply(pos, a)[0], depth - 1) for a in legal_actions(pos))

    assert played(position, row["depth"]) == row["leaves"]


def check_walk(row):
    game = replay(GameCode.parse(row["code"]).position(), row["line"])
    assert game.position.to_text() == row["position"]
    assert game.moves == row["moves"]
    assert game.score == row["score"]
    assert len(game.position.removed) == row["removed"]
    assert game.won == row["won"]
    return game


@pytest.mark.parametrize("row", WALKS, ids=vector_id)
def test_walk_reaches_the_recorded_position_and_counters(row):
    check_walk(row)


@pytest.mark.parametrize("row", WINS, ids=vector_id)
def test_winning_line_removes_all_eight_runs(row):
    assert row["won"] and row["removed"] == 8
    game = check_walk(row)
    assert game.state == "won"
    assert legal_actions(game.position) == []


@pytest.mark.parametrize("row", POSITIONS, ids=vector_id)
def test_hand_made_position_has_the_recorded_legal_actions(row):
    position = Position.from_text(row["position"])
    assert position.to_text() == row["position"]
    assert sorted(a.text() for a in legal_actions(position)) == row["legal"]


@pytest.mark.parametrize("row", POSITIONS, ids=vector_id)
def test_hand_made_position_after_play_is_the_recorded_one(row):
    position = Position.from_text(row["position"])
    after, removed = apply(position, Action.parse(row["play"]))
    assert after.to_text() == row["after"]
    assert len(removed) == row["removed_after"]
    assert Position.from_text(row["after"]) == after
