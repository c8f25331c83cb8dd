"""`supported_by` of a batch without conversation turns, against the turn path's answer."""

from __future__ import annotations

import json
from dataclasses import replace

import polars as pl

from faith_udfs import MetricConfig
from faith_udfs.grounded import GroundedJudge
from faith_udfs.metric import score_cases
from flows.run.turn_support import with_turn_support
from tests.support.builders import case_row, cases, many_cases

SEGMENTS = {"app_version": "2.4.0"}


def scored(batch: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(case_scores, claim_verdicts) after the turn step, one claim's verdict dropped (an LLM
    judge may drop one: its verdict is NULL)."""
    frames = score_cases(batch, GroundedJudge(), MetricConfig())
    verdicts = frames.claim_verdicts.with_columns(
        verdict=pl.when(pl.int_range(pl.len()) == 1).then(None).otherwise(pl.col("verdict"))
    )
    frames = with_turn_support(replace(frames, claim_verdicts=verdicts), batch)
    return frames.case_scores, frames.claim_verdicts


def test_claims_of_plain_cases_get_the_same_support_with_or_without_a_turn_beside_them() -> None:
    plain = many_cases(12).with_columns(segments=pl.lit(json.dumps(SEGMENTS)))
    turn = cases(
        [
            case_row(
                "t1",
                "Order A17 shipped on 3 March.",
                retrieval_context=["Order A17 shipped on 3 March."],
            )
        ]
    ).with_columns(segments=pl.lit(json.dumps({**SEGMENTS, "context_origins": ["turn"]})))
    alone_scores, alone = scored(plain)
    mixed_scores, mixed = scored(pl.concat([plain, turn], how="diagonal_relaxed"))

    plain_ids = pl.col("case_id") != "t1"
    # Row 1 is dropped in both: the same claim, so the same frame either way.
    assert alone.equals(mixed.filter(plain_ids))
    assert alone_scores.equals(mixed_scores.filter(plain_ids))
    assert set(alone["supported_by"].to_list()) == {"passage", None}
    assert mixed.filter(~plain_ids)["supported_by"].to_list() == ["conversation"]


def test_cases_without_segments_are_no_turns() -> None:
    batch = many_cases(5)
    _, verdicts = scored(batch)
    # A `yes` claim's support is a passage; so says the turn path of a dropped claim (row 1).
    labels = set(zip(verdicts["verdict"], verdicts["supported_by"], strict=True))
    assert labels == {("yes", "passage"), ("no", None), ("idk", None), (None, "passage")}
