"""A turn's passages as a table of turns or a chat log logs them, in every format. Passages
logged on a turn that is no case (a RAG app logs what it retrieved on the user's row; a tool
turn or a tool-call step may carry some) are the next answer's, as a tool result is: they
were read for no case and dropped without a word, so the answer after them was judged
without them (0.0 where they support it). Every run here asserts rows in = scored + invalid +
pending + quarantined."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from flows.read.turns import USER_QUARANTINED
from tests.support.db_reading import query
from tests.support.ledger import balanced_run

AT = "2026-11-01T09:00:00Z"
SHIPPED = "Order A17 shipped on 3 March by courier."
REFUND = "Refunds take 5 working days."
CASES = (
    "SELECT c.case_id, c.score, list(p.passage ORDER BY u.i) "
    "FROM case_scores AS c, unnest(c.passage_ids) WITH ORDINALITY AS u(id, i) "
    "JOIN passages AS p ON p.passage_id = u.id GROUP BY ALL ORDER BY 1"
)
ORIGINS = "SELECT case_id, segments ->> 'context_origins' FROM case_scores ORDER BY 1"


def _turn(turn: int, role: str, content: str | None, passages: object = None) -> dict:
    return {"conversation_id": "c1", "turn": turn, "role": role, "content": content,
            "logged_at": AT, "retrieval_context": passages}  # fmt: skip


TURNS = [
    _turn(1, "user", "Where is order A17?", [SHIPPED]),
    _turn(2, "assistant", "Order A17 shipped on 3 March."),
    _turn(3, "user", "How long do refunds take?"),
    _turn(4, "assistant", None),  # a tool-call step; the tool turn carries what it read
    _turn(5, "tool", "refund policy v2", [REFUND]),
    _turn(6, "assistant", "Refunds take 5 working days."),
]


def _score(source: Path, db: Path) -> dict:
    return balanced_run(source, db, max_quarantine_share=None, max_invalid_share=1)


def _write(rows: list[dict], path: Path) -> Path:
    """JSON Lines or Parquet as they are; CSV with each passages list as its JSON text, an
    empty cell for none."""
    if path.suffix == ".jsonl":
        path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    elif path.suffix == ".parquet":
        pl.DataFrame(rows).write_parquet(path)
    else:
        cell = [row["retrieval_context"] and json.dumps(row["retrieval_context"]) for row in rows]
        pl.DataFrame(rows).with_columns(retrieval_context=pl.Series(cell)).write_csv(path)
    return path


@pytest.mark.parametrize("name", ["turns.jsonl", "turns.csv"])
def test_json_null_passages_are_none_as_in_json_lines(tmp_path: Path, name: str) -> None:
    """A CSV cell `null` (json.dumps(None), a JSON export's cells written as their JSON) was
    quarantined as retrieval_context_not_a_list_of_strings; JSON Lines' null is no passages."""
    rows = [_turn(1, "user", "Where is order A17?"), _turn(2, "assistant", SHIPPED)]
    source = _write(rows, tmp_path / name)
    if name.endswith(".csv"):  # every cell as JSON would write it: null
        source.write_text(source.read_text().replace("Z,\n", "Z,null\n"))
        assert source.read_text().count(",null\n") == 2
    run = _score(source, tmp_path / "faith.duckdb")
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (1, 1, 0)
    assert query(tmp_path / "faith.duckdb", CASES) == [("c1:2", 0.0, ["Where is order A17?"])]


@pytest.mark.parametrize("name", ["turns.jsonl", "turns.parquet", "turns.csv"])
def test_a_user_turn_s_passages_are_the_next_answer_s(tmp_path: Path, name: str) -> None:
    source, db = _write(TURNS, tmp_path / name), tmp_path / "faith.duckdb"
    run = _score(source, db)
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (2, 2, 0)
    window = ["Where is order A17?", "Order A17 shipped on 3 March.", "How long do refunds take?"]
    assert query(db, CASES) == [
        ("c1:2", 1.0, [SHIPPED, "Where is order A17?"]),
        ("c1:6", 1.0, [REFUND, "refund policy v2", *window]),
    ]
    assert [json.loads(origins) for _, origins in query(db, ORIGINS)] == [
        ["passage", "turn:1:user"],
        ["passage", "tool", "turn:1:user", "turn:2:assistant", "turn:3:user"],
    ]
    assert _score(source, db)["rows_newly_scored"] == 0


def test_passages_logged_on_the_user_turn_and_the_answer_are_read_once(tmp_path: Path) -> None:
    """An export that repeats an exchange's passages on each of its rows."""
    rows = [TURNS[0], {**TURNS[1], "retrieval_context": [SHIPPED, REFUND]}]
    db = tmp_path / "faith.duckdb"
    _score(_write(rows, tmp_path / "turns.jsonl"), db)
    assert query(db, CASES) == [("c1:2", 1.0, [SHIPPED, REFUND, "Where is order A17?"])]


def test_a_user_turn_s_malformed_passages_are_quarantined_on_it(tmp_path: Path) -> None:
    rows = [_turn(1, "user", "Where is order A17?", SHIPPED), *TURNS[1:2]]
    db = tmp_path / "faith.duckdb"
    run = _score(_write(rows, tmp_path / "turns.jsonl"), db)
    assert (run["rows_in"], run["rows_invalid"], run["rows_quarantined"]) == (2, 1, 1)
    assert query(db, 'SELECT "check", case_id, value FROM quarantine') == [
        ("retrieval_context_not_a_list_of_strings", "c1:1", SHIPPED)
    ]
    assert query(db, "SELECT input FROM case_scores") == [(USER_QUARANTINED,)]
    [(row_json,)] = query(db, "SELECT row_json FROM quarantine")
    assert sorted(json.loads(row_json)) == sorted([*rows[0], "__tool_calls", "__messages_bad",
                                                   "__messages_text"])  # fmt: skip


def test_a_chat_log_user_message_s_passages_are_the_next_answer_s(tmp_path: Path) -> None:
    """A message's own passages, whatever its role; the log's `retrieval_context` stays its
    assistant messages' (a user message does not carry it to the answer a second time)."""
    log = {"conversation_id": "x1", "logged_at": AT, "retrieval_context": [REFUND], "messages": [
        {"role": "user", "content": "Where is order A17?", "retrieval_context": [SHIPPED]},
        {"role": "assistant", "content": "Order A17 shipped on 3 March."},
    ]}  # fmt: skip
    source, db = tmp_path / "chat.jsonl", tmp_path / "faith.duckdb"
    source.write_text(json.dumps(log) + "\n")
    run = _score(source, db)
    assert (run["rows_in"], run["rows_scored"]) == (1, 1)
    assert query(db, CASES) == [("x1:2", 1.0, [REFUND, SHIPPED, "Where is order A17?"])]
