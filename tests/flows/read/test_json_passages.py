"""A JSON log whose passages hold a non-string in one row: that row is quarantined, the others
read exactly as from a clean file (read_json types such a column a list of JSON values)."""

from __future__ import annotations

import json
from pathlib import Path

from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.db_reading import query

PASSAGE = "Order A17 shipped on 3 March by courier."


def _row(case_id: str, passages: list) -> dict:
    return {
        "case_id": case_id,
        "input": "Where is A17?",
        "actual_output": "Order A17 shipped on 3 March.",
        "retrieval_context": passages,
        "logged_at": "2026-11-01",
    }


def _score(rows: list[dict], path: Path) -> tuple[dict, Path]:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    db = path.with_suffix(".duckdb")
    run = run_score(ScoreSettings(source=str(path), db=str(db), max_quarantine_share=None))
    return run, db


def test_a_number_among_the_passages_quarantines_its_row_only(tmp_path: Path) -> None:
    mixed = [_row("a", [PASSAGE]), _row("b", [5]), _row("c", [PASSAGE, True])]
    run, db = _score(mixed, tmp_path / "mixed.jsonl")
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (3, 1, 2)
    assert query(db, 'SELECT "check", value FROM quarantine ORDER BY case_id') == [
        ("retrieval_context_not_a_list_of_strings", "[5]"),
        ("retrieval_context_not_a_list_of_strings", f'["{PASSAGE}",true]'),
    ]
    clean_run, clean_db = _score([_row("a", [PASSAGE])], tmp_path / "clean.jsonl")
    assert clean_run["rows_scored"] == 1
    stored = "SELECT case_id, content_hash, passage_ids FROM case_scores"
    assert query(db, stored) == query(clean_db, stored)
    assert query(db, "SELECT truth FROM truths") == [(PASSAGE,)]  # not '"Order A17 ..."'
