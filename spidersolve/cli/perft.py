"""``spidersolve perft``: count action sequences, with the reference or the kernel engine."""

from __future__ import annotations

import time

import click

from ..state import perft as reference
from .options import (
    Whole,
    after_option,
    announce_compile,
    echo_json,
    json_option,
    needs_full_knowledge,
    source_argument,
    start_game,
)

# Counts grow about 8-fold a level: depth 6 is 0.25-1 million sequences, 10
# some billions (minutes with the kernel); deeper would run for days.
MAX_DEPTH = 10


def engine_functions(engine: str):
    """(perft, divide, engine name) for ``reference`` or ``kernel``."""
    if engine == "kernel":
        from ..state import kernel

        announce_compile("state", "perft")
        return kernel.perft, kernel.divide, "kernel"
    return reference.perft, reference.divide, "reference"


@click.command("perft")
@source_argument
@click.argument("depth", type=Whole(min=0, max=MAX_DEPTH))
@click.option(
    "--divide", "by_action", is_flag=True, help="Also print 'ACTION: count' for each first action."
)
@click.option(
    "--engine",
    type=click.Choice(["reference", "kernel"], case_sensitive=False),
    default="kernel",
    show_default=True,
    help="Pure-Python reference rules or the numba kernels.",
)
@after_option
@json_option
def perft(source, depth, by_action, engine, after, as_json):
    """Count the action sequences of length DEPTH (0 to 10) from SOURCE.

    Moves and deals both count; equal positions are not merged. The count
    is on the first line; --divide adds one line per first action.
    """
    game, _name = start_game(source, after)
    needs_full_knowledge(game.position, "counted")
    count, split, used = engine_functions(engine)
    start = time.perf_counter()
    if by_action:
        rows = split(game.position, depth)
        leaves = sum(n for _action, n in rows) if depth else 1
    else:
        rows = []
        leaves = count(game.position, depth)
    seconds = time.perf_counter() - start
    if as_json:
        obj = {"leaves": leaves, "seconds": round(seconds, 6), "engine": used}
        if by_action:
            obj["divide"] = {action.text(): n for action, n in rows}
        echo_json(obj)
        return
    click.echo(leaves)
    for action, n in rows:
        click.echo(f"{action.text()}: {n}")


COMMANDS = [perft]
