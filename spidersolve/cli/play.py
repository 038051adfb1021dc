"""``spidersolve play``: play a game in the terminal."""

from __future__ import annotations

import secrets
import sys
from contextlib import contextmanager
from pathlib import Path

import click

from ..board import terminal_style
from ..errors import SpiderError, shown, shown_path
from ..interrupt import Terminated
from ..play import SAVED_HEADER, PlaySession, read_saved_game
from ..play.saved import headless_field
from ..state import Game, GameCode, load_source, parse_line, replay
from ..state.source import file_source, read_file_text
from .deal import code_name
from .options import after_option, fail, no_color_option

COMMAND_WORDS = [
    "deal",
    "undo",
    "redo",
    "restart",
    "moves",
    "hint",
    "score",
    "show",
    "save ",
    "help",
    "quit",
]


@click.command("play")
@click.argument("source", metavar="[SOURCE]", required=False)
@after_option
@click.option(
    "--suits",
    type=click.Choice(["1", "2", "4"]),
    default=None,
    help="Without SOURCE: a new random deal with this many suits (default 1).",
)
@click.option("--relaxed", is_flag=True, help="Without SOURCE: the new deal uses Relaxed rules.")
@click.option(
    "--words",
    is_flag=True,
    help="Describe the table in plain words instead of drawing it (for a screen reader).",
)
@no_color_option
def play(source, after, suits, relaxed, words, no_color):
    """Play SOURCE in the terminal (type help for the commands).

    Without SOURCE, a new random deal (--suits 1, 2 or 4; its game code is
    printed first). SOURCE may be a file written by the game's 'save FILE'
    command, to go on where it stopped. Commands are read with line editing
    and history from a terminal, or line by line from stdin when it is not a
    terminal (each command is then echoed after '> '). Face-down cards stay
    hidden. At the end (quit, a win or the end of the input) the last line
    printed is 'line:' and the actions played, --after included, to replay them.
    """
    if sys.stdin is None:  # started with standard input closed: no command can come
        fail("standard input is closed: play reads its commands from it")
    style = terminal_style(sys.stdout, no_color)
    try:
        session, opening = _session(source, after, suits, relaxed, words, style)
    except SpiderError as err:
        fail(str(err))
    if opening:
        click.echo(opening)
    click.echo(session.start())
    if sys.stdin.isatty() and sys.stdout.isatty():
        _play_on_a_terminal(session)
    else:
        _play_from_a_pipe(session)
    click.echo(session.line_report())


def _session(source, after, suits, relaxed, words, style) -> tuple[PlaySession, str]:
    """The session for the options, and a line to say before the table (or "")."""
    if source is None:
        code = GameCode(
            int(suits or 1), "relaxed" if relaxed else "classic", secrets.randbelow(2**35)
        )
        game = _after(Game.start(code.position()), after)
        return (
            PlaySession(game, parse_line(after), words=words, style=style, start=code.text()),
            f"new deal: {code.text()} (play it again with: spidersolve play {code.text()})",
        )
    if suits or relaxed:
        raise SpiderError(
            "--suits and --relaxed choose a new random deal: give them without SOURCE"
        )
    if source.strip() == "-":
        raise SpiderError(
            "play reads its commands from stdin, so SOURCE cannot be '-': "
            "give a game code or a position file"
        )
    path = Path(source)
    saved = None
    # a file, unless the name reads as a code or a PySolFC deal (./NAME names the file)
    if path.is_file() and file_source(source) == source:
        text = read_file_text(source)
        saved = read_saved_game(text, shown_path(source))
        field = headless_field(text) if saved is None else None
        if field is not None:  # a saved game whose first line was lost: say so
            click.echo(
                f"note: {shown_path(source)} is read as a position, not a saved game: its "
                f"'# {field[1]}:' (line {field[0]}) is read only after the first line "
                f"'{SAVED_HEADER}'",
                err=True,
            )
    if saved is None:
        position, name = load_source(source, stdin=False)  # the commands come from there
        game = _after(Game.start(position), after)
        return (
            PlaySession(
                game, parse_line(after), words=words, style=style, start=code_name(source, name)
            ),
            "",
        )
    opening = (
        f"resumed {source}: {saved.game.moves} move{'s' if saved.game.moves != 1 else ''}"
        f", score {saved.game.score}"
    )
    if saved.first is None:  # begun from a position file: the saved line stays as it is
        game = _after(saved.game, after)
        return (
            PlaySession(game, saved.line + parse_line(after), words=words, style=style),
            opening,
        )
    # Begun from a code: replayed from its start, so undo and restart reach back.
    session = PlaySession(Game.start(saved.first), words=words, style=style, start=saved.start)
    session.fast_forward(saved.line)
    try:
        session.fast_forward(parse_line(after))
    except SpiderError as err:
        raise SpiderError(f"--after: {err}") from None
    return session, opening


def _after(game: Game, after: str) -> Game:
    if not after.strip():
        return game
    try:
        return replay(game.position, after, game)
    except SpiderError as err:
        raise SpiderError(f"--after: {err}") from None


@contextmanager
def _ctrl_c_ends_the_game():
    """Ctrl-C, at the prompt or during a hint's search, ends the game (status 0); a
    kill (``Terminated``) ends the command, whose status says so."""
    try:
        yield
    except KeyboardInterrupt as err:
        click.echo()
        if isinstance(err, Terminated):
            raise


ECHO_LIMIT = 1000  # characters of a piped command echoed after '> '
COMMAND_LIMIT = 100_000  # characters: a longer line is no command (a whole game's line is ~1,000)


def _read_command() -> str | None:
    """The next line of standard input, or None at its end; for a line longer
    than ``COMMAND_LIMIT``, read past in pieces and never held whole, ``""``
    (a blank line comes back as ``"\\n"``)."""
    line = sys.stdin.readline(COMMAND_LIMIT + 1)
    if not line:
        return None
    if len(line) > COMMAND_LIMIT and not line.endswith("\n"):
        rest = line
        while rest and not rest.endswith("\n"):
            rest = sys.stdin.readline(1 << 16)
        return ""  # too long: reported by the caller
    return line


def _play_from_a_pipe(session: PlaySession) -> None:
    with _ctrl_c_ends_the_game():
        while not session.finished:
            command = _read_command()
            if command is None:
                break
            if command == "":
                click.echo(
                    f"refused: a line of more than {COMMAND_LIMIT:,} characters is no command"
                )
                continue
            command = command.strip(" \t\r\n")  # ASCII white space, as the commands
            if command:  # echoed whole, but a line longer than any command is cut
                click.echo(f"> {shown(command, ECHO_LIMIT)}")
            answer = session.handle(command)
            if answer:
                click.echo(answer)


def _play_on_a_terminal(session: PlaySession) -> None:
    """Read commands with prompt-toolkit: line editing, history (up/down), completion."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import WordCompleter
    from prompt_toolkit.history import InMemoryHistory

    prompt = PromptSession(
        history=InMemoryHistory(),
        completer=WordCompleter(COMMAND_WORDS, sentence=True),
        complete_while_typing=False,
    )
    with _ctrl_c_ends_the_game():
        while not session.finished:
            try:
                command = prompt.prompt("> ")
            except EOFError:  # Ctrl-D ends the game
                click.echo()
                break
            answer = session.handle(command)
            if answer:
                click.echo(answer)


COMMANDS = [play]
