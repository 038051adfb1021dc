"""``spidersolve solve`` and ``spidersolve hint``."""

from __future__ import annotations

import click

from ..board import plural
from ..errors import SpiderError
from ..search import DEFAULT_NODES, HINT_NODES, hint, solve
from ..search.heuristic import names_text
from ..search.honest import DEFAULT_SEED, HONEST_NODES, HONEST_SAMPLES
from ..search.memory import NODE_COST_TEXT
from ..state import Game, line_text
from ..state.visible import unknown_count, visible_of
from ..state.words import line_sentences
from .options import (
    NodeCount,
    SearchName,
    Whole,
    after_option,
    announce_compile,
    check_known_memory,
    check_not_input,
    check_search_memory,
    echo_json,
    given_options,
    honest_threads,
    html_option,
    json_option,
    memory_option,
    needs_full_knowledge,
    search_memory_option,
    source_argument,
    start_game,
    words_option,
)


def _nodes_option(default):
    return click.option(
        "--nodes",
        type=NodeCount(),
        default=default,
        show_default=True,
        help=f"Node limit: positions expanded (1e6 works; {NODE_COST_TEXT}).",
    )


def _prepare(
    source,
    after,
    nodes,
    memory,
    shorten: bool = False,
    prove: bool = False,
    search_memory: int | None = None,
) -> tuple[Game, str]:
    game, name = start_game(source, after)
    needs_full_knowledge(game.position, "solved")
    # --prove takes no --search-memory
    check_search_memory(nodes, memory, search_memory=search_memory, cap_option=not prove)
    if prove:
        from ..search.prove import walk_memory

        walk_memory(memory)  # a refusal is the only line printed
    announce_compile(shorten=shorten, walk=prove)
    return game, name


def _write_page(path, game: Game, line, name: str, after: str) -> str:
    """Write the solution page of a won line; the line to print about it."""
    from ..page import write_solution_page
    from ..show import line_steps

    where = name if name != "-" else "a position"
    if after.strip():
        where += " after " + after.strip()
    steps = line_steps(game, line, where)
    total = len(steps) - 1
    written = write_solution_page(
        path, steps, f"{where}: a winning line of {total} action{'s' if total != 1 else ''}"
    )
    return f"page: {written}"


@click.command("solve")
@source_argument
@after_option
@_nodes_option(DEFAULT_NODES)
@memory_option
@search_memory_option
@words_option
@html_option
@click.option(
    "--shorten",
    is_flag=True,
    help="Look for a shorter winning line after the search (a beam search seeded "
    "with the line; typically half a second more).",
)
@click.option(
    "--prove",
    is_flag=True,
    help="If the search says unknown, walk every reachable position (16 bytes "
    "each, up to --memory) to prove the deal won or lost; see docs/proving.md.",
)
@click.option(
    "--search",
    "search",
    type=SearchName(),
    default="default",
    show_default=True,
    help="The search configuration: " + names_text() + ". kp300 and macro win many of "
    "the deals the default leaves unknown, the beams some of the rest (docs/solve.md).",
)
@json_option
def solve_command(
    source, after, nodes, memory, search_memory, words, html_path, shorten, prove, search, as_json
):
    """Prove SOURCE won (with a winning line), lost, or say unknown.

    SOURCE is a game code (SP1-S1C-AAAAAAD), pysol:SUITS:NUMBER, a position
    file or - for standard input. The line is replayed with the reference
    rules before it is printed. --html FILE also writes the winning line as a
    solution page (see 'spidersolve show').
    """
    other_search = search != "default"
    if prove and (words or html_path or shorten or search_memory is not None or other_search):
        given = [
            n
            for n, v in (
                ("--words", words),
                ("--html", html_path),
                ("--shorten", shorten),
                ("--search-memory", search_memory is not None),
                ("--search", other_search),
            )
            if v
        ]
        which = "it" if len(given) == 1 else "them"
        raise SpiderError(
            f"--prove does not combine with {', '.join(given)}: run --prove without "
            f"{which}, or solve without --prove to use {which}"
        )
    if html_path:
        check_not_input(html_path, source, "--html")
    game, name = _prepare(source, after, nodes, memory, shorten, prove, search_memory)
    if prove:
        _prove(game, nodes, memory, as_json)
        return
    weights = search if other_search else None
    result = solve(game, nodes=nodes, weights=weights, shorten=shorten, memory=search_memory)
    page = None
    if html_path and result.verdict == "won":
        page = _write_page(html_path, game, result.line, name, after)
    if as_json:
        obj = result.as_dict()
        if words:  # each action of the line in words, or null unless won
            obj["words"] = line_sentences(game, result.line) if result.verdict == "won" else None
        echo_json(obj)
        return
    click.echo(f"verdict: {result.verdict}")
    click.echo(f"nodes: {result.nodes}")
    click.echo(f"seconds: {result.seconds:.3f}")
    if result.verdict == "won":
        click.echo(f"moves: {result.moves}")
        click.echo(f"score: {result.score}")
        click.echo(f"line: {result.line_text}")
        if words:
            for i, (action, text) in enumerate(
                zip(result.line, line_sentences(game, result.line)), start=1
            ):
                click.echo(f"{i}. {action.text()}: {text}")
        if page:
            click.echo(page)
        return
    if result.verdict == "lost":
        click.echo("no winning line exists: the search was exhaustive")
    elif result.memory_full:
        from ..search.memory import size_text

        click.echo(
            f"no proof within {plural(result.nodes, 'node')}: the search's arrays reached "
            f"--search-memory {size_text(search_memory)} before --nodes {nodes}; "
            "raise --search-memory, or --prove to walk every position"
        )
    else:
        stopped = (
            f" (the default's phases stopped before --nodes {nodes}: docs/solver.md)"
            if result.nodes < nodes
            else ""
        )
        click.echo(
            f"no proof within {plural(result.nodes, 'node')}{stopped}: try a larger --nodes, "
            + _further_searches(search)
            + "or --prove to walk every position"
            + ("" if search == "default" else " (without --search: the walk is every search's)")
        )
    if html_path:
        click.echo("page: not written (no winning line)")


def _further_searches(search: str) -> str:
    """The searches to try after ``search`` left a deal unknown, as the advice says them."""
    from ..search.heuristic import NOISE_MAX, NOISY

    if search == "default":
        return (
            "another --search (kp300, macro, beam_1500, beam_5000, kp_beam_5000, "
            "kp300_n1 .. _n9, kp300_n5_s1 .. _s60, beam_1500_n1 .. _n9), "
        )

    def after(n: int) -> int:  # past the last noise or seed, back to the first
        return n + 1 if n < NOISE_MAX else 1

    noisy = NOISY.fullmatch(search)
    if noisy and noisy["seed"]:  # the same noise drawn with the next seed
        then = f"{noisy['base']}_n{noisy['noise']}_s{after(int(noisy['seed']))}"
    elif noisy:
        then = f"{noisy['base']}_n{after(int(noisy['noise']))}"
    else:
        then = f"{search}_n1"
    return f"the same search with other noise (--search {then}), "


def _prove(game: Game, nodes: int, memory: int | None, as_json: bool) -> None:
    """``solve --prove``: the search, then (if unknown) the exhaustive walk."""
    from ..search.prove import prove, walk_memory

    memory = walk_memory(memory)  # a refusal is the only line printed
    if not as_json:
        click.echo(
            "proving: the search first, then, if it says unknown, a walk over every "
            "position (Ctrl-C stops it)",
            err=True,
        )
    try:
        result = prove(game, memory=memory, search_nodes=nodes)
    except KeyboardInterrupt as stop:  # the walk's figures so far, then the one error line
        found = getattr(stop, "proof", None)
        if found is not None:
            _show_proof(found, as_json)
        raise
    _show_proof(result, as_json)


def _show_proof(result, as_json: bool) -> None:
    """Print what ``prove`` found, as text or as JSON."""
    from ..search.memory import size_text

    if as_json:
        echo_json(result.as_dict())
        return
    click.echo(f"verdict: {result.verdict}")
    click.echo(f"settled by: {result.by}")
    click.echo(f"search nodes: {result.search_nodes}")
    if result.by == "walk":
        click.echo(
            f"walk: {result.nodes:,} positions entered, {result.seen:,} seen, "
            f"deepest path {result.max_depth:,} actions, {size_text(result.memory)}"
        )
    click.echo(f"seconds: {result.seconds:.3f}")
    if result.verdict == "won":
        click.echo(f"moves: {len(result.line)}")
        click.echo(f"score: {result.score}")
        click.echo(f"line: {line_text(result.line)}")
    elif result.verdict == "lost":
        click.echo("no winning line exists: every reachable position was walked")
    else:
        advice = "run it again (it starts over)" if result.why == "stopped" else "raise --memory"
        click.echo(f"no proof: the walk gave up ({result.why}); {advice}")


def not_honest(unknown_cards: bool = True) -> None:
    """Refuse the honest player's options (--samples, --seed) given to a
    full-knowledge hint or game. ``unknown_cards``: a position with ``??``
    would take them too (a hint, not a game)."""
    options = given_options("samples", "seed")
    if options:
        also = " (or a position with unknown cards, ??)" if unknown_cards else ""
        raise SpiderError(f"{' and '.join(options)}: for --honest{also}")


def honest_options(fn):
    """--samples and --seed, shared by the honest commands."""
    fn = click.option(
        "--seed",
        type=Whole(0, 2**64 - 1),  # as advise takes it; a batch stores it as int64
        default=DEFAULT_SEED,
        show_default=True,
        help="Seed of the samples of the hidden cards (honest play).",
    )(fn)
    return click.option(
        "--samples",
        type=Whole(1, 10_000),
        default=HONEST_SAMPLES,
        show_default=True,
        help="Samples of the hidden cards per decision (honest play).",
    )(fn)


@click.command("hint")
@source_argument
@after_option
@click.option(
    "--nodes",
    type=NodeCount(),
    default=None,
    help="Node limit: positions expanded (1e6 works; " + NODE_COST_TEXT + "). "
    f"[default: {HINT_NODES}; honest: per sample, "
    + ", ".join(f"{n} for {s} suit{'s' if s > 1 else ''}" for s, n in HONEST_NODES.items())
    + "]",
)
@memory_option
@click.option("--line", "show_line", is_flag=True, help="Print the whole winning line.")
@click.option(
    "--honest",
    is_flag=True,
    help="Advise from what a player sees only: every face-down and stock card hidden "
    "(SPEC section 11), even one a position with ?? names. Without it, a position "
    "with unknown cards (??) gets an honest hint that uses the cards it names.",
)
@honest_options
@json_option
def hint_command(source, after, nodes, memory, show_line, honest, samples, seed, as_json):
    """The next action to play: the first action of a proven winning line.

    Use --after with the actions already played from SOURCE to get a hint in
    the middle of a game. With --honest, or for a position with unknown
    cards (??), the hint sees only what a player sees: it samples the hidden
    cards and solves the samples (status honest, with the share of samples
    won after the action).
    """
    game, _name = start_game(source, after)
    hide = honest  # --honest: the visible position alone, even the cards a ?? position names
    honest = honest or game.position.has_unknown
    if honest and show_line:
        raise SpiderError(
            "--line: an honest hint has no winning line to print (it sees only what a player sees)"
        )
    if not honest:
        not_honest()
    if honest:
        if unknown_count(visible_of(game.position) if hide else game.position) == 0:
            check_known_memory(nodes, memory)  # nothing hidden: one search decides
        workers = honest_threads(nodes or HONEST_NODES[game.position.suits], memory)
        announce_compile()
        _honest_hint(game, nodes, samples, seed, as_json, workers, hide)
        return
    check_search_memory(nodes or HINT_NODES, memory)
    announce_compile()
    result = hint(game, nodes=nodes or HINT_NODES)
    if as_json:
        echo_json(result.as_dict())
        return
    status = result.status
    if status == "won":
        click.echo("won: the game is already won")
    elif status == "stuck":
        click.echo("stuck: no legal action is left, so the game is lost")
    elif status == "lost":
        click.echo(
            "lost: no winning line exists from here (searched all "
            f"{plural(result.nodes, 'position')})"
        )
    elif status == "proven":
        click.echo(f"{result.action.text()}: {result.words}")
        click.echo(
            f"proven: the first action of a winning line of "
            f"{plural(result.line_length, 'action')} ({result.nodes} nodes)"
        )
        if show_line:
            click.echo("line: " + line_text(result.line))
    else:
        click.echo(f"{result.action.text()}: {result.words}")
        click.echo(
            f"unproven: no winning line found within "
            f"{plural(nodes or HINT_NODES, 'node')}; this is the search's best guess. "
            "Try a larger --nodes."
        )


def _honest_hint(game, nodes, samples, seed, as_json, workers: int = 1, hide: bool = False) -> None:
    from ..search.honest import advise
    from ..state.visible import visible_of

    # advise hides every face-down and stock card of a full position; a position with
    # ?? keeps the hidden cards it names (cards a player noted, SPEC section 11) unless
    # --honest asks for the visible position alone
    position = visible_of(game.position) if hide else game.position
    result = advise(position, samples=samples, seed=seed, nodes=nodes, workers=workers)
    if as_json:
        echo_json(result.as_dict())
        return
    if result.status == "won":
        click.echo("won: the game is already won")
        return
    if result.status == "stuck":
        click.echo("stuck: no legal action is left, so the game is lost")
        return
    click.echo(f"{result.action.text()}: {result.words}")
    if result.samples == 0:  # nothing hidden: one full-knowledge search decided
        click.echo(
            "honest: no card is hidden, so one search decided: "
            + ("a win follows" if result.wins else "no win found")
            + f"; {plural(result.nodes, 'node')}, {result.seconds:.2f} s"
        )
        if len(result.plan) > 1:
            click.echo(f"plan: {line_text(result.plan)}")
        return
    click.echo(
        f"honest: {result.wins} of {result.scored} samples won after it "
        f"({100 * result.win_estimate:.0f}%); {plural(result.samples, 'sample')} of the hidden "
        f"cards, {plural(result.candidates, 'candidate')}, "
        f"{plural(result.nodes, 'node')}, {result.seconds:.2f} s"
    )
    if len(result.plan) > 1:
        click.echo(f"plan: {line_text(result.plan)} (up to the first card it turns up)")


COMMANDS = [solve_command, hint_command]
