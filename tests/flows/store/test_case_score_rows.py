"""A batch's case_scores rows: scores, the case's own columns and its content hash side by
side. A first run's batch is scored whole and in order, so they are put side by side without
joins on the ids; any other batch is joined, with the same rows."""

from __future__ import annotations

from dataclasses import replace

import duckdb
import polars as pl
from polars.testing import assert_frame_equal

from faith_udfs import GroundedJudge, MetricConfig
from flows.run.batches import classify, score_batch
from flows.store.batch_writes import _case_score_rows, _row_for_row
from schemas import ScoredBatch
from tests.support.builders import many_cases


def scored_batch(cases: pl.DataFrame) -> ScoredBatch:
    con = duckdb.connect()
    try:
        classified = classify(con.cursor(), cases, "faith-x", stored_before=False)
    finally:
        con.close()
    quarantined = pl.DataFrame(schema={"row_key": pl.String})
    return score_batch(cases, classified, quarantined, GroundedJudge(), MetricConfig())


def test_a_batch_in_order_is_put_side_by_side_with_the_rows_a_join_gives() -> None:
    cases = many_cases(60).with_columns(segments=pl.lit('{"channel": "chat"}'))
    batch = scored_batch(cases)
    assert _row_for_row(batch.frames.case_scores, cases, batch.classified)
    side_by_side = _case_score_rows(batch, "faith-x", MetricConfig())
    # the same batch with its hashes in another order takes the joins
    shuffled = batch.classified.reverse()
    assert not _row_for_row(batch.frames.case_scores, cases, shuffled)
    joined = _case_score_rows(replace(batch, classified=shuffled), "faith-x", MetricConfig())
    assert side_by_side.height == cases.height
    assert_frame_equal(side_by_side, joined)
    assert side_by_side["content_hash"].to_list() == batch.classified["content_hash"].to_list()
    assert side_by_side["input"].to_list() == cases["input"].to_list()


def test_repeated_ids_are_never_put_side_by_side() -> None:
    cases = many_cases(4)
    twice = pl.concat([cases, cases])
    assert not _row_for_row(twice, twice)
