"""ask_judge: whatever order, repeats or gaps a judge's answer has, one row comes back per item."""

from __future__ import annotations

import polars as pl

from faith_udfs.judge_calls import ask_judge

ITEMS = pl.DataFrame({"key": pl.Series([30, 10, 20], dtype=pl.UInt64), "text": ["c", "a", "b"]})
SCHEMA = {"out": pl.String}


def by_key(frame: pl.DataFrame) -> dict[int, tuple]:
    return {row[0]: row[1:] for row in frame.select("key", "out", "error", "pending").rows()}


def test_an_answer_in_the_items_order_is_taken_as_it_is() -> None:
    got = ask_judge(lambda f: f.select("key", out=pl.col("text").str.to_uppercase()), ITEMS, SCHEMA)
    assert got.columns == ["key", "out", "error", "pending"]
    assert got.rows() == [(30, "C", None, False), (10, "A", None, False), (20, "B", None, False)]


def test_an_answer_in_another_order_is_matched_by_key() -> None:
    def reversed_answer(frame: pl.DataFrame) -> pl.DataFrame:
        return frame.select("key", out=pl.col("text").str.to_uppercase()).reverse()

    got = ask_judge(reversed_answer, ITEMS, SCHEMA)
    assert got.height == 3
    assert by_key(got) == {30: ("C", None, False), 10: ("A", None, False), 20: ("B", None, False)}


def test_a_repeated_key_keeps_its_first_answer_and_a_missing_one_is_an_error() -> None:
    def sloppy(frame: pl.DataFrame) -> pl.DataFrame:
        keys = pl.Series([10, 10, 30], dtype=pl.UInt64)
        return pl.DataFrame({"key": keys, "out": ["first", "second", "C"]})

    got = ask_judge(sloppy, ITEMS, SCHEMA)
    assert got.height == 3
    answers = by_key(got)
    assert answers[10] == ("first", None, False)
    assert answers[30] == ("C", None, False)
    out, error, pending = answers[20]
    assert (out, pending) == (None, False)
    assert error.startswith("JudgeReplyError: the judge returned no answer")
