"""Batch mode stops resubmitting an item no batch answers (issue 22, item 10).

The Batch API stub answers every line under a custom_id it was not asked by. Each item is
asked in at most MAX_BATCH_ASKS batches, then its cases are `invalid` with the reason and the
run's row warns; a later run submits nothing more. Bounds are the creates the stub saw.
"""

from __future__ import annotations

import re
from pathlib import Path

import duckdb
import pytest

from flows.judges.batch.answers import MAX_BATCH_ASKS
from tests.support.builders import many_cases, write
from tests.support.cli_run import Done, faith_here
from tests.support.openai_batch_stub import BatchStub

DOCS = Path(__file__).resolve().parents[3] / "docs" / "hardening-endpoint.md"
ROWS = 20
STAGES = 2  # truths and claims; verdicts need both, so they are never asked


def faith_batch(
    capsys: pytest.CaptureFixture[str], source: Path, db: Path, stub: BatchStub, *options: str
) -> Done:
    """`faith score --judge-mode batch` through its entry point in this process."""
    argv = ["score", str(source), "--db", str(db), "--prefect", "no",
            "--judge", "openai", "--model", "stub-model", "--judge-mode", "batch",
            "--base-url", stub.base_url, *options]  # fmt: skip
    return faith_here(capsys, *argv)


def last_run(db: Path) -> dict:
    con = duckdb.connect(str(db), read_only=True)
    try:
        run = (
            con.sql(
                "SELECT rows_in, rows_scored, rows_invalid, rows_pending, rows_quarantined, "
                "warning FROM runs ORDER BY started_at DESC LIMIT 1"
            )
            .pl()
            .row(0, named=True)
        )
        errors = {e for (e,) in con.execute("SELECT DISTINCT error FROM case_scores").fetchall()}
    finally:
        con.close()
    parts = ("rows_scored", "rows_invalid", "rows_pending", "rows_quarantined")
    assert run["rows_in"] == ROWS == sum(run[part] for part in parts), run
    return {**run, "errors": errors}


@pytest.mark.timeout(240)
def test_mislabelled_answers_stop_resubmission_after_a_bound(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-batch-resubmit-key")
    source = write(many_cases(ROWS), tmp_path / "cases.parquet")
    db = tmp_path / "batch.duckdb"
    with BatchStub() as stub:
        stub.then(*["mislabel"] * 50)
        first = faith_batch(capsys, source, db, stub, "--batch-wait", "60")
        creates_after_first = stub.requests["batch_create"]
        second = faith_batch(capsys, source, db, stub)
        creates_after_second = stub.requests["batch_create"]
    # Every case judged ended invalid: exit 8, everything kept.
    assert first.returncode == 8, first.stderr
    assert "answers carry custom_ids it never asked" in first.stderr
    assert creates_after_first == STAGES * MAX_BATCH_ASKS
    assert second.returncode == 8, second.stderr
    assert creates_after_second == creates_after_first  # nothing submitted again
    run = last_run(db)
    assert run["rows_invalid"] == ROWS
    assert "not submitted again" in run["warning"]
    (error,) = run["errors"]
    assert f"asked in {MAX_BATCH_ASKS} batches" in error
    assert "not submitted again" in error
    # The page's query lists the items that gave up: every passage and answer of the source.
    con = duckdb.connect(str(db), read_only=True)
    try:
        gave_up = con.sql(docs_sql()).pl()
    finally:
        con.close()
    assert set(gave_up["stage"]) == {"truths", "claims"}
    assert set(gave_up["batches"]) == {MAX_BATCH_ASKS}


def docs_sql() -> str:
    """The one ```sql block of docs/hardening-endpoint.md."""
    (block,) = re.findall(r"```sql\n(.*?)```", DOCS.read_text(), flags=re.DOTALL)
    return block
