"""``spidersolve show``: follow a line step by step, in the terminal or as a page."""

from __future__ import annotations

import os
import sys

import click

from ..board import terminal_style
from ..errors import Terminated
from ..show import Stepper, key_names, line_steps, step_text
from ..state import load_source
from .options import Whole, check_not_input, fail, html_option, no_color_option, source_argument

CLEAR = "\x1b[H\x1b[2J"


@click.command("show")
@source_argument
@click.argument("line", metavar="LINE")
@click.option(
    "--from",
    "start",
    type=Whole(),
    default=0,
    show_default=True,
    metavar="N",
    help="Start at step N (0 is the start, N the board after action N).",
)
@html_option
@no_color_option
def show(source, line, start, html_path, no_color):
    """Show the board after each action of LINE from SOURCE, with the action in words.

    On a terminal, one step a key: space or right arrow for the next step,
    left arrow to go back, q to quit. Piped, every step from --from on is
    printed in order. --html FILE writes a solution page instead (one file
    that opens in a browser, no network needed).
    """
    if html_path:
        check_not_input(html_path, source, "--html")
    position, name = load_source(source)
    steps = line_steps(position, line, name)
    total = len(steps) - 1
    if not 0 <= start <= total:
        fail(f"--from {start}: the line has steps 0..{total}")
    if html_path:
        from ..page import write_solution_page

        path = write_solution_page(html_path, steps, page_title(name, total), start)
        click.echo(f"wrote {path}: {total} step{'s' if total != 1 else ''}")
        return
    style = terminal_style(sys.stdout, no_color)
    if sys.stdin.isatty() and sys.stdout.isatty():
        step_on_keys(Stepper(steps, start, style))
        return
    click.echo("\n\n".join(step_text(s, total, style) for s in steps[start:]))


def page_title(name: str, total: int) -> str:
    where = name if name and name != "-" else "a position"
    return f"{where}: a line of {total} action{'s' if total != 1 else ''}"


def step_on_keys(stepper: Stepper) -> None:
    """Show one step per key, reading keys from the terminal without echo."""
    import termios
    import tty

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    out = sys.stdout
    try:
        tty.setcbreak(fd)
        while True:
            out.write(CLEAR + stepper.screen() + "\n")
            out.flush()
            data = os.read(fd, 16)
            if not data:
                break
            if not all(stepper.press(key) for key in key_names(data)):  # q among them: stop
                break
    except KeyboardInterrupt as err:  # Ctrl-C ends the stepping like q
        if isinstance(err, Terminated):  # kill: the terminal back (finally), then its status
            out.write("\n")
            raise
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
    out.write("\n")
    out.flush()


COMMANDS = [show]
