"""Claims: the factual statements of each answer, extracted once per distinct answer text."""

from __future__ import annotations

import polars as pl

from faith_udfs.judge_calls import ask_judge
from faith_udfs.judges import Judge


def extract_claims(answers: pl.DataFrame, judge: Judge) -> pl.DataFrame:
    """Claims of each distinct answer (`key`, `text` in): `key`, `claims`, `error`, `pending`."""
    distinct = answers.select("key", "text").unique("key", maintain_order=True)
    return ask_judge(judge.claims, distinct, {"claims": pl.List(pl.String)})
