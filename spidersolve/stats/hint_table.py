"""The hint table of batch results: the first action of each deal's winning line.

A hint is proven when the deal was won: its first action starts a winning
line of the length given. A lost deal gets no action. An unknown deal gets
no action either, unless ``suggest_nodes`` asks for a suggestion: a search
of that many nodes from the start gives its first action, never marked
proven (the result says unknown; a suggestion search that happens to win
is still only a suggestion here, with no line length).

>>> hints = hints_frame(load_results("results/"))   # doctest: +SKIP
"""

from __future__ import annotations

import pandas as pd

from ..state import Action, GameCode, PysolDeal

HINT_COLUMNS = [
    "code",
    "suits",
    "rules",
    "node_limit",
    "verdict",
    "proven",
    "first_action",
    "first_action_words",
    "moves",
]


def hint_row(row, suggest_nodes: int = 0) -> dict:
    """One hint: the action in notation and in words (read from the rebuilt start position)."""
    proven = row["verdict"] == "won" and row["first_action"] is not None
    action_text = row["first_action"] if proven else None
    moves = int(row["moves"]) if proven else None
    words = None
    if action_text or (row["verdict"] == "unknown" and suggest_nodes > 0):
        # from the code alone (never load_source: a code is not a file name or '-')
        named = PysolDeal if row["source"] == "pysol" else GameCode
        position = named.parse(row["code"]).position()
        if action_text:
            words = Action.parse(action_text).words(position)
        else:
            from ..search import hint

            suggestion = hint(position, nodes=suggest_nodes)
            if suggestion.action is not None:
                action_text, words = suggestion.action.text(), suggestion.words
    return {
        "code": row["code"],
        "suits": int(row["suits"]),
        "rules": row["rules"],
        "node_limit": int(row["node_limit"]),
        "verdict": row["verdict"],
        "proven": proven,
        "first_action": action_text,
        "first_action_words": words,
        "moves": moves,
    }


def hints_frame(frame: pd.DataFrame, suggest_nodes: int = 0) -> pd.DataFrame:
    """One hint per result row, in the order of the results."""
    records = [hint_row(row, suggest_nodes) for row in frame.to_dict(orient="records")]
    out = pd.DataFrame.from_records(records, columns=HINT_COLUMNS)
    out["moves"] = out["moves"].astype("Int64")
    return out
