"""ask_judge: whatever order, repeats or gaps a judge's answer has, one row comes back per item."""

from __future__ import annotations

import polars as pl
import pytest

from faith_udfs.config import JudgeIdentity
from faith_udfs.errors import JudgeCrashed, JudgeReplyError
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


def test_a_judge_error_on_the_batch_is_narrowed_to_the_failing_item() -> None:
    def fails_on_b(frame: pl.DataFrame) -> pl.DataFrame:
        if "b" in frame["text"].to_list():
            raise JudgeReplyError("unusable reply for b")
        return frame.select("key", out=pl.col("text"))

    answers = by_key(ask_judge(fails_on_b, ITEMS, SCHEMA))
    assert answers[30] == ("c", None, False)
    assert answers[20] == (None, "JudgeReplyError: unusable reply for b", False)


class BuggyJudge:
    """A judge whose answer method has a bug; counts how often it was asked."""

    identity = JudgeIdentity(kind="custom", model="buggy-v1", prompt_version="p1")

    def __init__(self) -> None:
        self.calls = 0

    def claims(self, frame: pl.DataFrame) -> pl.DataFrame:
        self.calls += 1
        return frame.select("key", out=pl.col("no_such_column"))


def test_any_other_exception_is_a_crash_naming_the_judge_asked_once() -> None:
    judge = BuggyJudge()
    with pytest.raises(JudgeCrashed) as raised:
        ask_judge(judge.claims, ITEMS, SCHEMA)
    assert judge.calls == 1  # a bug is not bisected into more calls
    message = str(raised.value)
    assert message.startswith("judge custom/buggy-v1 crashed")
    assert "ColumnNotFoundError: " in message
    assert "\n" not in message
    assert isinstance(raised.value.__cause__, pl.exceptions.ColumnNotFoundError)
    assert raised.value.exit_code == 1


def test_an_answer_without_the_asked_column_is_a_crash() -> None:
    with pytest.raises(JudgeCrashed, match=r"lacks columns \['out'\]"):
        ask_judge(lambda frame: frame.select("key"), ITEMS, SCHEMA)
