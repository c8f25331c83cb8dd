"""grounded-v9 (issue 20): a number's words as the context may write them. "1,000" is the figure
"1000" (v8 read the words "1" and "000", missing from "1000": `no`), and "$5" and "5%" hold the
words "dollar" and "percent" (v8: none, so "5 dollars" against "$5" was `no`). A wrong number
is still a wrong number, and "codes 401, 403" stays two. grounded-v10: a context's "235, 000"
(tokenised news articles) is also the number 235000, where a claim's "235,000" is found."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faith_udfs import FaithfulnessMetric, GroundedJudge, LLMTestCase, MetricConfig, score_cases
from faith_udfs.grounded import GroundedV8Judge, GroundedV9Judge
from faith_udfs.judges import Judge
from faith_udfs.word_rules import (
    V8_WORD_RULES,
    V9_WORD_RULES,
    V10_WORD_RULES,
    joined_numbers,
    joined_numbers_text,
    number_forms,
    number_forms_text,
)

ROOT = Path(__file__).resolve().parents[2]


def judged(answer: str, context: str, judge: Judge) -> tuple[str, list[str] | None]:
    metric = FaithfulnessMetric(model=judge)
    metric.measure(LLMTestCase(input="q", actual_output=answer, retrieval_context=[context]))
    ((verdict, lacks),) = [(v.verdict, v.context_lacks) for v in metric.verdicts]
    return verdict, lacks


@pytest.mark.parametrize(
    ("answer", "context"),
    [
        ("The TV costs 1,000 dollars.", "The TV costs 1000 dollars."),
        ("The TV costs 1000 dollars.", "The TV costs 1,000 dollars."),
        ("The plan costs 12,500,000 euros.", "The plan costs 12500000 euros."),
        ("The fee is 5 dollars.", "The fee is $5."),
        ("Sales rose 5 percent.", "Sales rose 5%."),
        ("The fee is 5 dollars per month.", "Plans: the fee is $5 a month. Refunds take 5 days."),
    ],
)
def test_a_number_written_otherwise_is_the_contexts_number(answer: str, context: str) -> None:
    assert judged(answer, context, GroundedJudge()) == ("yes", None)
    assert judged(answer, context, GroundedV8Judge())[0] == "no"  # v8's series as it was


@pytest.mark.parametrize(
    ("answer", "context", "lacked"),
    [
        ("The TV costs 2,000 dollars.", "The TV costs 1,000 dollars.", ["2000"]),
        ("The fee is $7.", "The fee is $5.", ["7"]),
        ("Sales rose 15%.", "Sales rose 5%.", ["15"]),
        ("The fee is 5 euros.", "The fee is $5.", ["euros"]),
        # a decimal number is one word: a price without its cents is another price
        ("The fee is $4.", "The fee is $4.95.", ["4"]),
        ("The TV costs 1000 dollars.", "The TV costs 1,000.50 dollars.", ["1000"]),
        # compared as one word, "4point90", but shown to a person as the claim wrote it
        ("The fee is $4.90.", "The fee is $4.95.", ["4.90"]),
        ("It weighs 2.5 kg.", "It weighs 2.4 kg.", ["2.5"]),
    ],
)
def test_a_wrong_number_or_currency_is_still_no(
    answer: str, context: str, lacked: list[str]
) -> None:
    assert judged(answer, context, GroundedJudge()) == ("no", lacked)


def test_the_batch_shows_a_decimal_number_the_context_lacks_as_written() -> None:
    """context_lacks is read by a person: "4.90", not the "4point90" it is compared as."""
    cases = pl.DataFrame(
        {
            "case_id": ["c1", "c2"],
            "actual_output": ["The fee is $4.90.", "It weighs 2.5 kg."],
            "retrieval_context": [["The fee is $4.95."], ["It weighs 2.4 kg."]],
        }
    )
    stored = score_cases(cases, GroundedJudge(), MetricConfig()).claim_verdicts
    assert stored["context_lacks"].to_list() == [["4.90"], ["2.5"]]
    v8 = score_cases(cases, GroundedV8Judge(), MetricConfig()).claim_verdicts
    assert v8["context_lacks"].to_list() == [["90"], ["5"]]  # v8's series as it was


def test_numbers_listed_after_a_comma_and_a_space_stay_two() -> None:
    context = "Codes 401, 403 mean that access was denied."
    assert judged("Codes 401 and 403 mean that access was denied.", context, GroundedJudge()) == (
        "yes",
        None,
    )
    assert number_forms_text("codes 401, 403 and 1,000,000,000") == "codes 401, 403 and 1000000000"


def test_a_number_of_any_length_is_joined_whole() -> None:
    """Three passes of one comma each left a trillion's last comma: "1,000,000,000,000" was the
    words "1000000000" and "000", so a claim's billion found its number in the context."""
    assert number_forms_text("1,000,000,000,000 and 12,345,678,901,234,567") == (
        "1000000000000 and 12345678901234567"
    )
    trillion = "The fund holds 1,000,000,000,000 dollars."
    assert judged("The fund holds 1000000000 dollars.", trillion, GroundedJudge())[0] == "no"
    assert judged("The fund holds 1,000,000,000 dollars.", trillion, GroundedJudge())[0] == "no"
    written = "The fund holds 1000000000000 dollars."
    assert judged("The fund holds 1,000,000,000,000 dollars.", written, GroundedJudge()) == (
        "yes",
        None,
    )


@pytest.mark.parametrize(
    ("answer", "context"),
    [
        ("The fee is £5.", "The fee is 5 GBP."),
        ("The fee is 5 GBP.", "The fee is £5."),
        ("The fee is 5 pounds.", "The fee is £5."),
        ("The fee is £5.", "The fee is 5 pounds."),
    ],
)
def test_a_pound_sign_meets_gbp_and_pounds(answer: str, context: str) -> None:
    """ "£" read as "pound" lacked the unit GBP: "£5" against "5 GBP" turned v8's `yes` to `no`
    (lacking "pound", a word the answer never wrote)."""
    assert judged(answer, context, GroundedJudge()) == ("yes", None)
    assert judged("The fee is £7.", context, GroundedJudge())[0] == "no"


TEXTS = st.lists(
    st.sampled_from(
        [
            "1",
            "12",
            "1,000",
            ",",
            "000",
            ",000",
            ".",
            "4.95",
            ".5",
            "1000",
            "2,50",
            "3,1234",
            "$",
            "€",
            "£",
            "%",
            " ",
            "a",
        ]
    ),
    max_size=14,
).map("".join)


@settings(max_examples=80, deadline=None)
@given(texts=st.lists(TEXTS, min_size=1, max_size=6))
def test_the_batch_and_the_twin_write_numbers_alike(texts: list[str]) -> None:
    batch = pl.DataFrame({"text": texts}).select(number_forms(pl.col("text")))["text"].to_list()
    assert batch == [number_forms_text(text) for text in texts]


def test_only_v9_reads_numbers_otherwise() -> None:
    assert V9_WORD_RULES.number_forms
    assert not V8_WORD_RULES.number_forms


def test_the_bench_prints_v8_failing_and_v9_passing_an_amount_written_otherwise(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    import swapped_words

    assert (
        swapped_words.main(["--devsets", str(tmp_path), "--versions", "grounded-v8,grounded-v9"])
        == 0
    )
    out = capsys.readouterr().out
    assert "v8 no (0.200)     v9 yes (0.833)    The TV costs 1,000 dollars." in out
    assert "v8 no (0.165)     v9 no (0.108)     The TV costs 2,000 dollars." in out
    assert "data/sample/cases.parquet: 0 claims whose verdict v9 changes" in out


def test_a_decimal_number_is_one_word_on_both_sides() -> None:
    assert judged("The fee is $4.95.", "The fee is 4.95 dollars.", GroundedJudge()) == ("yes", None)
    assert number_forms_text("v2.3 costs 4.95, not 4. 95") == "v2point3 costs 4point95, not 4. 95"


VIEWS = "The video , posted on friday , was viewed more than 235, 000 times ."


@pytest.mark.parametrize(
    "answer",
    ["The video was viewed more than 235,000 times.", "It was viewed more than 235000 times."],
)
def test_a_contexts_spaced_number_is_also_read_whole_from_v10(answer: str) -> None:
    """CNN/DM articles are tokenised with a space after every comma: v9 read "235, 000" as the
    words "235" and "000" only, so a summary's "235,000" (235000 since v9) was `no`."""
    assert judged(answer, VIEWS, GroundedJudge()) == ("yes", None)
    assert judged(answer, VIEWS, GroundedV9Judge()) == ("no", ["235000"])  # v9's series
    cases = pl.DataFrame(
        {
            "case_id": ["a"],
            "input": ["q"],
            "actual_output": [answer],
            "retrieval_context": [[VIEWS]],
        }
    )
    batch = score_cases(cases, GroundedJudge(), MetricConfig()).claim_verdicts
    assert batch["verdict"].to_list() == ["yes"]  # the batch path as the one-case twin


@pytest.mark.parametrize(
    ("answer", "context", "lacked"),
    [
        # another number is still another number
        ("The video was viewed more than 236,000 times.", VIEWS, ["236000"]),
        # the claim's side is never joined: its list still needs both numbers
        (
            "Codes 401, 403 mean that access was denied.",
            "Code 401403 means access was denied.",
            None,
        ),
    ],
)
def test_only_the_contexts_spaced_number_is_joined(
    answer: str, context: str, lacked: list[str] | None
) -> None:
    verdict, lacks = judged(answer, context, GroundedJudge())
    assert verdict == "no"
    if lacked is not None:
        assert lacks == lacked
    else:
        assert lacks is not None
        assert {"401", "403"} <= set(lacks)


def test_a_list_written_with_a_comma_and_a_space_still_holds_each_number() -> None:
    context = "Codes 401, 403 mean that access was denied."
    assert joined_numbers_text(context) == context + " 401403"
    assert judged("Code 403 means that access was denied.", context, GroundedJudge())[0] == "yes"


SPACED = st.lists(
    st.sampled_from(["1", "12", "235", "1234", ", ", ",", "000", "999", "0001", " ", "a", "."]),
    max_size=14,
).map("".join)


@settings(max_examples=80, deadline=None)
@given(texts=st.lists(SPACED, min_size=1, max_size=6))
def test_the_batch_and_the_twin_join_spaced_numbers_alike(texts: list[str]) -> None:
    batch = pl.DataFrame({"text": texts}).select(joined_numbers(pl.col("text")))["text"].to_list()
    assert batch == [joined_numbers_text(text) for text in texts]


def test_only_v10_joins_a_contexts_spaced_numbers() -> None:
    assert V10_WORD_RULES.joined_numbers
    assert not V9_WORD_RULES.joined_numbers


def test_the_bench_prints_v9_failing_and_v10_passing_a_spaced_context_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    import swapped_words

    versions = ["--versions", "grounded-v9,grounded-v10"]
    assert swapped_words.main(["--devsets", str(tmp_path), *versions]) == 0
    out = capsys.readouterr().out
    assert "v9 no (0.108)     v10 yes (0.833)    The video was viewed more than 235,000" in out
    assert "v9 no (0.108)     v10 no (0.108)     The video was viewed more than 236,000" in out
    assert "data/sample/cases.parquet: 0 claims whose verdict v10 changes" in out
