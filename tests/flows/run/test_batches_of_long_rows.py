"""Rows long in bytes but within every size limit: a night of them completes under the
store's memory limit. A log carrying a 59 kB system prompt on each of its 3,003 rows ran
out of DuckDB's 384 MB at the batch's COMMIT, and a dozen cases of 3 MB of passages ran out
while their content hashes were made; both failed every night with exit 7."""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl

from flows.run.batches import classify
from flows.store.db import memory_limit_mb
from schemas import validate_cases
from tests.support.builders import case_row, cases
from tests.support.db_reading import query
from tests.support.ledger import balanced_run

ROOT = Path(__file__).resolve().parents[3]
PROMPT = "You are the support assistant of an online shop; answer from the passages. " * 800


def test_a_system_prompt_logged_on_every_row_is_committed(tmp_path: Path) -> None:
    sample = pl.read_parquet(ROOT / "data" / "sample" / "cases.parquet")
    logged = sample.with_columns(system_prompt=pl.lit(PROMPT) + pl.col("case_id"))
    source = tmp_path / "cases.parquet"
    logged.write_parquet(source)
    db = tmp_path / "f.duckdb"
    run = balanced_run(source, db)
    assert run["status"] == "completed"
    assert run["rows_scored"] == sample.height
    ((longest,),) = query(db, "SELECT max(length(segments ->> 'system_prompt')) FROM case_scores")
    assert longest >= len(PROMPT)


def test_a_dozen_cases_of_3_mb_passages_are_hashed_under_the_stores_limit() -> None:
    filler = "The parcel left the depot on time and reached the customer. " * 25_000
    rows = [
        case_row(
            f"c{i}",
            "Refunds take 5 days.",
            retrieval_context=[f"Refunds take {i} days. " + filler] * 2,
        )
        for i in range(12)
    ]
    frame = validate_cases(cases(rows)).valid
    con = duckdb.connect(config={"memory_limit": f"{memory_limit_mb(0)}MB"})
    try:
        classified = classify(con, frame, "config", stored_before=False)
    finally:
        con.close()
    assert classified["content_hash"].n_unique() == 12


def test_the_commits_room_grows_with_a_batch_of_long_rows_only() -> None:
    assert memory_limit_mb(0, writing=50_000_000) == memory_limit_mb(0)  # a usual batch
    assert memory_limit_mb(0, writing=180_000_000) >= memory_limit_mb(0) + 300
