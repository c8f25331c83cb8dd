"""A conversation's id and segments are stored as written in every format: read_json, left to
itself, types a column of UUIDs as UUID (stored lower-cased) and one of times of day as TIME
(`09:30` as `09:30:00`), so a JSON copy of a log stored other case_ids than its CSV and
Parquet copies, and a new night's file of other ids re-scored the old night's turns."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.db_reading import query

IDS = ["0E8F1C2A-1234-4ABC-8DEF-0123456789AB", "0E8F1C2A-1234-4ABC-8DEF-0123456789AC"]
SHIPPED = "Order A17 shipped on 3 March."


def _turns(ids: list[str]) -> list[dict]:
    rows = []
    for cid in ids:
        rows.append({"conversation_id": cid, "turn": 1, "role": "user",
                     "content": "Where is order A17?", "retrieval_context": None,
                     "logged_at": "2026-11-01T09:00:00Z", "slot": "09:30"})  # fmt: skip
        rows.append({"conversation_id": cid, "turn": 2, "role": "assistant", "content": SHIPPED,
                     "retrieval_context": [f"{SHIPPED[:-1]} by courier."],
                     "logged_at": "2026-11-01T09:00:05Z", "slot": "09:30"})  # fmt: skip
    return rows


def _score(source: Path, db: Path) -> dict:
    run = run_score(ScoreSettings(source=str(source), db=str(db)))
    assert run["rows_in"] == run["rows_scored"] + run["rows_invalid"] + run["rows_quarantined"]
    return run


def _stored(db: Path) -> list[tuple]:
    return query(
        db, "SELECT case_id, segments, content_hash, score FROM case_scores ORDER BY case_id"
    )


def test_a_uuid_conversation_id_keeps_its_case_in_csv_jsonl_and_parquet(tmp_path: Path) -> None:
    rows = _turns(IDS)
    pl.DataFrame(rows).write_parquet(tmp_path / "turns.parquet")
    as_text = [{**row, "retrieval_context": json.dumps(row["retrieval_context"])} for row in rows]
    pl.DataFrame(as_text).write_csv(tmp_path / "turns.csv")
    (tmp_path / "turns.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    _score(tmp_path / "turns.parquet", tmp_path / "parquet.duckdb")
    expected = _stored(tmp_path / "parquet.duckdb")
    assert [row[0] for row in expected] == [f"{cid}:2" for cid in IDS]
    assert json.loads(expected[0][1])["slot"] == "09:30"
    for name in ("turns.csv", "turns.jsonl"):
        _score(tmp_path / name, tmp_path / f"{name}.duckdb")
        assert _stored(tmp_path / f"{name}.duckdb") == expected, name


def test_a_chat_log_with_a_uuid_id_keeps_its_case(tmp_path: Path) -> None:
    log = {"conversation_id": IDS[0], "logged_at": "2026-11-01T09:00:00Z", "messages": [
        {"role": "user", "content": "Where is order A17?"},
        {"role": "assistant", "content": SHIPPED, "retrieval_context": [SHIPPED]},
    ]}  # fmt: skip
    (tmp_path / "chat.jsonl").write_text(json.dumps(log) + "\n")
    _score(tmp_path / "chat.jsonl", tmp_path / "faith.duckdb")
    assert [row[0] for row in _stored(tmp_path / "faith.duckdb")] == [f"{IDS[0]}:2"]


def test_a_new_night_of_other_ids_rescores_none_of_the_old_turns(tmp_path: Path) -> None:
    """The old night's ids read alone were UUIDs to read_json; read beside a night of other
    ids they were text: the same turns stored again under the ids as written."""
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "day1.jsonl").write_text("".join(json.dumps(r) + "\n" for r in _turns(IDS)))
    db = tmp_path / "faith.duckdb"
    _score(logs, db)
    (logs / "day2.jsonl").write_text("".join(json.dumps(r) + "\n" for r in _turns(["t-9"])))
    run = _score(logs, db)
    assert (run["rows_in"], run["rows_newly_scored"]) == (3, 1)
    assert [row[0] for row in _stored(db)] == [f"{IDS[0]}:2", f"{IDS[1]}:2", "t-9:2"]
