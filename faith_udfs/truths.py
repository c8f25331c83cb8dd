"""Truths: the factual statements of each retrieved passage, extracted once per distinct passage."""

from __future__ import annotations

import polars as pl

from faith_udfs.judge_calls import ask_judge
from faith_udfs.judges import Judge
from faith_udfs.keys import text_keys
from faith_udfs.words import is_blank


def passages_of(cases: pl.DataFrame, *, key: str = "case_id") -> pl.DataFrame:
    """Long form of the cases' non-blank passages: `key`, `position`, `passage_id`, `text`."""
    return (
        cases.select(
            key,
            text=pl.col("retrieval_context"),
            position=pl.int_ranges(pl.col("retrieval_context").list.len()),
        )
        .explode("text", "position")
        .filter(~is_blank(pl.col("text")))
        .with_columns(passage_id=text_keys(pl.col("text")))
        .select(key, "position", "passage_id", "text")
    )


def extract_truths(passages: pl.DataFrame, judge: Judge, limit: int | None) -> pl.DataFrame:
    """Truths of each distinct passage (`key`, `text` in): `key`, `truths`, `error`, `pending`.

    The limit is enforced here, per passage, whatever the judge did with it.
    """
    distinct = passages.select("key", "text").unique("key", maintain_order=True)
    answer = ask_judge(
        lambda items: judge.truths(items, limit), distinct, {"truths": pl.List(pl.String)}
    )
    if limit is not None:
        answer = answer.with_columns(pl.col("truths").list.head(limit))
    return answer
