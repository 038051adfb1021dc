"""The click group; each command lives in its own module of this package."""

from __future__ import annotations

import importlib
import sys

import click

from .. import __version__
from ..errors import SpiderError

# Command modules, each defining a click command named like the module.
COMMANDS = ["deal", "actions", "replay", "perft", "code"]


class SpiderGroup(click.Group):
    """Turns every user error into one ``error:`` line and exit status 2."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except SpiderError as err:
            click.echo(f"error: {err}", err=True)
            ctx.exit(2)
        except (OSError, MemoryError) as err:
            click.echo(f"error: {err}", err=True)
            ctx.exit(2)


@click.group(cls=SpiderGroup)
@click.version_option(__version__, prog_name="spidersolve")
def cli():
    """Spider Solitaire: deals, rules, a proving solver, hints and win rates."""


for _name in COMMANDS:
    _module = importlib.import_module(f"{__package__}.{_name}")
    for _command in _module.COMMANDS:
        cli.add_command(_command)


def main(argv=None):
    try:
        cli.main(args=argv, prog_name="spidersolve", standalone_mode=True)
    except KeyboardInterrupt:
        click.echo("error: interrupted", err=True)
        sys.exit(130)
