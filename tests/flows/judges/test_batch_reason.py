"""`--judge-mode batch --llm-reason` against a real Batch API stub on 127.0.0.1: the reasons
are a fourth round (docs/batch-mode.md, "Rounds"), collected and scored as the live packed
judge's, and paid once. Collecting the reasons' batch crashed every run (exit 1, a score read
back from the batch's items as text), so the paid reasons were never read."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from flows.judges.settings import JudgeSettings
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.openai_batch_stub import BatchStub

SAMPLE = Path(__file__).resolve().parents[3] / "data" / "sample" / "cases.parquet"
CASES = 8


def score(stub: BatchStub, source: Path, db: Path, **judge: Any) -> dict[str, Any]:
    options = {"model": "stub-model", "base_url": stub.base_url, "llm_reason": True, **judge}
    return run_score(
        ScoreSettings(
            source=str(source),
            db=str(db),
            judge=JudgeSettings(kind="openai", **options),
            max_invalid_share=1.0,
        )
    )


def reasons(db: Path) -> list[tuple[str, float, str]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        sql = "SELECT case_id, score, reason FROM case_scores WHERE status = 'scored' ORDER BY 1"
        return con.execute(sql).fetchall()
    finally:
        con.close()


def test_with_llm_reason_a_fourth_night_scores_with_the_live_reasons(
    stub: BatchStub, tmp_path: Path
) -> None:
    source = tmp_path / "cases.parquet"
    pl.read_parquet(SAMPLE).head(CASES).write_parquet(source)
    live = score(stub, source, tmp_path / "live.duckdb")
    assert live["rows_newly_scored"] == CASES

    db = tmp_path / "batch.duckdb"
    nights = [score(stub, source, db, mode="batch") for _ in range(4)]
    # truths and claims, verdicts, reasons, then every answer is in the cache
    assert [night["rows_pending"] for night in nights] == [CASES, CASES, CASES, 0]
    assert nights[-1]["rows_newly_scored"] == CASES
    assert reasons(db) == reasons(tmp_path / "live.duckdb")
    assert all(reason for _, _, reason in reasons(db))

    # Every reason line the server billed was charged to a night, once.
    billed = stub.lines_billed
    again = score(stub, source, db, mode="batch")
    assert again["rows_already_scored"] == CASES
    assert stub.lines_billed == billed
