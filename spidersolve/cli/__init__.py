"""The ``spidersolve`` command: a click group with one module per command."""
