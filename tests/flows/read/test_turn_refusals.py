"""An OpenAI refusal is what the bot said: a `{"type": "refusal", "refusal": ...}` content
part, or a message whose `content` is null beside its `refusal`, is read as the answer's text.
Both were quarantined as a blank answer (`actual_output_is_null`), so a night of refusals
tripped --max-quarantine-share and the turns were never judged."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from tests.support.db_reading import query
from tests.support.ledger import balanced_run

AT = "2026-11-01T12:00:00Z"
QUESTION = "Where is order A17?"
REFUSED = "I cannot answer that."
SHIPPED = "Order A17 shipped on 3 March."
ANSWERS = "SELECT case_id, status, actual_output FROM case_scores ORDER BY 1"


def _score(source: Path, db: Path) -> dict:
    return balanced_run(source, db)


def test_a_refusal_part_in_a_table_of_turns_is_the_answer(tmp_path: Path) -> None:
    parts = [
        [{"type": "refusal", "refusal": REFUSED}],
        [{"type": "text", "text": SHIPPED}, {"type": "refusal", "refusal": REFUSED}],
    ]
    rows = []
    for n, answer in enumerate(parts, start=1):
        base = {"conversation_id": f"c{n}", "logged_at": AT, "retrieval_context": [SHIPPED]}
        rows.append({**base, "turn": 1, "role": "user", "content": QUESTION})
        rows.append({**base, "turn": 2, "role": "assistant", "content": answer})
    source = tmp_path / "turns.jsonl"
    source.write_text("".join(json.dumps(row) + "\n" for row in rows))
    run = _score(source, tmp_path / "t.duckdb")
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (2, 2, 0)
    assert query(tmp_path / "t.duckdb", ANSWERS) == [
        ("c1:2", "scored", REFUSED),
        ("c2:2", "scored", f"{SHIPPED}\n{REFUSED}"),
    ]


def _chat(cid: str, answer: dict) -> dict:
    messages = [
        {"role": "user", "content": QUESTION},
        {"role": "assistant", "retrieval_context": [SHIPPED], **answer},
    ]
    return {"conversation_id": cid, "logged_at": AT, "messages": messages}


CHATS = [
    _chat("r1", {"content": [{"type": "refusal", "refusal": REFUSED}]}),
    _chat("r2", {"content": None, "refusal": REFUSED}),
    _chat("r3", {"content": SHIPPED, "refusal": None}),
]


def test_a_chat_log_s_refusals_are_the_answers(tmp_path: Path) -> None:
    source = tmp_path / "chat.jsonl"
    source.write_text("".join(json.dumps(chat) + "\n" for chat in CHATS))
    run = _score(source, tmp_path / "c.duckdb")
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (3, 3, 0)
    assert query(tmp_path / "c.duckdb", ANSWERS) == [
        ("r1:2", "scored", REFUSED),
        ("r2:2", "scored", REFUSED),
        ("r3:2", "scored", SHIPPED),
    ]


def test_a_parquet_chat_log_of_json_text_reads_them_the_same(tmp_path: Path) -> None:
    rows = [{**chat, "messages": json.dumps(chat["messages"])} for chat in CHATS]
    pl.DataFrame(rows).write_parquet(tmp_path / "chat.parquet")
    _score(tmp_path / "chat.parquet", tmp_path / "p.duckdb")
    (tmp_path / "chat.jsonl").write_text("".join(json.dumps(chat) + "\n" for chat in CHATS))
    _score(tmp_path / "chat.jsonl", tmp_path / "j.duckdb")
    hashes = "SELECT case_id, actual_output, content_hash FROM case_scores ORDER BY 1"
    assert [row[1] for row in query(tmp_path / "p.duckdb", hashes)] == [REFUSED, REFUSED, SHIPPED]
    assert query(tmp_path / "p.duckdb", hashes) == query(tmp_path / "j.duckdb", hashes)


def test_a_table_of_turns_with_a_refusal_column_reads_the_refusal(tmp_path: Path) -> None:
    """OpenAI messages flattened one a row (`role`, `content`, `refusal`): a turn whose content
    is null beside its refusal was quarantined as a blank answer, where the same message in a
    chat log is the answer. The refusal stays a segment, as every other column does."""
    rows = []
    for cid, content, refusal in (("c1", None, REFUSED), ("c2", SHIPPED, None)):
        base = {"conversation_id": cid, "logged_at": AT, "retrieval_context": [SHIPPED]}
        rows.append({**base, "turn": 1, "role": "user", "content": QUESTION, "refusal": None})
        rows.append(
            {**base, "turn": 2, "role": "assistant", "content": content, "refusal": refusal}
        )
    frame = pl.DataFrame(rows)
    for name in ("turns.jsonl", "turns.parquet", "turns.csv"):
        source = tmp_path / name
        if name.endswith(".jsonl"):
            source.write_text("".join(json.dumps(row) + "\n" for row in rows))
        elif name.endswith(".parquet"):
            frame.write_parquet(source)
        else:
            passages = pl.lit(json.dumps([SHIPPED])).alias("retrieval_context")
            frame.with_columns(passages).write_csv(source)
        db = tmp_path / f"{name}.duckdb"
        run = _score(source, db)
        assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (2, 2, 0), name
        assert query(db, ANSWERS) == [("c1:2", "scored", REFUSED), ("c2:2", "scored", SHIPPED)]
        stored = query(db, "SELECT segments ->> 'refusal' FROM case_scores ORDER BY case_id")
        assert stored == [(REFUSED,), (None,)], name
