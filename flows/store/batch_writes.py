"""Committing one scored batch: its scores, verdicts, truths and quarantine rows, and the run's
counts, in ONE transaction; idempotent by batch number."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import polars as pl

from faith_udfs import MetricConfig
from flows.store.db import register, run_sql_file, sql, transaction
from schemas import OUTPUT_MODELS

if TYPE_CHECKING:
    import duckdb

    from schemas import ScoredBatch

__all__ = ["QUARANTINE_TABLE_COLUMNS", "commit_bytes", "write_batch"]

# The quarantine table's columns a batch writes; the store adds run_id and quarantined_at.
QUARANTINE_TABLE_COLUMNS = tuple(
    name
    for name in OUTPUT_MODELS["quarantine"].to_schema().columns
    if name not in ("run_id", "quarantined_at")
)


def commit_bytes(scored: ScoredBatch) -> int:
    """About the bytes of text a batch's COMMIT writes: its cases' columns but the passages
    (stored once each, as truths) and its quarantine rows (each row's JSON)."""
    return int(
        scored.cases.drop("retrieval_context", strict=False).estimated_size()
        + scored.quarantined.estimated_size()
    )


def write_batch(
    con: duckdb.DuckDBPyConnection,
    scored: ScoredBatch,
    *,
    run_id: str,
    config_id: str,
    config: MetricConfig,
    seconds: dict[str, float],
    batch_no: int | None = None,
) -> float:
    """Write one batch's results and its run counts in ONE transaction; returns seconds.

    `batch_no` (1, 2, ... in commit order) makes the write idempotent: a retry of a write
    whose commit did succeed (the reply was lost) finds the batch counted and adds nothing."""
    started = time.perf_counter()
    now = datetime.now(UTC).replace(tzinfo=None)
    frames = scored.frames
    new_scores = _case_score_rows(scored, config_id, config)
    verdicts = frames.claim_verdicts if frames else _empty("claim_verdicts")
    truths = frames.truths if frames else _empty("truths")
    rescored = scored.classified.filter(pl.col("rescored") & ~pl.col("skip")).select("case_id")
    unchanged = _unchanged_rows(scored)
    quarantine = scored.quarantined.select(QUARANTINE_TABLE_COLUMNS)
    views = {
        "new_scores": new_scores,
        "new_verdicts": verdicts,
        "new_truths": truths,
        "new_quarantine": quarantine,
        "rescored": rescored,
        "unchanged": unchanged,
    }
    for name, frame in views.items():
        register(con, name, frame)
    try:
        with transaction(con):
            if batch_no is not None and _committed(con, run_id, batch_no):
                return time.perf_counter() - started
            if rescored.height:
                run_sql_file(con, "delete_rescored", {"config_id": config_id})
            if unchanged.height:
                run_sql_file(con, "refresh_unchanged", {"config_id": config_id})
            run_sql_file(con, "insert_results", {"run_id": run_id, "now": now})
            con.execute(sql("count_quarantine_checks"), {"run_id": run_id})
            spent = time.perf_counter() - started
            con.execute(
                sql("count_batch"),
                {
                    **scored.counts,
                    **scored.spent,
                    "run_id": run_id,
                    "now": now,
                    "seconds_read": seconds.get("read", 0.0),
                    "seconds_validate": seconds.get("validate", 0.0),
                    "seconds_score": scored.seconds_score,
                    "seconds_write": spent,
                },
            )
    finally:
        for name in views:
            con.unregister(name)
    return time.perf_counter() - started


def _committed(con: duckdb.DuckDBPyConnection, run_id: str, batch_no: int) -> bool:
    row = con.execute(sql("batch_committed"), {"run_id": run_id, "batch_no": batch_no}).fetchall()
    return bool(row[0][0])


def _unchanged_rows(scored: ScoredBatch) -> pl.DataFrame:
    """The time and segments of the cases skipped as already scored: a re-sent row whose clock
    or segments were corrected updates its stored row (refresh_unchanged.sql)."""
    skipped = scored.classified.filter(pl.col("skip")).select("case_id")
    return scored.cases.select("case_id", "logged_at", "segments").join(
        skipped, on="case_id", how="semi"
    )


def _case_score_rows(scored: ScoredBatch, config_id: str, config: MetricConfig) -> pl.DataFrame:
    if scored.frames is None:
        return _empty("case_scores")
    scores = scored.frames.case_scores
    meta = scored.cases.select("case_id", "logged_at", "input", "actual_output", "segments")
    hashes = scored.classified.select("case_id", "content_hash")
    if _row_for_row(scores, meta, hashes):
        # A batch scored whole, in order (a first run): side by side, no joins on the string
        # ids in the writing thread, which is the run's longest (~0.3 s per 1M rows).
        rows = scores.hstack(meta.drop("case_id").hstack(hashes.drop("case_id")).get_columns())
    else:
        meta = meta.join(hashes, on="case_id", how="left")
        rows = scores.join(meta, on="case_id", how="left")
    rows = rows.with_columns(
        penalize_ambiguous_claims=pl.lit(config.penalize_ambiguous_claims),
        strict_mode=pl.lit(config.strict_mode),
    )
    if scored.usage is not None:
        rows = rows.join(scored.usage, on="case_id", how="left")
    return rows


def _row_for_row(*frames: pl.DataFrame) -> bool:
    """Whether the frames hold the same distinct case_ids in the same order: joining them on
    `case_id` is then putting them side by side."""
    ids = frames[0]["case_id"]
    return all(f["case_id"].equals(ids) for f in frames[1:]) and ids.n_unique() == ids.len()


# The columns a batch inserts (the store adds run_id and the times), typed by the tables' models.
_INSERTED: dict[str, tuple[str, ...]] = {
    "case_scores": ("case_id", "config_id", "status", "content_hash", "segments"),
    "claim_verdicts": (
        "case_id",
        "config_id",
        "claim_index",
        "claim",
        "verdict",
        "reason",
        "support",
        "evidence",
        "context_lacks",
    ),
    "truths": ("config_id", "passage_id", "truth_index", "truth"),
}


def _empty(table: str) -> pl.DataFrame:
    columns = OUTPUT_MODELS[table].to_schema().columns
    return pl.DataFrame(schema={name: columns[name].dtype.type for name in _INSERTED[table]})
