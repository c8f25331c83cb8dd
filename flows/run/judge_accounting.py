"""Charging judge calls and tokens back to the cases that needed them.

A judged item (a passage, an answer, a question, a reason) is shared by every case of the
batch that needs it; its cost is charged to the first such case, so the per-case figures add
up to the run's totals.
"""

from __future__ import annotations

import polars as pl

from faith_udfs import FaithfulnessFrames, Judge

USAGE = ("judge_calls", "prompt_tokens", "completion_tokens")
_STAGE_KEYS = {
    "truths": "passage_ids",
    "claims": "answer_key",
    "verdicts": "question_key",
    "reasons": "reason_key",
}


def case_usage(frames: FaithfulnessFrames, judge: Judge) -> pl.DataFrame | None:
    """`case_id` and its share of the calls and tokens spent on this batch (None when the
    judge makes no calls or does not report per item)."""
    drain = getattr(judge, "drain_item_usage", None)
    if not callable(drain):
        return None
    items = drain()
    if items.height == 0:
        return None
    costs = items.group_by("stage", "key").agg(
        judge_calls=pl.col("calls").sum(),
        prompt_tokens=pl.col("prompt_tokens").sum(),
        completion_tokens=pl.col("completion_tokens").sum(),
    )
    keys = frames.item_keys.with_row_index("order")
    uses = []
    for stage, column in _STAGE_KEYS.items():
        needed = keys.select("order", "case_id", key=pl.col(column))
        if column == "passage_ids":
            needed = needed.explode("key")
        uses.append(needed.drop_nulls("key").with_columns(stage=pl.lit(stage)))
    first_use = (
        pl.concat(uses)
        .sort("order")
        .unique(["stage", "key"], keep="first", maintain_order=True)
        .join(costs, on=["stage", "key"])
    )
    charged = first_use.group_by("case_id").agg(pl.col(column).sum() for column in USAGE)
    return (
        frames.case_scores.select("case_id")
        .join(charged, on="case_id", how="left")
        .with_columns(
            pl.col("judge_calls").fill_null(0.0).cast(pl.Float64),
            pl.col("prompt_tokens").fill_null(0).cast(pl.Int64),
            pl.col("completion_tokens").fill_null(0).cast(pl.Int64),
        )
    )
