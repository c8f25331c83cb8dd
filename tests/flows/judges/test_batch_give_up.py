"""Batch mode's bound on resubmissions (docs/hardening-endpoint.md, item 10) for an item the
server answers, but unusably: a request refused with HTTP 400 in batch after batch. The bound
holds, and the cases say what the server answered, not a mislabelling it never did."""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl

from flows.judges.settings import JudgeSettings
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.openai_batch_stub import BatchStub

SAMPLE = Path(__file__).resolve().parents[3] / "data" / "sample" / "cases.parquet"
CASES = 8


def score(stub: BatchStub, source: Path, db: Path) -> dict:
    judge = JudgeSettings(kind="openai", model="stub-model", base_url=stub.base_url, mode="batch")
    return run_score(
        ScoreSettings(source=str(source), db=str(db), judge=judge, max_invalid_share=1.0)
    )


def test_an_item_refused_in_three_batches_gives_up_with_the_refusal_not_custom_ids(
    stub: BatchStub, tmp_path: Path
) -> None:
    source = tmp_path / "cases.parquet"
    pl.read_parquet(SAMPLE).head(CASES).write_parquet(source)
    db = tmp_path / "f.duckdb"
    stub.then(*["echo"] * 8)  # every request line answered HTTP 400
    nights = [score(stub, source, db) for _ in range(7)]
    assert "not submitted again" in (nights[-1]["warning"] or "")
    con = duckdb.connect(str(db), read_only=True)
    try:
        sql = "SELECT DISTINCT error FROM case_scores WHERE run_id = $r"
        errors = [e for (e,) in con.execute(sql, {"r": nights[-1]["run_id"]}).fetchall()]
    finally:
        con.close()
    assert errors
    assert all(e.startswith("BatchGaveUp: asked in 3 batches") for e in errors)
    assert all("HTTP 400" in e for e in errors), errors
    assert not any("custom_ids" in e for e in errors), errors
