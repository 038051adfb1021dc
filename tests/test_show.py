"""``spidersolve show``: the steps of a line, piped and on a terminal (a real pty)."""

from __future__ import annotations

import io
import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from data import ctrl_c_as_from_a_terminal, filled_position_text, read_vectors

from spidersolve.board import FANCY, PLAIN, Style, card_face, table_text, terminal_style
from spidersolve.cards import parse_card
from spidersolve.cli.main import cli
from spidersolve.show import KEY_BYTES, Stepper, key_name, key_names, line_steps, step_text
from spidersolve.state import Game, GameCode, parse_line, replay
from spidersolve.state.words import line_sentences

WINS = read_vectors("wins")
WIN = WINS[0]  # SP1-S1C-AAAAAAD in 89 actions
SPIDERSOLVE = Path(sys.executable).parent / "spidersolve"


def run(*args, env=None):
    return CliRunner(env=env).invoke(cli, list(args), prog_name="spidersolve")


# -- the steps -------------------------------------------------------------------------------
def test_steps_are_the_start_then_the_board_after_each_action_with_its_sentence():
    start = GameCode.parse(WIN["code"]).position()
    steps = line_steps(start, WIN["line"], WIN["code"])
    actions = parse_line(WIN["line"])
    assert [s.number for s in steps] == list(range(len(actions) + 1))
    assert steps[0].sentence == f"start: {WIN['code']}, a line of 89 actions"
    assert [s.sentence for s in steps[1:]] == line_sentences(start, actions)
    for k in (1, 30, 89):
        assert steps[k].game == replay(start, actions[:k])
        assert steps[k].action == actions[k - 1]
    assert steps[-1].game.won


def test_marked_cards_are_the_cards_moved_or_dealt_that_stay_on_the_table():
    start = GameCode.parse(WIN["code"]).position()
    steps = line_steps(start, "1>8 8>7x2 8>2 deal")
    assert steps[1].marked == ((7, 1),)  # the 2S, on top of the 3S in column 8
    assert steps[2].marked == ((6, 1), (6, 2))
    deal = steps[4]
    assert deal.marked == tuple((c, len(deal.game.position.up[c]) - 1) for c in range(10))
    # A move that completes a run leaves nothing to point at.
    actions = parse_line(WIN["line"])
    k = next(i for i, s in enumerate(line_steps(start, actions)) if s.outcome and s.outcome.runs)
    assert line_steps(start, actions[:k])[k].marked == ()


def test_a_step_draws_its_title_the_table_with_the_moved_cards_and_the_ending():
    start = GameCode.parse(WIN["code"]).position()
    steps = line_steps(start, "1>8 8>7x2")
    text = step_text(steps[2], 2)
    lines = text.splitlines()
    assert lines[0] == (
        "step 2 of 2: 8>7x2: move 3S 2S from column 8 onto the 4S in column 7; "
        "the 5S in column 8 turns up"
    )
    assert lines[1] == "stock: 50 cards, 5 deals left | removed: 0 runs | moves: 2 | score: 498"
    assert lines[8] == " 7: ## ## ## ## 4S [3S 2S]"
    assert lines[-1] == "the line ends here, 0 runs of 8 removed, after 2 moves"


def test_the_ending_says_won_lost_or_where_the_line_stops_with_one_move_singular():
    start = GameCode.parse(WIN["code"]).position()
    assert step_text(line_steps(start, "1>8")[1], 1).endswith(
        "the line ends here, 0 runs of 8 removed, after 1 move"
    )
    won = line_steps(start, WIN["line"])
    assert step_text(won[-1], 89).endswith("won: all 8 runs removed in 89 moves, final score 1211")


# -- piped -----------------------------------------------------------------------------------
def test_piped_show_prints_every_step_in_order():
    result = run("show", WIN["code"], WIN["line"])
    assert result.exit_code == 0, result.output
    blocks = result.stdout.rstrip("\n").split("\n\n")
    assert len(blocks) == 90
    steps = line_steps(GameCode.parse(WIN["code"]).position(), WIN["line"], WIN["code"])
    assert blocks == [step_text(s, 89) for s in steps]
    assert "\x1b" not in result.stdout and "\u2660" not in result.stdout  # plain in a pipe


def test_from_starts_at_that_step():
    result = run("show", WIN["code"], WIN["line"], "--from", "88")
    assert result.exit_code == 0, result.output
    blocks = result.stdout.rstrip("\n").split("\n\n")
    assert [b.split(":")[0] for b in blocks] == ["step 88 of 89", "step 89 of 89"]
    assert blocks[-1].endswith("final score 1211")


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["SP1-S1C-AAAAAAD", "1>8", "--from", "2"], "--from 2: the line has steps 0..1"),
        (["SP1-S1C-AAAAAAD", "1>8", "--from", "-1"], "--from -1: the line has steps 0..1"),
        (["SP1-S1C-AAAAAAD", "1>8 1>2"], "action 2 (1>2)"),
        (["SP1-S1C-AAAAAAD", "1>8 jump"], "action 2: 'jump' is not an action"),
        (["SP9-S1C-AAAAAAD", "1>8"], "error: "),
    ],
)
def test_bad_input_is_one_error_line(args, fragment):
    result = run("show", *args)
    assert result.exit_code == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and fragment in lines[0], lines


# -- style -----------------------------------------------------------------------------------
class Tty(io.StringIO):
    def isatty(self):
        return True


def test_colour_and_symbols_only_on_a_terminal_without_no_color(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    assert terminal_style(Tty()) == FANCY
    assert terminal_style(io.StringIO()) == PLAIN
    assert terminal_style(Tty(), no_color=True) == PLAIN
    monkeypatch.setenv("NO_COLOR", "1")
    assert terminal_style(Tty()) == PLAIN
    monkeypatch.setenv("NO_COLOR", "")  # set but empty does not count
    assert terminal_style(Tty()) == FANCY
    monkeypatch.setenv("TERM", "dumb")
    assert terminal_style(Tty()) == PLAIN


def test_fancy_cards_have_suit_symbols_and_red_hearts_and_diamonds():
    assert card_face(parse_card("7H"), FANCY) == "\x1b[31m7\u2665\x1b[0m"
    assert card_face(parse_card("TD"), FANCY) == "\x1b[31mT\u2666\x1b[0m"
    assert card_face(parse_card("KS"), FANCY) == "K\u2660"
    assert card_face(parse_card("AC"), FANCY) == "A\u2663"
    assert card_face(parse_card("7H"), Style(symbols=True)) == "7\u2665"
    assert card_face(parse_card("7H"), PLAIN) == "7H"
    game = Game.start(GameCode.parse("SP1-S4C-AAAAAAD").position())
    fancy = table_text(game, FANCY, marked=[(0, 0)])
    assert "\x1b[7m" in fancy and "\u2663" in fancy  # the marked 2C in reverse video


# -- keys --------------------------------------------------------------------------------------
def test_the_stepper_moves_on_keys_and_stays_within_the_line():
    steps = line_steps(GameCode.parse(WIN["code"]).position(), "1>8 8>7x2 deal")
    stepper = Stepper(steps)
    assert stepper.screen().splitlines()[0].startswith("start, a line of 3 actions")
    assert (
        stepper.screen().splitlines()[-1]
        == "[0/3] space or right arrow: next, left arrow: back, q: quit"
    )
    for key, where in [
        ("back", 0),
        ("next", 1),
        ("next", 2),
        ("next", 3),
        ("next", 3),
        ("back", 2),
        ("first", 0),
        ("last", 3),
        ("other", 3),
    ]:
        assert stepper.press(key)
        assert stepper.index == where
    assert stepper.screen().startswith("step 3 of 3: deal: deal a row (4 deals left)")
    assert not stepper.press("quit")


def test_terminal_bytes_name_the_keys():
    assert key_name(b" ") == key_name(b"\x1b[C") == key_name(b"\x1bOC") == "next"
    assert key_name(b"\x1b[D") == key_name(b"\x1bOD") == "back"
    assert key_name(b"q") == key_name(b"\x03") == "quit"
    assert key_name(b"x") is None
    assert set(KEY_BYTES.values()) == {"next", "back", "first", "last", "quit"}


def test_keys_that_come_in_one_read_are_each_a_key_bug():
    # two spaces or two arrows in one read (a key held down, a paste) were no key at all
    assert key_names(b"  ") == ["next", "next"]
    assert key_names(b"\x1b[C\x1b[C\x1b[D") == ["next", "next", "back"]
    assert key_names(b"\x1b[1~\x1bOFx\x1b[5~q ") == ["first", "last", "quit", "next"]
    assert key_names(b"\x1b") == ["quit"] and key_names(b"\x1b[") == []
    for data, key in KEY_BYTES.items():
        assert key_names(data) == [key]


def read_until(fd, text: str, timeout: float = 30.0) -> str:
    seen = b""
    deadline = time.time() + timeout
    while text.encode() not in seen:
        left = deadline - time.time()
        assert left > 0, f"no {text!r} in {seen.decode(errors='replace')[-800:]!r}"
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # EIO: the process closed the terminal
                chunk = b""
            assert chunk, f"the process ended before {text!r}: {seen.decode(errors='replace')!r}"
            seen += chunk
    return seen.decode(errors="replace")


def show_on_a_terminal(no_color: bool = False):
    """``show`` of a three-action line on a real pty: (the process, the pty's master end)."""
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"} | {"TERM": "xterm"}
    if no_color:
        env["NO_COLOR"] = "1"
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [str(SPIDERSOLVE), "show", WIN["code"], "1>8 8>7x2 deal"],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        close_fds=True,
        preexec_fn=ctrl_c_as_from_a_terminal,
    )
    os.close(slave)
    return proc, master


@pytest.mark.parametrize("no_color", [False, True])
def test_on_a_terminal_one_key_is_one_step(no_color):
    proc, master = show_on_a_terminal(no_color)
    try:
        first = read_until(master, "[0/3]")
        os.write(master, b" ")
        step1 = read_until(master, "[1/3]")
        assert "step 1 of 3: 1>8: move the 2S from column 1" in step1
        os.write(master, b"\x1b[C")
        read_until(master, "[2/3]")
        os.write(master, b"\x1b[D")
        back = read_until(master, "[1/3]")
        os.write(master, b"\x1b[C\x1b[C")  # two keys in one read: two steps
        read_until(master, "[3/3]")
        os.write(master, b"q")
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    assert "\x1b[H\x1b[2J" in first  # each step on a clean screen
    if no_color:
        assert "\u2660" not in first + step1 + back and "\x1b[31m" not in step1
    else:
        assert "2\u2660" in step1  # suit symbols on a colour terminal


@pytest.mark.parametrize("sig,status", [(signal.SIGINT, 0), (signal.SIGTERM, 143)])
def test_on_a_terminal_ctrl_c_ends_the_steps_and_kill_says_so(sig, status):
    """Ctrl-C ends the stepping like q; SIGTERM gives its line and status, as every command."""
    proc, master = show_on_a_terminal()
    try:
        read_until(master, "[0/3]")
        proc.send_signal(sig)
        assert proc.wait(timeout=30) == status
        if status:
            assert "error: terminated" in read_until(master, "terminated")
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)


def test_counts_are_singular_for_one():
    from spidersolve.board import plural

    assert [plural(n, "move") for n in (0, 1, 2)] == ["0 moves", "1 move", "2 moves"]
    result = run("solve", "SP1-S4C-AAAAAAB", "--nodes", "1")
    assert "no proof within 1 node: try a larger --nodes" in result.stdout
    game = Game.start(GameCode.parse("SP1-S1C-AAAAAAD").position())
    one = table_text(
        game.play(parse_line("deal")[0])
        .play(parse_line("deal")[0])
        .play(parse_line("deal")[0])
        .play(parse_line("deal")[0])
    )
    assert one.splitlines()[0].startswith("stock: 10 cards, 1 deal left")


def test_a_line_that_would_turn_up_an_unknown_card_is_one_error_line(tmp_path):
    path = tmp_path / "hidden.txt"
    path.write_text(filled_position_text(1, {7: "7S", 3: "8S"}, down={7: "?? ??"}))
    result = run("show", str(path), "7>3 3>7")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        "error: action 1 (7>3): it would turn up an unknown card in column 7: write it in the "
        "position in place of its ?? (in play: turn 7 CARD)"
    ]


@pytest.mark.parametrize("args", [["--from", "two"], ["--html", "."]])
def test_bad_options_are_one_error_line(args):
    result = run("show", "SP1-S1C-AAAAAAD", "1>8", *args)
    assert result.exit_code == 2 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("error: ")
