"""A JSON log whose answers are text in most rows and a list of strings (or an object, or
true/false) in some: those rows are quarantined as `actual_output_wrong_type`, as they are in a
file of such answers alone, whatever the layout (JSON Lines, a JSON array, gzip, one file or a
folder of small files gathered into one read). Before, a list among text answers was scored as
its JSON text (`["Order A17 shipped.","On 3 March."]` judged as one claim), while the same row
in a file of list answers was quarantined: a row's fate hung on its neighbours."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.db_reading import query

PASSAGE = "Order A17 shipped on 3 March by courier."
LISTED = ["Order A17 shipped.", "On 3 March."]


def _row(case_id: str, answer: object, key: str = "actual_output") -> dict:
    return {
        "case_id": case_id,
        "input": "Where is A17?",
        key: answer,
        "retrieval_context": [PASSAGE],
        "logged_at": "2026-11-01",
    }


def _write(path: Path, rows: list[dict]) -> None:
    if ".jsonl" in path.name:
        text = "".join(json.dumps(row) + "\n" for row in rows)
    else:
        text = json.dumps(rows)
    if path.suffix == ".gz":
        path.write_bytes(gzip.compress(text.encode()))
    else:
        path.write_text(text)


def _score(source: Path, db: Path, **settings: object) -> dict:
    return run_score(
        ScoreSettings(source=str(source), db=str(db), max_quarantine_share=None, **settings)
    )


def _balanced(run: dict) -> None:
    assert run["rows_in"] == (
        run["rows_scored"] + run["rows_invalid"] + run["rows_pending"] + run["rows_quarantined"]
    )


MIXED = [
    _row("a", "Order A17 shipped on 3 March."),
    _row("b", LISTED),
    _row("c", "It shipped."),
    _row("d", {"text": "Order A17 shipped."}),
    _row("e", True),
    _row("f", 42),  # a number is read as its text, as from a file of numbers alone
]
QUARANTINED = [
    ("b", "actual_output_wrong_type", json.dumps(LISTED, separators=(",", ":"))),
    ("d", "actual_output_wrong_type", '{"text":"Order A17 shipped."}'),
    ("e", "actual_output_wrong_type", "true"),
]
QUARANTINE = 'SELECT case_id, "check", value FROM quarantine ORDER BY case_id'
SCORES = "SELECT case_id, content_hash FROM case_scores ORDER BY case_id"


@pytest.mark.parametrize("name", ["log.jsonl", "log.jsonl.gz", "log.json", "log.json.gz"])
def test_a_list_among_text_answers_is_quarantined_in_one_file(tmp_path: Path, name: str) -> None:
    source = tmp_path / name
    _write(source, MIXED)
    run = _score(source, tmp_path / "mixed.duckdb")
    _balanced(run)
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (6, 3, 3)
    assert query(tmp_path / "mixed.duckdb", QUARANTINE) == QUARANTINED
    # The other rows read as from a clean file (same content hash: nothing of them changed).
    clean = tmp_path / "clean" / name
    clean.parent.mkdir()
    _write(clean, [MIXED[0], MIXED[2]])
    _score(clean, tmp_path / "clean.duckdb")
    assert query(tmp_path / "mixed.duckdb", SCORES)[:2] == query(tmp_path / "clean.duckdb", SCORES)


@pytest.mark.parametrize("suffix", [".jsonl", ".json.gz"])
def test_a_folder_of_small_files_quarantines_the_same_rows(tmp_path: Path, suffix: str) -> None:
    """One-row files alike are gathered and read as one; a file of list answers alone is read
    as a list column. Both say what one file says."""
    folder = tmp_path / "logs"
    folder.mkdir()
    for i, row in enumerate(MIXED):
        _write(folder / f"part-{i}{suffix}", [row])
    run = _score(folder, tmp_path / "folder.duckdb")
    _balanced(run)
    assert query(tmp_path / "folder.duckdb", QUARANTINE) == QUARANTINED
    alone = tmp_path / f"alone{suffix}"
    _write(alone, [MIXED[1]])
    _score(alone, tmp_path / "alone.duckdb")
    assert query(tmp_path / "alone.duckdb", QUARANTINE) == [QUARANTINED[0]]


def test_a_mapped_answer_column_is_named_by_its_contract_name(tmp_path: Path) -> None:
    source = tmp_path / "log.jsonl"
    _write(source, [_row("a", "It shipped.", key="answer"), _row("b", LISTED, key="answer")])
    run = _score(source, tmp_path / "mapped.duckdb", columns={"actual_output": "answer"})
    assert (run["rows_scored"], run["rows_quarantined"]) == (1, 1)
    assert query(tmp_path / "mapped.duckdb", QUARANTINE) == [QUARANTINED[0]]


def test_a_list_in_a_segment_is_a_segment_not_a_breach(tmp_path: Path) -> None:
    """Segments take any value (lists as JSON): a segment of text and lists quarantines
    nothing."""
    source = tmp_path / "log.jsonl"
    rows = [{**_row("a", "It shipped."), "tags": "x"}, {**_row("b", "It shipped."), "tags": ["x"]}]
    _write(source, rows)
    run = _score(source, tmp_path / "segments.duckdb")
    assert (run["rows_scored"], run["rows_quarantined"]) == (2, 0)
