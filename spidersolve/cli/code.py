"""``spidersolve code`` and ``spidersolve codes``: game codes from deal numbers."""

from __future__ import annotations

import click

from ..errors import SpiderError
from ..state import GameCode
from ..state.codes import MAX_DEAL
from .options import Whole

suits_option = click.option(
    "--suits", type=click.Choice(["1", "2", "4"]), required=True, help="Number of suits: 1, 2 or 4."
)
relaxed_option = click.option(
    "--relaxed", is_flag=True, help="Relaxed rules (mixed-suit runs move); default Classic."
)


def rules_of(relaxed: bool) -> str:
    return "relaxed" if relaxed else "classic"


@click.command("code")
@suits_option
@relaxed_option
@click.option(
    "--deal",
    "deal_number",
    type=Whole(0, MAX_DEAL),
    required=True,
    help=f"Deal number, 0 .. {MAX_DEAL}.",
)
def code(suits, relaxed, deal_number):
    """Print the game code of one deal number."""
    click.echo(GameCode(int(suits), rules_of(relaxed), deal_number).text())


@click.command("codes")
@suits_option
@relaxed_option
@click.option(
    "--start",
    type=Whole(0, MAX_DEAL),
    default=0,
    show_default=True,
    help="First deal number.",
)
@click.option(
    "--count", type=Whole(min=0), required=True, help="How many consecutive deal numbers."
)
def codes(suits, relaxed, start, count):
    """Print COUNT game codes for consecutive deal numbers, one per line."""
    if start + count - 1 > MAX_DEAL:
        raise SpiderError(
            f"--start {start} --count {count} goes past the last deal number {MAX_DEAL}"
        )
    rules = rules_of(relaxed)
    for n in range(start, start + count):
        click.echo(GameCode(int(suits), rules, n).text())


COMMANDS = [code, codes]
