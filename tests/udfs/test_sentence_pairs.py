"""The library path's guard on a case's (answer sentence x context sentence) pairs, the limit
`faith score` quarantines past (`too_many_sentence_pairs`). Without it, one 44 KB answer of
2,000 sentences against a 110 KB context of 5,000 took `measure()` 39-50 s (quadratic in the
pairs: 100x the pairs, 100x the time) and `score_cases` / `evaluate()` 12 s and 1.9 GB for
that one case: a larger one ran away with no word. Now measure() raises TooManySentencePairs
naming the limit and how to raise it, and score_cases / evaluate() make the case `invalid`
with that message, scoring the others."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from faith_udfs import (
    DEFAULT_MAX_SENTENCE_PAIRS,
    ConfigError,
    ErrorConfig,
    FaithfulnessMetric,
    GroundedJudge,
    LexicalJudge,
    LLMTestCase,
    MetricConfig,
    TooManySentencePairs,
    evaluate,
    score_cases,
    score_frame,
)
from faith_udfs.sentence_pairs import (
    ANSWER_BREAK,
    CONTEXT_BREAK,
    sentence_counts,
    sentences_expr,
)
from schemas import validate_cases
from schemas.sizes import DEFAULT_MAX_SENTENCE_PAIRS as PIPELINE_DEFAULT
from schemas.sizes import SizeLimits
from tests.support.builders import case_row, cases

ROOT = Path(__file__).resolve().parents[2]

# The brief's case, in a process of its own with a hard deadline: before the guard, measure()
# alone took 39-50 s on 2 quiet cores, score_cases 12 s and 1.9 GB.
RUNAWAY = """
import json
import polars as pl
from faith_udfs import ErrorConfig, FaithfulnessMetric, LLMTestCase, evaluate, score_cases
from faith_udfs import GroundedJudge, MetricConfig, TooManySentencePairs
answer = " ".join(f"Item {i} costs 5 euros." for i in range(2000))
context = [" ".join(f"Part {i} costs 5 euros." for i in range(5000))]
case = LLMTestCase(input="q", actual_output=answer, retrieval_context=context, case_id="big")
small = LLMTestCase(input="q", actual_output="Part 1 costs 5 euros.",
                    retrieval_context=["Part 1 costs 5 euros."], case_id="small")
found = {}
try:
    found["measure"] = FaithfulnessMetric().measure(case)
except TooManySentencePairs as exc:  # anything else fails the script, with its traceback
    found["measure"] = f"{type(exc).__name__}: {exc}"
result = evaluate([case, small], [FaithfulnessMetric()], print_results=False,
                  error_config=ErrorConfig(ignore_errors=True))
found["evaluate"] = [(t.name, t.metrics_data[0].status, t.metrics_data[0].error)
                     for t in result.test_results]
frame = pl.DataFrame({"case_id": ["big", "small"], "actual_output": [answer, small.actual_output],
                      "retrieval_context": [context, small.retrieval_context]})
scored = score_cases(frame, GroundedJudge(), MetricConfig()).case_scores.sort("case_id")
found["score_cases"] = scored.select("case_id", "status", "error").rows()
print(json.dumps(found))
"""
TOLD = (
    "TooManySentencePairs: 2000 answer sentences x 5000 context sentences, more than "
    "max_sentence_pairs 1000000: "
)


def test_a_case_of_2000_sentences_against_5000_is_refused_on_every_library_path() -> None:
    done = subprocess.run(
        [sys.executable, "-c", RUNAWAY],
        check=False,
        capture_output=True,
        text=True,
        timeout=240,  # the guard answers in well under a second; the runaway took a minute
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout.splitlines()[-1])
    assert found["measure"].startswith(TOLD)
    assert "FaithfulnessMetric(max_sentence_pairs=N)" in found["measure"]
    (big, small) = found["evaluate"]
    assert big[:2] == ["big", "invalid"]
    assert big[2].startswith(TOLD)
    assert small == ["small", "scored", None]
    (big, small) = found["score_cases"]
    assert big[:2] == ["big", "invalid"]
    assert big[2].startswith(TOLD)
    assert small == ["small", "scored", None]


def _case(answer: str, passages: list[str]) -> LLMTestCase:
    return LLMTestCase(input="q", actual_output=answer, retrieval_context=passages)


LIST = "- Part 1 costs 5 euros.\n- Part 2 costs 5 euros.\n- Part 3 costs 5 euros."
PASSAGES = ["Part 1 costs 5 euros. Part 2 costs 5 euros.", "Part 3 costs 5 euros."]  # 3


def test_the_limit_is_the_pipelines_and_counts_as_it_does() -> None:
    assert DEFAULT_MAX_SENTENCE_PAIRS == PIPELINE_DEFAULT == SizeLimits().sentence_pairs
    texts = [
        (LIST, PASSAGES),
        ("One. Two!\tThree?\rFour.\x1cFive.", ["A.\x1cB. C?  D", "E.\nF"]),
        ("No break at all", ["x"]),
        ("Ends. ", ["Trailing. ", "Other"]),
    ]
    frame = cases(
        [
            case_row(f"c{i}", answer, retrieval_context=passages)
            for i, (answer, passages) in enumerate(texts)
        ]
    )
    for i, (answer, passages) in enumerate(texts):
        a, c = sentence_counts(answer, passages)
        # past a limit of a x c - 1 the pipeline quarantines the row, naming the same counts
        checked = validate_cases(frame.slice(i, 1), SizeLimits(sentence_pairs=a * c - 1 or 1))
        values = checked.quarantined["value"].to_list()
        if a * c > 1:
            assert values == [
                f"{a} answer sentences x {c} context sentences, more than --max-sentence-pairs "
                f"{a * c - 1}"
            ]
        assert validate_cases(frame.slice(i, 1), SizeLimits(sentence_pairs=a * c)).valid.height


def test_measure_raises_past_the_limit_and_scores_at_it() -> None:
    with pytest.raises(TooManySentencePairs) as raised:
        FaithfulnessMetric(max_sentence_pairs=8).measure(_case(LIST, PASSAGES))  # 3 x 3
    error = raised.value
    assert (error.answer_sentences, error.context_sentences, error.limit) == (3, 3, 8)
    assert isinstance(error, ValueError)
    for limit in (9, None):
        metric = FaithfulnessMetric(max_sentence_pairs=limit)
        assert metric.measure(_case(LIST, PASSAGES)) == 1.0
    lexical = FaithfulnessMetric(model=LexicalJudge(), max_sentence_pairs=8)  # any judge
    with pytest.raises(TooManySentencePairs):
        lexical.measure(_case(LIST, PASSAGES))
    # the limit is an attribute, settable as DeepEval's settings are; a_measure says the same
    metric = FaithfulnessMetric()
    metric.max_sentence_pairs = 8
    with pytest.raises(TooManySentencePairs):
        asyncio.run(metric.a_measure(_case(LIST, PASSAGES)))


def test_a_case_past_the_limit_is_invalid_and_the_others_scored() -> None:
    frame = pl.DataFrame(
        {
            "case_id": ["many", "few"],
            "actual_output": [LIST, "Part 1 costs 5 euros."],
            "retrieval_context": [PASSAGES, PASSAGES],
        }
    )
    scored = score_cases(frame, GroundedJudge(), MetricConfig(), max_sentence_pairs=8)
    rows = scored.case_scores.sort("case_id").select("case_id", "status", "score", "error").rows()
    assert rows == [
        ("few", "scored", 1.0, None),
        ("many", "invalid", None, rows[1][3]),
    ]
    assert rows[1][3].startswith(
        "TooManySentencePairs: 3 answer sentences x 3 context sentences, more than "
        "max_sentence_pairs 8: "
    )
    assert scored.claim_verdicts["case_id"].to_list() == ["few"]
    unlimited = score_cases(frame, GroundedJudge(), MetricConfig(), max_sentence_pairs=None)
    assert unlimited.case_scores["status"].to_list() == ["scored", "scored"]
    # score_frame and evaluate() take the limit too
    found = score_frame(frame, max_sentence_pairs=8).sort("case_id")
    assert found["status"].to_list() == ["scored", "invalid"]
    cases_ = [
        LLMTestCase(input="q", actual_output=LIST, retrieval_context=PASSAGES, case_id="many"),
        LLMTestCase(input="q", actual_output="Part 1 costs 5 euros.",
                    retrieval_context=PASSAGES, case_id="few"),
    ]  # fmt: skip
    result = evaluate(
        cases_,
        [FaithfulnessMetric(max_sentence_pairs=8)],
        print_results=False,
        error_config=ErrorConfig(ignore_errors=True),
    )
    assert [t.metrics_data[0].status for t in result.test_results] == ["invalid", "scored"]


@pytest.mark.parametrize("limit", [0, -1, 2.5, True, "1000"])
def test_a_limit_that_is_no_count_is_refused(limit: object) -> None:
    with pytest.raises(ConfigError, match="max_sentence_pairs must be"):
        FaithfulnessMetric(max_sentence_pairs=limit)  # type: ignore[arg-type]


def test_python_and_polars_cut_at_the_same_white_space() -> None:
    """measure() counts in Python's `re`, score_cases and the pipeline in polars' Rust regex,
    whose `\\s` differ: Python's also takes \\x1c-\\x1f. Every white space either knows, and
    the characters near them, break (or do not) alike."""
    chars = [chr(i) for i in range(0x3001) if chr(i).isspace() or i < 0x100]
    chars += ["\u180e", "\u200b", "\u2060", "\ufeff", "\u3000", "\u205f", "\u202f"]
    texts = ["One." + c + "Two." + c + "x" for c in chars]
    frame = pl.DataFrame({"answer": texts, "passages": [[t, t] for t in texts]})
    counted = frame.select(
        answers=sentences_expr("answer", pl.String(), ANSWER_BREAK),
        contexts=sentences_expr("passages", pl.List(pl.String()), CONTEXT_BREAK),
    )
    assert counted.rows() == [sentence_counts(t, [t, t]) for t in texts]
    assert set(counted["answers"]) == {1, 3}  # some break, some do not


@pytest.mark.parametrize("limit", [0, -1, 2.5, True, "1000"])
def test_score_cases_score_frame_and_the_attribute_refuse_a_limit_that_is_no_count(
    limit: object,
) -> None:
    """Only FaithfulnessMetric() checked its limit: score_cases(..., max_sentence_pairs=0) (or
    -1) made every case `invalid` with "more than max_sentence_pairs 0", "1000" raised a
    polars ComputeError of several lines, True and 2.5 passed as 1 and 2.5, and a metric's
    attribute set after it was built was never looked at. Each is the constructor's one-line
    ConfigError now."""
    frame = pl.DataFrame(
        {
            "case_id": ["a"],
            "actual_output": ["A17 shipped."],
            "retrieval_context": [["A17 shipped."]],
        }
    )
    told = r"^max_sentence_pairs must be a whole number of at least 1, or None for no limit; got "
    with pytest.raises(ConfigError, match=told):
        score_cases(frame, GroundedJudge(), MetricConfig(), max_sentence_pairs=limit)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match=told):
        score_frame(frame, max_sentence_pairs=limit)  # type: ignore[arg-type]
    metric = FaithfulnessMetric()
    metric.max_sentence_pairs = limit  # type: ignore[assignment]
    case = LLMTestCase(input="q", actual_output="A17 shipped.", retrieval_context=["A17 shipped."])
    with pytest.raises(ConfigError, match=told):
        metric.measure(case)
    with pytest.raises(ConfigError, match=told):
        evaluate([case], [metric], print_results=False)


def test_a_count_of_one_sentence_is_said_in_the_singular() -> None:
    """measure() said `1 answer sentences x 3 context sentences`."""
    metric = FaithfulnessMetric(max_sentence_pairs=2)
    with pytest.raises(TooManySentencePairs) as raised:
        metric.measure(_case("Part 1 costs 5 euros.", ["One. Two.", "Three."]))
    assert str(raised.value).startswith(
        "1 answer sentence x 3 context sentences, more than max_sentence_pairs 2: "
    )
