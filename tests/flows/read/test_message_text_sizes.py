"""A chat log's messages given as JSON text (a Parquet string column, a CSV cell), read in
Python when a conversation's text is longer than the smaller size limit
(flows/read/message_text_sizes.py): what it reads there is what chat_turns.sql reads of the
same text, and what a list of message objects gets for the same messages."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

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
