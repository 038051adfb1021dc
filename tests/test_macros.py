"""Macro moves (``_kernels.macro_moves``) against the reference rules: each one the
kernel generates, written out by ``macros.macro_steps``, is a line of legal moves
that reaches the position the kernel reaches, and the kernel generates every
macro move a pure-Python enumeration finds."""

from __future__ import annotations

import random

import numpy as np
import pytest
from strategies import endgame_cases

from spidersolve.cards import card_rank, card_suit
from spidersolve.search import _kernels as K
from spidersolve.search._frontier import action_steps, plain_action
from spidersolve.search._kernels import macro_moves
from spidersolve.search.heuristic import (
    DEFAULT_WEIGHTS,
    DIG,
    MACRO_FROM,
    PLAIN,
    SIX_ROWS,
    preset,
)
from spidersolve.search.macros import expand, macro_steps
from spidersolve.search.solver import _Search, solve
from spidersolve.search.verify import verify_win
from spidersolve.state import Action, Position, as_game, legal_actions
from spidersolve.state._board import MAX_ACTIONS, UNDO_SIZE
from spidersolve.state._kernels import apply_action
from spidersolve.state.packed import action_from_code, from_board, to_board
from spidersolve.state.rules import apply


def reference_macros(pos: Position) -> set[tuple[Action, int]]:
    """Every macro move of ``pos`` and the runs it parks, by the definition in
    ``macro_moves``'s docstring, enumerated over every (src, dst, n)."""
    found = set()
    empties = [c for c in range(10) if not pos.up[c] and not pos.down[c]]
    for src in range(10):
        up = pos.up[src]
        for n in range(2, len(up) + 1):
            tail = up[-n:]
            if any(card_rank(tail[i]) != card_rank(tail[i + 1]) + 1 for i in range(n - 1)):
                break
            # the same-suit runs of the tail, top first: (lowest card, length)
            runs = []
            for i in range(n - 1, -1, -1):
                if runs and card_suit(tail[i]) == card_suit(tail[i + 1]):
                    runs[-1] = (tail[i], runs[-1][1] + 1)
                else:
                    runs.append((tail[i], 1))
            if len(runs) < 2:
                continue
            for dst in range(10):
                if dst == src:
                    continue
                if pos.up[dst]:
                    if card_rank(pos.up[dst][-1]) != card_rank(tail[0]) + 1:
                        continue
                elif dst != empties[0] or n == len(up) + len(pos.down[src]):
                    continue
                room = len([c for c in empties if c != dst])
                for r, (low, _) in enumerate(runs[:-1]):
                    spots = [
                        c
                        for c in range(10)
                        if c not in (src, dst)
                        and pos.up[c]
                        and card_rank(pos.up[c][-1]) == card_rank(low) + 1
                        and not (
                            r == 0
                            and card_rank(tail[-1]) == 1
                            and card_suit(pos.up[c][-1]) == card_suit(low)
                        )
                    ]
                    room -= not spots
                if room >= 0:
                    found.add((Action(src, dst, n), len(runs) - 1))
    return found


def walk_positions(deals, seed=1):
    """Positions of random walks with the reference rules from PySolFC four-suit deals."""
    rng = random.Random(seed)
    for deal in deals:
        pos = as_game(f"pysol:4:{deal}").position
        for _ in range(rng.randrange(20, 160)):
            actions = legal_actions(pos)
            if not actions:
                break
            pos, _ = apply(pos, rng.choice(actions))
            if len(pos.removed) == 8:
                break
            yield pos


def kernel_macros(pos: Position) -> list[int]:
    out = np.empty(MAX_ACTIONS, np.int32)
    return [int(code) for code in out[: macro_moves(to_board(pos), out, 0)]]


def test_macro_moves_match_the_reference_and_write_out_as_legal_moves():
    seen = 0
    for pos in walk_positions(range(1, 61)):
        codes = kernel_macros(pos)
        got = {(action_from_code(plain_action(c)), action_steps(c) // 2) for c in codes}
        assert len(got) == len(codes)
        assert got == reference_macros(pos)
        for code in codes:
            action = action_from_code(plain_action(code))
            steps = macro_steps(pos, action)
            assert len(steps) == action_steps(code)
            after = pos
            for step in steps:
                after, _ = apply(after, step)  # raises if a step is illegal
            board = to_board(pos)
            apply_action(board, plain_action(code), np.empty(UNDO_SIZE, np.int32))
            assert from_board(board, pos.suits, pos.rules) == after
            seen += 1
    assert seen > 1000  # the walks reach many macro moves


def test_expand_keeps_legal_moves_and_refuses_what_is_neither():
    pos = as_game("pysol:4:3").position
    line = tuple(legal_actions(pos)[:1])
    assert expand(pos, line) == line
    with pytest.raises(ValueError):
        macro_steps(pos, Action(0, 1, 5))


@pytest.mark.parametrize("deal", [3, 11])
def test_a_search_with_macro_moves_reports_legal_winning_lines(deal):
    weights = PLAIN.replace(macro=1)
    run = _Search(as_game(f"pysol:4:{deal}"), 20_000, weights)
    assert run.verdict == "won"
    # the kernel's line takes macro moves, each written out as legal moves
    node, codes = int(run.result[K.RESULT_WIN_NODE]), []
    while node > 0:
        entry = run.node_entry[node]
        codes.append(int(run.ent_action[entry]))
        node = int(run.ent_parent[entry])
    assert any(action_steps(code) > 1 for code in codes)
    line = run.winning_line()
    assert len(line) == len(codes) + 1 + sum(action_steps(code) - 1 for code in codes)
    assert verify_win(as_game(f"pysol:4:{deal}"), line).won
    # and solve reports that line, replayed with the reference rules
    assert solve(f"pysol:4:{deal}", nodes=20_000, weights=weights).line == line


def test_a_search_with_macro_moves_agrees_with_exhaustive_search_on_endgames():
    # macro moves only add children: lost stays lost, won stays won (every line
    # replayed with the reference rules)
    cases = endgame_cases(60, seed=20261129)
    for pos, verdict in cases:
        result = solve(pos, nodes=100_000, weights=PLAIN.replace(macro=1))
        assert result.verdict == verdict, pos.to_text()


def _kernel_line(run: _Search) -> list[int]:
    """The action codes of a won search's line as the kernel holds it (macro moves
    as one code each), from the root."""
    node, codes = int(run.result[K.RESULT_WIN_NODE]), [int(run.result[K.RESULT_WIN_ACTION])]
    while node > 0:
        entry = run.node_entry[node]
        codes.append(int(run.ent_action[entry]))
        node = int(run.ent_parent[entry])
    return codes[::-1]


def test_the_macro_preset_is_the_six_rows_with_macro_moves():
    assert preset("macro") == tuple(row.replace(macro=1) for row in SIX_ROWS)
    # the default: the same rows, with macro moves from node 50,000 on
    assert MACRO_FROM == 50_000
    assert DEFAULT_WEIGHTS == tuple(row.replace(macro=MACRO_FROM) for row in SIX_ROWS)
    assert preset("default") == DEFAULT_WEIGHTS


def _same_search(one: _Search, other: _Search, nodes: int | None = None) -> bool:
    """Whether two searches expanded the same nodes (the first ``nodes`` of each, or all)
    and made the same entries for them."""
    entries = int(max(one.node_entry[:nodes].max(), other.node_entry[:nodes].max())) + 1
    return (
        np.array_equal(one.node_entry[:nodes], other.node_entry[:nodes])
        and np.array_equal(one.ent_parent[:entries], other.ent_parent[:entries])
        and np.array_equal(one.ent_action[:entries], other.ent_action[:entries])
    )


def test_the_default_search_is_the_six_rows_search_before_node_50000():
    game = as_game("SP1-S4C-AAAAAAE")  # won past 150,000 nodes
    six = _Search(game, MACRO_FROM, SIX_ROWS)
    default = _Search(game, MACRO_FROM, DEFAULT_WEIGHTS)
    assert six.result.tolist() == default.result.tolist()
    assert _same_search(six, default)
    assert six.best_line() == default.best_line()
    # past it the default takes macro moves: another search, whose first 50,000
    # nodes are still the same (a larger budget only goes on)
    six_more = _Search(game, MACRO_FROM + 5_000, SIX_ROWS)
    default_more = _Search(game, MACRO_FROM + 5_000, DEFAULT_WEIGHTS)
    assert not _same_search(six_more, default_more)
    assert _same_search(default, default_more, MACRO_FROM)


def test_macro_moves_start_at_the_least_node_the_rows_name():
    game = as_game("SP1-S4C-AAAAAAE")
    late = (PLAIN.replace(macro=9_000), DIG.replace(macro=3_000))
    early = (PLAIN.replace(macro=3_000), DIG)
    assert _same_search(_Search(game, 8_000, late), _Search(game, 8_000, early))
    assert _same_search(_Search(game, 3_000, late), _Search(game, 3_000, (PLAIN, DIG)))
    assert not _same_search(_Search(game, 4_000, late), _Search(game, 4_000, (PLAIN, DIG)))


def test_a_default_win_past_node_50000_writes_its_macro_moves_out_as_legal_moves():
    game = as_game("SP1-S4C-AAAAAAE")
    run = _Search(game, 200_000)
    assert run.verdict == "won" and run.nodes > MACRO_FROM
    codes = _kernel_line(run)
    assert any(action_steps(code) > 1 for code in codes)
    line = run.winning_line()
    assert len(line) == sum(action_steps(code) for code in codes)
    assert verify_win(game, line).won
    assert solve("SP1-S4C-AAAAAAE", nodes=200_000).line == line


def test_relaxed_rules_have_no_macro_moves():
    # any sequence in rank order moves as one under Relaxed rules: the same search
    game = as_game("SP1-S4R-AAAAAAD")
    plain = _Search(game, 20_000, PLAIN)
    macro = _Search(game, 20_000, PLAIN.replace(macro=1))
    assert (plain.verdict, plain.nodes) == (macro.verdict, macro.nodes)
    assert plain.best_line() == macro.best_line()
