"""Options and helpers shared by the commands."""

from __future__ import annotations

import json
import math

import click

from ..errors import SpiderError
from ..state import Game, Position, load_source, replay

source_argument = click.argument("source", metavar="SOURCE")
after_option = click.option("--after", "after", default="", metavar="LINE",
                            help="Play these actions from SOURCE first (e.g. '1>8 deal').")
json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
words_option = click.option("--words", is_flag=True,
                            help="Say it in plain words (with --json: a \"words\" key too).")
html_option = click.option("--html", "html_path", default=None, metavar="FILE",
                           type=click.Path(dir_okay=False),
                           help="Write a solution page (one HTML file, no network) to FILE.")
no_color_option = click.option("--no-color", "no_color", is_flag=True,
                               help="Plain text: no colour, no suit symbols (NO_COLOR too).")


def node_count(text, option: str = "--nodes", low: int = 1) -> int:
    """``1000000``, ``1_000_000``, ``1,000,000`` or ``1e6``, from ``low`` to MAX_NODES."""
    from ..search.solver import MAX_NODES

    token = str(text).strip().replace("_", "").replace(",", "")
    try:
        value = float(token) if any(c in token for c in ".eE") else int(token)
    except ValueError:
        raise SpiderError(f"{option}: '{text}' is not a node count") from None
    if not math.isfinite(value) or not low <= value <= MAX_NODES or value != int(value):
        raise SpiderError(f"{option}: '{text}' is not a whole node count from {low} to "
                          f"{MAX_NODES}")
    return int(value)


class NodeCount(click.ParamType):
    """A click type for node counts: ``node_count`` with the option's name."""

    name = "N"

    def __init__(self, low: int = 1):
        self.low = low

    def convert(self, value, param, ctx):
        option = param.opts[0] if param is not None and param.opts else "--nodes"
        return node_count(value, option, self.low)


def _memory_size(ctx, param, value):
    if value is None:
        return None
    from ..search.memory import parse_size

    return parse_size(value)


memory_option = click.option(
    "--memory", default=None, metavar="SIZE", callback=_memory_size,
    help="The most memory the search may take, like 4G or 500M [default: the memory "
         "available]; a node limit that may need more is refused.")


def check_search_memory(nodes: int, memory: int | None, processes: int = 1,
                        option: str = "--nodes", memory_option: bool = True,
                        threads: bool = False) -> None:
    """Refuse a node limit that may not fit (``search.memory.check_memory``)."""
    from ..search.memory import check_memory

    check_memory(nodes, memory, processes, option, memory_option, threads)


def start_game(source: str, after: str = "") -> tuple[Game, str]:
    """The game named by SOURCE, with the ``--after`` line played.

    An illegal action in ``--after`` is an error naming its index and rule.
    """
    position, name = load_source(source)
    game = Game.start(position)
    if after.strip():
        try:
            game = replay(position, after)
        except SpiderError as err:
            raise SpiderError(f"--after: {err}") from None
    return game, name


def echo_json(obj) -> None:
    click.echo(json.dumps(obj, sort_keys=False))


def fail(message: str) -> None:
    """Print one ``error:`` line on stderr and exit with status 2."""
    click.echo(f"error: {message}", err=True)
    raise SystemExit(2)


def needs_full_knowledge(position: Position, what: str) -> None:
    if position.has_unknown:
        fail(f"the position has unknown cards (??), so it cannot be {what} with full "
             "knowledge: give the game code with --after LINE instead")


def announce_compile(package: str = "search", kernel: str = "search",
                     shorten: bool = False) -> None:
    """Say on stderr, once, that the first run compiles the numba kernels.

    ``shorten``: the line-shortening beam (``search/_lines.py``) is needed too.
    """
    from ..search.compiled import is_compiled

    missing = not is_compiled(package, kernel)
    if shorten:
        missing = missing or not is_compiled("search", "beam", "_lines")
    if missing:
        click.echo("compiling the numba kernels (first run only; numba caches them)...",
                   err=True)
