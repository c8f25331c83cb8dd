"""A long conversation's window: each answering turn relies on the last --conversation-window
turns with content before it. The window was a range join comparing every pair of a
conversation's turns: a conversation of 200,000 turns took 4 minutes to read (60,000: 20 s),
quadratic in its length. It is now an equality join on the turns' numbers, linear in the
turns, and each turn's window is the same as before."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from flows.read.read_options import ReadOptions
from flows.read.source import resolve_source
from flows.read.turns import _params, _turns, iter_turn_batches
from flows.store.db import sql

# (turn, role, content): gaps in the numbering, a system turn, a tool-call step, tool results,
# turns without content, two answers in a row, rows out of order.
TURNS = [
    (9, "assistant", "Order A17 arrives on 5 March."),
    (1, "system", "You are the shop's assistant."),
    (2, "user", "Where is order A17?"),
    (3, "assistant", None),
    (4, "tool", "Order A17 shipped on 3 March."),
    (5, "assistant", "Order A17 shipped on 3 March."),
    (7, "user", "   "),
    (8, "user", "When will it arrive?"),
    (12, "assistant", "It is insured."),
    (13, "user", None),
    (20, "assistant", "Anything else?"),
]


def _write(folder: Path) -> Path:
    frame = pl.DataFrame(
        [
            {"conversation_id": "long", "turn": turn, "role": role, "content": content}
            for turn, role, content in TURNS
        ]
    ).with_columns(logged_at=pl.lit("2026-11-01T09:00:00Z"))
    frame.write_parquet(folder / "turns.parquet")
    return folder / "turns.parquet"


def _expected(window: int) -> dict[str, list[str]]:
    """Each answer's window origins by the documented rule: the last `window` turns before it
    whose role is user, assistant or system and whose content is not blank."""
    ordered = sorted(TURNS)
    found = {}
    for turn, role, content in ordered:
        if role != "assistant" or not content:
            continue
        eligible = [
            f"turn:{t}:{r}"
            for t, r, c in ordered
            if t < turn and r in ("user", "assistant", "system") and c and c.strip()
        ]
        found[f"long:{turn}"] = eligible[max(len(eligible) - window, 0) :]
    return found


@pytest.mark.parametrize("window", [0, 1, 2, 4, 10**12])
def test_each_answer_relies_on_the_last_window_turns_with_content(
    tmp_path: Path, window: int
) -> None:
    source = resolve_source(_write(tmp_path), ReadOptions(conversation_window=window))
    read = pl.concat(batch.frame for batch in iter_turn_batches(source, 100))
    found = {
        row["case_id"]: [o for o in row["context_origins"] if o.startswith("turn:")]
        for row in read.iter_rows(named=True)
    }
    assert found == _expected(window)
    tools = read.filter(pl.col("case_id") == "long:5")["context_origins"].to_list()[0]
    assert tools[0] == "tool"  # the tool result of its own exchange, first


def test_the_window_is_an_equality_join_on_the_turns_numbers(tmp_path: Path) -> None:
    """The plan joins a turn's window by its turns' numbers, never by a range of them (a range
    condition is evaluated on every pair of a conversation's turns)."""
    source = resolve_source(_write(tmp_path))
    with _turns(source) as con:
        plan = con.execute(f"EXPLAIN {sql('read_turns')}", _params(source)).fetchall()
    text = "\n".join(str(cell) for row in plan for cell in row)
    assert "__k >" not in text
    assert "__k <=" not in text
    assert "__want" in text
