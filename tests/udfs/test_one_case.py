"""Issue 24: measure()'s one-case path (faith_udfs/one_case.py, plain Python) gives exactly the
batch path's verdicts, reasons, supports, evidence and scores, for the default grounded judge,
grounded-v1 and the lexical judge, on the seed's, the docs', generated and dev-set cases and on
hypothesis' texts built from the words the rules look at."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from faith_udfs import (
    Cutoffs,
    FaithfulnessMetric,
    GroundedJudge,
    LexicalJudge,
    LLMTestCase,
    MetricConfig,
    one_case,
    score_cases,
)
from faith_udfs.case_results import CaseResult, case_results, cases_frame
from faith_udfs.grounded import (
    GROUNDED_RULES_VERSION,
    WEIGHTS,
    GroundedV2Judge,
    GroundedV3Judge,
    GroundedV4Judge,
    GroundedV5Judge,
    GroundedV6Judge,
    GroundedV7Judge,
    GroundedV8Judge,
    GroundedV9Judge,
    GroundedV10Judge,
    GroundedV11Judge,
    GroundedV12Judge,
)
from faith_udfs.grounded_v1 import GroundedV1Judge
from faith_udfs.judges import Judge
from faith_udfs.one_case import one_case_result
from faith_udfs.one_case_grounded import claim_words, truth_words
from tests.conftest import POLICY

ROOT = Path(__file__).resolve().parents[2]
DEVSETS = ROOT.parent / "shared" / "devsets"

JUDGES: dict[str, Judge] = {
    "grounded": GroundedJudge(),
    "grounded-calibrated": GroundedJudge(Cutoffs(supported=0.7, silent=0.2)),
    # weights as `faith calibrate` refits them: the one-case path weighs with the judge's own
    "grounded-refitted": GroundedJudge(
        Cutoffs(
            supported=0.5,
            silent=0.001,
            weights={**WEIGHTS, "intercept": -0.37, "cov_best": 2.54, "answer_cov": 0.31},
        )
    ),
    "grounded-v12": GroundedV12Judge(),
    "grounded-v11": GroundedV11Judge(),
    "grounded-v10": GroundedV10Judge(),
    "grounded-v9": GroundedV9Judge(),
    "grounded-v8": GroundedV8Judge(),
    "grounded-v7": GroundedV7Judge(),
    "grounded-v6": GroundedV6Judge(),
    "grounded-v5": GroundedV5Judge(),
    "grounded-v4": GroundedV4Judge(),
    "grounded-v3": GroundedV3Judge(),
    "grounded-v2": GroundedV2Judge(),
    "grounded-v1": GroundedV1Judge(),
    "lexical": LexicalJudge(),
}
# The judges the plain-Python path covers (all of them, on plain text).
COVERED = set(JUDGES)
CONFIGS = {
    "default": MetricConfig(),
    "strict-penalised-limited": MetricConfig(
        strict_mode=True, penalize_ambiguous_claims=True, truths_extraction_limit=1
    ),
    "no-reason": MetricConfig(threshold=0.7, include_reason=False),
}

Case = tuple[str, list[str]]
BATCH_MEASURED = 8

SHOES = "All customers are eligible for a 30 day full refund at no extra cost."
HANDWRITTEN: list[Case] = [
    # the seed tutorial's three answers
    ("Order A17 shipped on 3 March.", POLICY),
    ("Order A17 shipped on 3 March. It arrives tomorrow.", POLICY),
    ("Order A17 was cancelled. We are sorry.", POLICY),
    # docs/deepeval.md's side-by-side example
    ("We offer a 30-day full refund at no extra cost.", [SHOES]),
    # tests/udfs/test_deepeval.py's
    (
        "Refunds are paid within 90 days. A receipt is required.",
        ["Refunds are paid within 30 days."],
    ),
    ("Here is a summary: Refunds are not paid. Thanks for your patience!", ["Refunds are paid."]),
    ("Unable to answer based on the passages.", ["Shipping is free."]),
    ("", ["Shipping is free."]),
    ("   ", ["Shipping is free."]),
    ("Shipping is free.", []),
    ("Shipping is free.", ["  ", ""]),
    ("Shipping is free. Shipping is free.", ["Shipping is free.", "Shipping is free."]),
    ("The the of.", ["Of the."]),
    ("Café au lait is free.", ["Café au lait is free."]),  # not ASCII: the batch path
    ("Order A17 shipped.\u200b", ["Order A17 shipped."]),
    # a RAG bot's citations (v4 judges the sentences without them)
    (
        "Based on the provided passages, order A17 shipped on 3 March [1]. [2] Refunds, "
        "according to the context, are paid within 30 days (Passage 2).",
        POLICY,
    ),
    ("[1].", POLICY),
    ("1. Order A17 shipped on 3 March. 2) **Refunds:** Refunds are paid within 30 days.", POLICY),
    ("How many days? 30.", POLICY),
    ("Sure! Order A17 shipped on 3 March. I hope this helps! Let me know if you need it.", POLICY),
    # a chat bot's opening interjections (v5 judges the sentences without them)
    ("Yes, order A17 shipped on 3 March. Yeah it arrives tomorrow.", POLICY),
    ("Of course, refunds are paid within 30 days. Yes! No, it was not cancelled.", POLICY),
    # sentences of no letter or digit (v11: no claims; before, `idk` claims)
    ("Order A17 shipped on 3 March. :) ...", POLICY),
    ("Let me check that for you. Order A17 shipped on 3 March.", POLICY),
    ("One moment, please. Let me check why it was cancelled.", POLICY),
    ("I'm sorry, but I can't assist with that. Refunds are paid within 30 days.", POLICY),
    ("Order A17 shipped on 3 March! \U0001f60a", POLICY),  # an emoji: the batch path
    (":-)", POLICY),
    # ... and on the path of answers that cite or list
    ("Yes, order A17 shipped on 3 March [1]. Sure, it arrives tomorrow (Passage 2).", POLICY),
    ("Key facts:\n1. Ok, refunds are paid within 30 days.\n2) Yes!", POLICY),
    ("Okay, thanks! Well, 1. Order A17 shipped [1]. Great - yes.", POLICY),
    # dates, units and opposites: v7 reads months and weekdays as figures, v6 as names; and a
    # number of the context with another unit, or "after" for "before", is a contradiction
    ("Order A17 shipped on 3 November. Refunds are paid on Friday.", POLICY),
    ("The store is open Monday to Saturday. You may return it in Jan or Feb.", POLICY),
    ("Refunds are paid within 30 weeks. A 30-day window, 3 kg, 5 EUR.", POLICY),
    ("Order A17 shipped after 3 March. Refunds are paid within at most 30 days.", POLICY),
    # greetings: no claim whole, cut off a statement (v13); v12 dropped up to four words after
    ("Thanks, order A17 shipped on 3 March. Hi Anna, yes, refunds are paid within 9 days.", POLICY),
    ("Thanks again, Anna! Hi there, according to the context, refunds are paid [1].", POLICY),
]


@pytest.fixture(scope="module")
def corpus() -> list[Case]:
    """The handwritten cases, the sample month's first 200 and 40 of each dev set: read once
    for the module (every parametrization only reads them)."""
    cases = list(HANDWRITTEN)
    sample = pl.read_parquet(ROOT / "data" / "sample" / "cases.parquet").head(200)
    cases += [(a, list(c)) for a, c in sample.select("actual_output", "retrieval_context").rows()]
    for path in sorted(DEVSETS.glob("*_dev.parquet")):
        rows = pl.read_parquet(path, columns=["actual_output", "retrieval_context"]).head(40)
        cases += [(a, list(c)) for a, c in rows.rows()]
    return cases


def batch_results(judge: Judge, config: MetricConfig, cases: list[Case]) -> list[CaseResult]:
    """Every case scored by the batch path in one batch."""
    ids = [str(i) for i in range(len(cases))]
    frame = cases_frame(ids, [a for a, _ in cases], [c for _, c in cases])
    results = case_results(score_cases(frame, judge, config))
    return [results[i] for i in ids]


def measured(metric: FaithfulnessMetric, case_id: str, case: Case) -> tuple[object, ...]:
    metric.measure(LLMTestCase("q", case[0], case[1], case_id=case_id))
    return (
        metric.score, metric.success, metric.reason, metric.status, metric.error,
        metric.no_claims, metric.truths, metric.claims, metric.verdicts, metric.score_breakdown,
    )  # fmt: skip


def as_measured(result: CaseResult) -> tuple[object, ...]:
    return (
        result.score, result.success, result.reason, result.status, result.error,
        result.no_claims, result.truths, result.claims, result.verdicts, result.score_breakdown,
    )  # fmt: skip


def check(judge_name: str, config: MetricConfig, cases: list[Case]) -> int:
    """Assert measure() == batch for every case the one-case path covers, and for the first
    BATCH_MEASURED others (those run the batch path once each: slow); return how many it
    covered."""
    judge = JUDGES[judge_name]
    metric = FaithfulnessMetric(model=judge, **_metric_settings(config))
    covered = uncovered = 0
    for i, (case, expected) in enumerate(
        zip(cases, batch_results(judge, config, cases), strict=True)
    ):
        fast = one_case_result(judge, config, str(i), case[0], case[1])
        if fast is not None:
            covered += 1
            assert fast == expected, (judge_name, case)
        else:
            uncovered += 1
            if uncovered > BATCH_MEASURED:
                continue
        metric._memo.clear()  # each case scored anew, not remembered
        assert measured(metric, str(i), case) == as_measured(expected), (judge_name, case)
    return covered


def _metric_settings(config: MetricConfig) -> dict[str, object]:
    return {
        "threshold": config.threshold,
        "strict_mode": config.strict_mode,
        "penalize_ambiguous_claims": config.penalize_ambiguous_claims,
        "include_reason": config.include_reason,
        "truths_extraction_limit": config.truths_extraction_limit,
    }


# The default settings in the fast tier; the other settings (~10 s more) in make test's.
SETTINGS = [
    pytest.param(name, marks=[] if name == "default" else [pytest.mark.slow]) for name in CONFIGS
]


@pytest.mark.parametrize("config", SETTINGS)
@pytest.mark.parametrize("judge", JUDGES)
def test_one_case_equals_the_batch_path_on_the_corpus(
    judge: str, config: str, corpus: list[Case]
) -> None:
    cases = corpus
    covered = check(judge, CONFIGS[config], cases)
    if judge in COVERED:
        assert covered >= 0.6 * len(cases)  # most cases are plain ASCII and take the fast path
    else:
        assert covered == 0


# Fragments that reach every rule: figures (digits, number words), names, all-capital words,
# negations and n't, inflections that stem alike, stop words, lead-ins, refusals, courtesies,
# clause breaks, repeated sentences, citations and attribution phrases (v4), and text outside
# ASCII (which takes the batch path).
FRAGMENTS = [
    ":)",
    "...",
    "--",
    "let me check",
    "one moment please",
    "while I look up",
    "I can't help with that",
    "Order A17",
    "order a17",
    "shipped",
    "ships",
    "shipping",
    "delivered",
    "delivery",
    "on 3 March",
    "on 12 May",
    "on 12 November",
    "on Nov 3",
    "Monday",
    "to friday",
    "may",
    "within 30 weeks",
    "30-day",
    "days",
    "euros",
    "per month",
    "per year",
    "20 euros a month",
    "20 dollars per GB",
    "1,000",
    "1000",
    "12,500,000",
    "235, 000",
    "235000",
    "$5",
    "5 dollars",
    "5%",
    "percent",
    "401, 403",
    "before",
    "after",
    "over 50",
    "under",
    "is closed",
    "open on",
    "at least",
    "within 30 days",
    "within 9 days",
    "two",
    "twenty",
    "dozens",
    "dozen",
    "Refunds",
    "refund",
    "are",
    "not",
    "never",
    "isn't",
    "can't",
    "paid",
    "the",
    "of",
    "and",
    "but",
    "Paris",
    "NASA",
    "USB",
    "a receipt",
    "is required",
    "Here is a summary:",
    "Unable to answer",
    "the context does not mention",
    "Thanks",
    "I hope this helps",
    "Let me know if",
    "Feel free to ask",
    "Great question",
    "Sure",
    "Yes,",
    "ok",
    "Of course,",
    "Well!",
    "Well-known",
    "Yes—",
    "Happy to help",
    "Hi",
    "Thank you for waiting,",
    "Anna",
    "there",
    "again",
    ",",
    ";",
    "[1]",
    "[2, 3]",
    "[^4]",
    "[citation needed]",
    "(Passage 1)",
    "(see the context)",
    "According to the passages,",
    "Based on the provided context,",
    "The passage states that",
    "Passage 2 says",
    ", according to the context",
    "It is stated in the context that",
    "【1†source】",
    "1.",
    "2)",
    "- ",
    "b)",
    "Step 3:",
    "**Height:**",
    "Key facts:\n-",
    "\n2)",
    "\n- ",
    "é",
    "\u200b",
]
sentence = st.lists(st.sampled_from(FRAGMENTS), min_size=0, max_size=7).map(" ".join)
text = st.lists(
    st.tuples(sentence, st.sampled_from([".", "!", "?", "", ".\n", ". "])), max_size=4
).map(lambda parts: " ".join(s + end for s, end in parts))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    answer=text,
    passages=st.lists(text, max_size=3),
    copy=st.booleans(),
    judge=st.sampled_from(sorted(JUDGES)),
    config=st.sampled_from(sorted(CONFIGS)),
)
def test_one_case_equals_the_batch_path_on_generated_texts(
    answer: str, passages: list[str], copy: bool, judge: str, config: str
) -> None:
    if copy and passages:  # a claim word for word one of the truths
        answer = f"{answer} {passages[0]}"
    check(judge, CONFIGS[config], [(answer, passages)])


def test_the_default_judge_is_covered_by_the_one_case_path() -> None:
    """Fails when the grounded rules get a new version: update one_case_grounded.py (and
    one_case.py's RULES) to the new rules, or measure() of a new case is ~50x slower."""
    case = ("Order A17 shipped on 3 March.", POLICY)
    assert one_case_result(GroundedJudge(), MetricConfig(), "c", *case) is not None, (
        f"{GROUNDED_RULES_VERSION} has no one-case twin"
    )


def test_what_the_one_case_path_does_not_cover_takes_the_batch_path() -> None:
    class Stricter(LexicalJudge):
        pass

    plain = ("Order A17 shipped.", ["Order A17 shipped."])
    assert one_case_result(Stricter(), MetricConfig(), "c", *plain) is None  # a subclass
    assert one_case_result(GroundedV1Judge(), MetricConfig(), "c", *plain) is not None
    assert one_case_result(LexicalJudge(), MetricConfig(), "c", "Café.", ["Café."]) is None
    assert one_case_result(LexicalJudge(), MetricConfig(), "c", *plain) is not None


def test_a_case_past_the_size_bound_takes_the_batch_path() -> None:
    """Python's rules cost ~1 us a character of context, the batch path a fixed ~0.1 s: a
    20-sentence answer against 20,000 passages took 5.9 s in measure(), 0.6 s in evaluate()
    (bench/one_case_size.py). Past ONE_CASE_CHARS a case is the batch path's, same result."""
    passage = "Order A17 shipped on 3 March by courier. Refunds take 5 days. " * 30
    passages = [passage] * (one_case.ONE_CASE_CHARS // len(passage))
    answer = "Order A17 shipped on 3 March. Refunds take 9 days."
    assert len(answer) + sum(map(len, passages)) <= one_case.ONE_CASE_CHARS
    assert one_case_result(GroundedJudge(), MetricConfig(), "c", answer, passages) is not None
    passages.append(passage)
    assert one_case_result(GroundedJudge(), MetricConfig(), "c", answer, passages) is None
    metric = FaithfulnessMetric()
    assert metric.measure(LLMTestCase("q", answer, passages, case_id="c")) == 0.5
    expected = score_cases(
        cases_frame(["c"], [answer], [passages]), GroundedJudge(), MetricConfig()
    )
    assert metric.frames is not None
    assert metric.frames.claim_verdicts.equals(expected.claim_verdicts)


def test_a_case_scored_in_python_still_has_its_batch_frames() -> None:
    metric = FaithfulnessMetric(model=LexicalJudge())
    metric.measure(LLMTestCase("q", "Order A17 shipped. It is late.", POLICY, case_id="c1"))
    assert metric.frames is not None
    frame = cases_frame(["c1"], ["Order A17 shipped. It is late."], [POLICY])
    expected = score_cases(frame, LexicalJudge(), metric.config)
    assert metric.frames.case_scores.equals(expected.case_scores)
    assert metric.frames.claim_verdicts.equals(expected.claim_verdicts)


def test_a_cases_frames_are_of_the_case_as_measured_whatever_changed_since() -> None:
    """The frames were made on first use from the case object and the metric's settings as
    they were then: after `metric.threshold = 0.9` and an edited case, `frames` said 0.5 and
    failed while `metric.score` said 1.0 and passed."""
    metric = FaithfulnessMetric(model=LexicalJudge())
    case = LLMTestCase("q", "Order A17 shipped. It is late.", POLICY, case_id="c1")
    assert metric.measure(case) == 1.0  # the late delivery is not mentioned: idk
    metric.penalize_ambiguous_claims, metric.threshold = True, 0.9
    case.actual_output = "Order A17 was cancelled."
    assert metric.frames is not None
    scores = metric.frames.case_scores.select("score", "success", "threshold").to_dicts()
    assert scores == [{"score": 1.0, "success": True, "threshold": 0.5}]
    assert metric.frames.claim_verdicts["claim"].to_list() == ["Order A17 shipped.", "It is late."]


def test_long_runs_cost_the_one_case_path_about_their_length(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Python's `re` tried the citation patterns that open with `\\s*` at each space of a run
    (TRAILING_PATTERN's `\\s*,?\\s+` cubically), and a list's heading pattern at each
    character of its line: a sentence with 1,000 spaces took 11 s in measure() (2,000: 105 s),
    a 20,000-character heading line 1 s. At these sizes that is minutes (3,000 spaces: ~5 min;
    200,000 characters: ~100 s); now a tenth of a second, so the 30 s bound holds on a loaded
    machine and fails only on the old cost. Same results as the batch path."""
    monkeypatch.setattr(one_case, "ONE_CASE_CHARS", sys.maxsize)  # the rules' own cost
    answers = [
        "The refund fee is" + " " * 3_000 + "5 euros [1] (passage 2), according to the text.",
        "Key facts " + "x" * 200_000 + ":\n- Order A17 shipped on 3 March.",
    ]
    for answer in answers:
        started = time.process_time()  # CPU, not wall: a loaded machine slows the wall clock
        assert one_case_result(GroundedJudge(), MetricConfig(), "c", answer, POLICY) is not None
        assert time.process_time() - started < 30
    check("grounded", MetricConfig(), [(answer, POLICY) for answer in answers])


def test_a_lead_in_with_a_long_run_of_white_space_costs_about_its_length(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """NON_CLAIM_PATTERN's `[^:]*:?\\s*$` split a run of white space after a lead-in every way
    in Python's `re`: "Here are", 10,000 spaces and tabs, ": : x" took 3 s (20,000: ~15 s; the
    60,000 here: minutes); now a tenth of a second, so the 30 s bound holds on a loaded machine."""
    monkeypatch.setattr(one_case, "ONE_CASE_CHARS", sys.maxsize)  # the rules' own cost
    answer = "Order A17 shipped on 3 March. Here are" + " \t" * 60_000 + ": : x."
    started = time.process_time()  # CPU, not wall: a loaded machine slows the wall clock
    assert one_case_result(GroundedJudge(), MetricConfig(), "c", answer, POLICY) is not None
    assert time.process_time() - started < 30
    check("grounded", MetricConfig(), [(answer, POLICY)])


def test_measure_keeps_no_large_case_nor_long_text_in_memory() -> None:
    """The metric's memo and the twin's caches held each text whole: a loop of measure() over
    cases of 200 KB sentences grew by 0.57 MB a case, toward 4,096 of them."""
    long = "Order A17 shipped on 3 March " + "and then " * 4_000
    metric = FaithfulnessMetric()
    truth_words.cache_clear()
    claim_words.cache_clear()
    for i in range(3):
        metric.measure(LLMTestCase("q", f"{long} {i}", [f"{long} {i}."], case_id=f"c{i}"))
        assert metric.score is not None
    assert len(metric._memo) == 0
    assert truth_words.cache_info().currsize == claim_words.cache_info().currsize == 0
    metric.measure(LLMTestCase("q", "Order A17 shipped on 3 March.", POLICY, case_id="small"))
    assert len(metric._memo) == 1  # a real case is still remembered
