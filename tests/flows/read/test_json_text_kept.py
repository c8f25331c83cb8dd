"""A JSON file's strings are stored as written, whatever they look like: read_json, left to
itself, types a column of UUIDs as UUID (lower-cased) and one of times of day as TIME
(`09:30` as `09:30:00`), unless another file read with it holds a value of another form."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.db_reading import query

_IDS = ["0E8F1C2A-1234-4ABC-8DEF-0123456789A0", "0E8F1C2A-1234-4ABC-8DEF-0123456789A1"]


def _row(case_id: str, n: int, slot: str) -> dict:
    return {
        "case_id": case_id,
        "input": f"Where is order A{n}?",
        "actual_output": f"Order A{n} shipped on 3 March.",
        "retrieval_context": [f"Order A{n} shipped on 3 March by courier."],
        "logged_at": "2026-11-01T12:00:00",
        "slot": slot,
        "meta": {"request": case_id, "at": [slot]},
    }


def _score(source: Path, db: Path) -> dict:
    run = run_score(ScoreSettings(source=str(source), db=str(db)))
    assert run["rows_in"] == run["rows_scored"] + run["rows_invalid"] + run["rows_quarantined"]
    return run


def _stored(db: Path) -> list[tuple]:
    return query(db, "SELECT case_id, segments, content_hash FROM case_scores ORDER BY case_id")


def test_uuid_ids_and_times_of_day_are_stored_as_the_parquet_copy_stores_them(
    tmp_path: Path,
) -> None:
    rows = [_row(case_id, n, "09:30") for n, case_id in enumerate(_IDS)]
    jsonl = tmp_path / "cases.jsonl"
    jsonl.write_text("".join(json.dumps(row) + "\n" for row in rows))
    array = tmp_path / "cases.json"
    array.write_text(json.dumps(rows))
    parquet = tmp_path / "cases.parquet"
    pl.DataFrame(rows).write_parquet(parquet)
    _score(parquet, tmp_path / "parquet.duckdb")
    expected = _stored(tmp_path / "parquet.duckdb")
    assert [row[0] for row in expected] == _IDS
    assert json.loads(expected[0][1])["slot"] == "09:30"
    for path in (jsonl, array):
        db = tmp_path / f"{path.suffix}.duckdb"
        _score(path, db)
        assert _stored(db) == expected, path.name


def test_a_new_night_beside_an_old_one_rescores_none_of_its_cases(tmp_path: Path) -> None:
    """The old night's ids read alone were UUIDs to read_json; read with a night of other ids
    they were text: the same cases stored again under ids of another case."""
    logs = tmp_path / "logs"
    logs.mkdir()
    night_1 = [_row(case_id, n, "09:30") for n, case_id in enumerate(_IDS)]
    (logs / "day1.jsonl").write_text("".join(json.dumps(row) + "\n" for row in night_1))
    db = tmp_path / "faith.duckdb"
    _score(logs, db)
    night_2 = [_row(f"ticket-{n}", 10 + n, "late") for n in range(2)]
    (logs / "day2.jsonl").write_text("".join(json.dumps(row) + "\n" for row in night_2))
    run = _score(logs, db)
    assert (run["rows_in"], run["rows_newly_scored"]) == (4, 2)
    assert [row[0] for row in _stored(db)] == [*_IDS, "ticket-0", "ticket-1"]
