"""A chat log's messages given as JSON text (a Parquet string column, a CSV cell), read in
Python when a conversation's text is longer than the smaller size limit
(flows/read/message_text_sizes.py): what it reads there is what chat_turns.sql reads of the
same text, and what a list of message objects gets for the same messages."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.db_reading import query

SHIPS = "The parcel ships from Leeds."
LONG = "The parcel ships from Leeds on weekdays only. " * 4  # 184 bytes


def _answered(cid: str, tool: str) -> dict:
    return {"conversation_id": cid, "logged_at": "2026-11-01T09:00:00", "messages": [
        {"role": "user", "content": "Where does it ship from?"},
        {"role": "tool", "content": tool},
        {"role": "assistant", "content": "It ships from Leeds.", "retrieval_context": [SHIPS]},
    ]}  # fmt: skip


def _score_text(tmp_path: Path, texts: list[tuple[str, str]], **limits: int) -> tuple[dict, Path]:
    """Score a Parquet chat log whose `messages` is JSON text, one (id, text) a row."""
    rows = [{"conversation_id": cid, "logged_at": "2026-11-01T09:00:00", "messages": text}
            for cid, text in texts]  # fmt: skip
    source = tmp_path / "chat.parquet"
    pq.write_table(pa.Table.from_pylist(rows), source)
    db = tmp_path / "chat.duckdb"
    run = run_score(
        ScoreSettings(source=str(source), db=str(db), max_quarantine_share=1.0, **limits)
    )
    return run, db


def test_half_an_emoji_in_a_long_conversations_text_is_quarantined_not_a_crash(
    tmp_path: Path,
) -> None:
    """JavaScript's JSON.stringify writes a string cut in the middle of an emoji as a lone
    `\\ud83d`. DuckDB reads no such JSON: the conversation is one row quarantined as
    messages_not_a_list, the others scored. A conversation longer than the smaller limit
    (1 MiB by default) was read in Python first, which failed the whole run on it (exit 1,
    UnicodeEncodeError), every night the log was read."""
    cut_emoji = json.dumps(_answered("e", LONG)["messages"]).replace("Leeds.", "Leeds \\ud83d", 1)
    sound = json.dumps(_answered("s", LONG)["messages"])
    texts = [("e", cut_emoji), ("s", sound)]
    for limits, folder in (({}, "default"), ({"max_answer_bytes": 100}, "small")):
        (tmp_path / folder).mkdir()
        run, db = _score_text(tmp_path / folder, texts, **limits)
        assert run["rows_in"] == run["rows_scored"] + run["rows_quarantined"] == 2
        assert query(db, 'SELECT case_id, "check", "column" FROM quarantine') == [
            ("e", "messages_not_a_list", "messages")
        ]
        assert query(db, "SELECT case_id FROM case_scores") == [("s:3",)]


def test_json_text_is_held_to_the_limits_a_list_of_message_objects_is(tmp_path: Path) -> None:
    """The same messages as objects (JSON Lines) and as JSON text (a Parquet string column):
    the same turns quarantined, under the same check, column and size, and the rest scored
    with the same content hashes. Sizes are a string's UTF-8 bytes and a list's passages'
    added up, as a case's row's are: JSON text's quotes and escapes (a tool's JSON result
    holds many) made a message within its limit as objects past it as text, and a message
    within it as text was quarantined all the same once read."""
    quoted = "x" * 100 + '"q"\n' * 30  # 220 bytes, within 300; 312 as JSON text
    chats = [
        _answered("tool", LONG * 2),  # 368 bytes: past --max-context-bytes
        _answered("quoted", quoted),
        {"conversation_id": "ask", "logged_at": "2026-11-01T09:00:00", "messages": [
            {"role": "user", "content": LONG},  # 184 bytes: past --max-answer-bytes
            {"role": "assistant", "content": "It ships.", "retrieval_context": [SHIPS]},
            {"role": "user", "content": "And on Sundays?"},
            {"role": "assistant", "content": "No.", "retrieval_context": [LONG, LONG]}]},
    ]  # fmt: skip
    limits = {"max_answer_bytes": 100, "max_context_bytes": 300}
    (tmp_path / "objects").mkdir()
    objects = tmp_path / "objects" / "chat.jsonl"
    objects.write_text("".join(json.dumps(chat) + "\n" for chat in chats))
    db = tmp_path / "objects" / "chat.duckdb"
    run_score(ScoreSettings(source=str(objects), db=str(db), max_quarantine_share=1.0, **limits))
    (tmp_path / "text").mkdir()
    texts = [(chat["conversation_id"], json.dumps(chat["messages"])) for chat in chats]
    run, text_db = _score_text(tmp_path / "text", texts, **limits)

    said = 'SELECT case_id, "check", "column", value FROM quarantine ORDER BY 1'
    assert query(db, said) == query(text_db, said) == [
        ("ask:1", "input_too_large", "content", "184 bytes, more than --max-answer-bytes 100"),
        ("ask:4", "retrieval_context_too_large", "retrieval_context",
         "368 bytes, more than --max-context-bytes 300"),
        ("tool:2", "retrieval_context_too_large", "content",
         "368 bytes, more than --max-context-bytes 300"),
    ]  # fmt: skip
    hashes = "SELECT case_id, content_hash FROM case_scores ORDER BY 1"
    assert query(db, hashes) == query(text_db, hashes)
    assert [case_id for case_id, _ in query(text_db, hashes)] == ["ask:2", "quoted:3", "tool:3"]
    assert run["rows_in"] == run["rows_scored"] + run["rows_quarantined"] == 6


def test_a_huge_conversation_whose_text_is_no_json_is_quarantined_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A conversation's JSON text cut short by its export (a column's length cap, a log line's
    size), holding a tool result of megabytes, is no list: it was read whole all the same,
    and ran the reader out of memory, exit 7 on every night the log was read (here 10 MB
    against 128 MB; a 52 MB one ran out of 2 GB). It is quarantined as messages_not_a_list
    with its start and its size, as a message past its limit is, and the rest scored."""
    import flows.read.turns as turns

    monkeypatch.setattr(turns, "_MEMORY", "128MB")
    monkeypatch.setattr(turns, "_LARGE_MEMORY", "128MB")
    huge = json.dumps(_answered("cut", "The parcel ships from Leeds. " * 360_000)["messages"])
    cut_short = huge[: len(huge) - 40]
    sound = json.dumps(_answered("s", SHIPS)["messages"])
    run, db = _score_text(tmp_path, [("cut", cut_short), ("s", sound)])
    assert run["rows_in"] == run["rows_scored"] + run["rows_quarantined"] == 2
    ((case_id, check, column, value),) = query(
        db, 'SELECT case_id, "check", "column", value FROM quarantine'
    )
    assert (case_id, check, column) == ("cut", "messages_not_a_list", "messages")
    assert value == cut_short[:1024] + f"… [{len(cut_short)} bytes]"
    assert query(db, "SELECT case_id FROM case_scores") == [("s:3",)]
