"""Time of the reference rules' ``apply`` per action, and of the action check in it.

    python benchmarks/apply_speed.py [--code SP1-S4C-AAAAAAD] [--number 4000]

Every legal action of the start of ``--code`` is applied ``--number`` times;
the best of five repeats is printed per action, beside the time of
``as_action`` alone (the check of an action's fields, which ``apply`` runs
once) and its share of ``apply``. The honest advisor's breadth-first
searches and every replay run ``apply``. Not a test.
"""

from __future__ import annotations

import argparse
import timeit

from spidersolve.state import apply, as_position, legal_actions
from spidersolve.state.actions import as_action


def best_time(fn, number: int) -> float:
    return min(timeit.repeat(fn, number=number, repeat=5)) / number


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", default="SP1-S4C-AAAAAAD")
    parser.add_argument("--number", type=int, default=4000)
    args = parser.parse_args()
    position = as_position(args.code)
    actions = legal_actions(position)
    per_apply = best_time(lambda: [apply(position, a) for a in actions], args.number) / len(actions)
    per_check = best_time(lambda: [as_action(a) for a in actions], args.number) / len(actions)
    print(f"{args.code}: {len(actions)} legal actions")
    print(f"apply      {per_apply * 1e6:6.2f} us an action")
    print(f"as_action  {per_check * 1e6:6.2f} us an action ({per_check / per_apply:.1%} of apply)")


if __name__ == "__main__":
    main()
