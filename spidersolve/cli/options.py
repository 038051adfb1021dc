"""Options and helpers shared by the commands."""

from __future__ import annotations

import json
import math
import os
import re

import click

from ..errors import SpiderError, comma_items, error_line, shown
from ..state import Game, Position, load_source, replay
from ..state.codes import RULES

source_argument = click.argument("source", metavar="SOURCE")
after_option = click.option(
    "--after",
    "after",
    default="",
    metavar="LINE",
    help="Play these actions from SOURCE first (e.g. '1>8 deal').",
)
json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
words_option = click.option(
    "--words", is_flag=True, help='Say it in plain words (with --json: a "words" key too).'
)


def given_options(*names: str) -> list[str]:
    """The options among the parameters ``names`` that the command line set,
    as the user wrote them (``--samples``), so that a command can refuse one
    that has no effect."""
    from click.core import ParameterSource

    ctx = click.get_current_context()
    return [
        param.opts[0]
        for param in ctx.command.params
        if param.name in names
        and ctx.get_parameter_source(param.name)
        in (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT)
    ]


class Whole(click.IntRange):
    """``click.IntRange`` (no bounds unless given) for a number in ASCII digits:
    Python's ``int`` would also take ``３`` (full width), ``1_000`` and ``+2``,
    which no other number of the command line takes.

    >>> Whole(0, 10).convert("7", None, None)
    7
    """

    name = "integer"

    def _describe_range(self) -> str:
        """The range a help text shows: none without bounds (click says ``x<=None``)."""
        if self.min is None and self.max is None:
            return ""
        return super()._describe_range()

    def convert(self, value, param, ctx):
        if isinstance(value, str):
            text = value.strip(" \t")
            if not re.fullmatch(r"-?[0-9]+", text):
                self.fail(f"'{shown(value)}' is not a whole number in the digits 0-9", param, ctx)
            sign, digits = ("-", text[1:]) if text.startswith("-") else ("", text)
            digits = digits.lstrip("0") or "0"  # 0003 is 3, however many zeros
            if len(digits) > 40:  # past every bound here, and past what int() reads
                bounds = self._describe_range()
                self.fail(
                    f"'{shown(value)}' is not in the range {bounds}"
                    if bounds
                    else f"'{shown(value)}' is too large a number",
                    param,
                    ctx,
                )
            value = sign + digits
        return super().convert(value, param, ctx)


class OutputPath(click.ParamType):
    """A click type for a file (or, with ``folder``, a folder) a command will
    write: refused at once, with one line, when it cannot be (``files.output_problem``).

    ``dash``: ``-`` is standard output; without it ``-`` is refused, not
    taken as a file of that name (``./-`` is one). ``results``: a folder of results
    (``batch --out``) that is there already may be read-only, since a run
    with nothing left to do writes nothing; the batch refuses it when it has
    work (``ResultStore.open_for_writing``).
    """

    def __init__(self, folder: bool = False, dash: bool = False, results: bool = False):
        self.folder = folder
        self.dash = dash
        self.results = results
        self.name = "DIR" if folder else "FILE"

    def convert(self, value, param, ctx):
        from ..files import output_problem

        option = param.opts[0] if param is not None and param.opts else "--out"
        text = str(value)
        if text == "-":
            if self.dash:
                return text
            raise SpiderError(  # elsewhere '-' is standard output: never a file so named
                f"{option}: '-' is standard output elsewhere, and {option} writes a "
                f"{'folder' if self.folder else 'file'}: give a name (./- names one called -)"
            )
        problem = output_problem(text, folder=self.folder, read_only_ok=self.results)
        if problem:
            raise SpiderError(f"{option}: {problem}")
        return text


def check_not_input(path: str, source, option: str) -> None:
    """Refuse, with one line, a file to write that would replace what the command
    reads (``files.input_problem``): SOURCE's position file, or RESULTS."""
    from ..files import input_problem

    what = "the results" if os.path.isdir(str(source)) else "the file"
    problem = input_problem(path, str(source), what)
    if problem:
        raise SpiderError(f"{option}: {problem}")


html_option = click.option(
    "--html",
    "html_path",
    default=None,
    metavar="FILE",
    type=OutputPath(),
    help="Write a solution page (one HTML file, no network) to FILE.",
)
no_color_option = click.option(
    "--no-color",
    "no_color",
    is_flag=True,
    help="Plain text: no colour, no suit symbols (NO_COLOR too).",
)


# a node count as written: digits (ASCII), grouped by threes with commas or
# underscores, or a decimal with an exponent (1e6, 1.5e6)
_NODE_COUNT = re.compile(
    r"[0-9]+|[0-9]{1,3}(?:,[0-9]{3})+|[0-9]{1,3}(?:_[0-9]{3})+"
    r"|(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
)


def node_count(
    text, option: str = "--nodes", low: int = 1, like: str = "1000000, 1,000,000 or 1e6"
) -> int:
    """``1000000``, ``1_000_000``, ``1,000,000`` or ``1e6``, from ``low`` to MAX_NODES.

    Groups are of three digits (``1,00`` is an error, not 100), digits ASCII.
    ``like``: the examples the error gives.
    """
    from ..verdict import MAX_NODES

    token = str(text).strip()
    if not _NODE_COUNT.fullmatch(token):
        raise SpiderError(f"{option}: '{shown(str(text))}' is not a node count (like {like})")
    plain = token.replace("_", "").replace(",", "")
    if any(c in plain for c in ".eE"):
        value = float(plain)
    else:
        value = int(plain) if len(plain.lstrip("0")) <= 20 else math.inf
    if not math.isfinite(value) or not low <= value <= MAX_NODES or value != int(value):
        raise SpiderError(
            f"{option}: '{shown(str(text))}' is not a whole node count from {low} to {MAX_NODES}"
        )
    return int(value)


class NodeCount(click.ParamType):
    """A click type for node counts: ``node_count`` with the option's name."""

    name = "N"

    def __init__(self, low: int = 1):
        self.low = low

    def convert(self, value, param, ctx):
        option = param.opts[0] if param is not None and param.opts else "--nodes"
        return node_count(value, option, self.low)


class SearchName(click.ParamType):
    """A click type for search configurations: a name ``search.heuristic.preset`` takes."""

    name = "NAME"

    def convert(self, value, param, ctx):
        from ..search.heuristic import preset

        name = str(value).strip().lower()
        try:
            preset(name)
        except ValueError as error:
            raise SpiderError(f"--search: {error}") from None
        return name


# -- lists of values (batch, stats) -------------------------------------------------


def parse_suits(text: str) -> list[int]:
    """``"1,2,4"`` -> ``[1, 2, 4]``; anything but 1, 2 and 4 is an error."""
    out = []
    for token in _tokens(text, "--suits"):
        if token not in ("1", "2", "4"):
            raise SpiderError(f"--suits: '{token}' is not a suit count (1, 2 or 4)")
        if int(token) not in out:
            out.append(int(token))
    return sorted(out)


def parse_rules(text: str) -> list[str]:
    """``"classic,relaxed"`` -> ``["classic", "relaxed"]``."""
    out = []
    for token in _tokens(text, "--rules"):
        rules = token.lower()
        if rules not in RULES:
            raise SpiderError(f"--rules: '{token}' is not a rule variant (classic or relaxed)")
        if rules not in out:
            out.append(rules)
    return sorted(out)


def parse_deals(text: str) -> list[int]:
    """Deal numbers from ``"A:B"`` (A up to B-1), ``"N"`` or a comma list of both.

    At most ``MAX_TASKS`` of them, counted before any list is built.

    >>> parse_deals("0:3,7")
    [0, 1, 2, 7]
    """
    from ..stats.plan import MAX_TASKS, deal_count, deal_numbers, deal_ranges

    try:
        ranges = deal_ranges(text)
    except SpiderError as err:
        raise SpiderError(f"--deals: {err}") from None
    # counted before anything is built: a range of billions is refused, not planned
    total = deal_count(ranges)
    if total > MAX_TASKS:
        raise SpiderError(
            f"--deals: {total:,} deals is more than one run plans (at most "
            f"{MAX_TASKS:,}); split the range into several runs into the same "
            "--out"
        )
    return deal_numbers(ranges)


def _tokens(text: str, option: str) -> list[str]:
    try:
        return comma_items(text)
    except SpiderError as err:
        raise SpiderError(f"{option}: {err}") from None


def parse_by(text) -> list[str]:
    """``"suits,rules"`` -> ``["suits", "rules"]``, checked against the columns."""
    from ..stats.winrates import by_columns

    try:
        return by_columns(text)
    except SpiderError as err:
        raise SpiderError(f"--by: {err}") from None


def parse_budgets(text) -> list[int]:
    """``"167000,1e6"`` -> ``[167000, 1000000]`` (sorted, each a node count as
    ``--nodes`` takes it, without the commas that part the list)."""
    if text is None:  # not given; given empty, it is refused as --by and --deals are
        return []
    like = "1000000, 1_000_000 or 1e6"  # commas part the list
    return sorted(
        {node_count(token, "--budgets", like=like) for token in _tokens(text, "--budgets")}
    )


# -- search limits -------------------------------------------------------------------


def _memory_size(ctx, param, value):
    if value is None:
        return None
    from ..search.memory import parse_size

    return parse_size(value)


memory_option = click.option(
    "--memory",
    default=None,
    metavar="SIZE",
    callback=_memory_size,
    help="The most memory the search may take, like 4G or 500M [default: the memory "
    "available]; a node limit that may need more is refused.",
)


# below this a search's starting arrays (about 11 MB) would not fit
MIN_SEARCH_MEMORY = 16 * 2**20


def _search_memory(ctx, param, text):
    """``--search-memory`` in bytes (None if not given)."""
    if text is None:
        return None
    from ..search.memory import parse_size, size_text

    value = parse_size(text, "--search-memory")  # below 2**60: parse_size says so
    if value < MIN_SEARCH_MEMORY:
        raise SpiderError(
            f"--search-memory: at least {size_text(MIN_SEARCH_MEMORY)}, not '{text}' "
            "(a search starts with about 11 MB of arrays)"
        )
    return value


search_memory_option = click.option(
    "--search-memory",
    default=None,
    metavar="SIZE",
    callback=_search_memory,
    help="Cap each search's arrays at SIZE, like 10G: a search that would grow past "
    "it stops unknown with fewer nodes than the limit, so the limit may go beyond "
    "what 1.5 KB a node allows [default: no cap].",
)


def check_search_memory(
    nodes: int,
    memory: int | None,
    processes: int = 1,
    option: str = "--nodes",
    memory_option: bool = True,
    threads: bool = False,
    search_memory: int | None = None,
    cap_option: bool = False,
    subject: str | None = None,
) -> None:
    """Refuse a node limit that may not fit (``search.memory.check_memory``)."""
    from ..search.memory import check_memory

    check_memory(
        nodes,
        memory,
        processes,
        option,
        memory_option,
        threads,
        search_memory,
        cap_option,
        subject,
    )


def honest_threads(nodes: int, memory: int | None) -> int:
    """The threads for the honest advisor's sample searches of ``nodes`` nodes: one a
    core, fewer when that many may not fit in memory (said on stderr; the decisions
    are the same for any number). Not even one that fits is an error."""
    from ..board import plural
    from ..search.honest import default_workers
    from ..search.memory import available_bytes, needed_bytes, size_text, threads_that_fit

    check_search_memory(nodes, memory)
    cores = default_workers()
    fit = threads_that_fit(nodes, cores, memory)
    if fit < cores:
        cap = memory if memory is not None else available_bytes()
        where = (
            f"the --memory cap of {size_text(cap)}"
            if memory is not None
            else f"{size_text(cap)} available"
        )
        each = needed_bytes(nodes) - needed_bytes(0)
        click.echo(
            f"note: {plural(fit, 'sample search', 'sample searches')} side by side, not "
            f"{cores}: each of {nodes} nodes "
            f"may need {size_text(each)} beside the process, {where}",
            err=True,
        )
    return fit


def check_known_memory(nodes: int | None, memory: int | None) -> None:
    """Refuse a ``--memory`` cap too small for the honest player's one search once no
    card is hidden (at least ``KNOWN_NODES``, whatever ``--nodes`` says)."""
    from ..search.honest import KNOWN_NODES

    check_search_memory(
        max(nodes or 0, KNOWN_NODES),
        memory,
        subject="the one search the player makes once no card is hidden",
    )


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
    """Print ``obj`` as one line of JSON, its keys in their order."""
    click.echo(json.dumps(obj, sort_keys=False))


def fail(message: str) -> None:
    """Print one ``error:`` line on stderr and exit with status 2."""
    click.echo(f"error: {error_line(message)}", err=True)
    raise SystemExit(2)


def needs_full_knowledge(position: Position, what: str) -> None:
    """Fail when ``position`` has unknown cards (``??``): it cannot be ``what`` (solved...)."""
    if position.has_unknown:
        fail(
            f"the position has unknown cards (??), so it cannot be {what} with full "
            "knowledge: give the game code with --after LINE instead"
        )


def announce_compile(
    package: str = "search", kernel: str = "search", shorten: bool = False, walk: bool = False
) -> None:
    """Say on stderr, once, that the first run compiles the numba kernels.

    ``package``/``kernel``: the kernel the command runs (``<package>/_kernels.py``).
    The search (``search``/``search``) compiles nothing when the compiled
    extension (``search/native.py``) runs it. ``shorten``: the line-shortening
    beam (``search/_lines.py``) runs too; ``walk``: the exhaustive walk of
    ``--prove`` (``search/_prove.py``). Nothing is said when every kernel the
    command needs is in numba's cache.
    """
    from ..search.compiled import drop_stale_caches, is_compiled

    needed = [(package, kernel, "_kernels")]
    if (package, kernel) == ("search", "search"):
        from ..search.native import native_kernel

        if native_kernel("search") is not None:
            needed = []
    if shorten:
        needed.append(("search", "beam", "_lines"))
    if walk:
        needed.append(("search", "prove", "_prove"))
    for folder in sorted({p for p, _k, _m in needed}):
        drop_stale_caches(folder)  # stale files would be compiled again (and said so each time)
    if any(not is_compiled(p, k, m) for p, k, m in needed):
        click.echo("compiling the numba kernels (first run only; numba caches them)...", err=True)
