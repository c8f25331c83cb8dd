"""The grounded judge (issue 12): the default judge, its verdict rules, its evidence, and the
text normalisation both offline judges share."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import duckdb
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from faith_udfs import (
    FaithfulnessMetric,
    GroundedJudge,
    LexicalJudge,
    LLMTestCase,
    MetricConfig,
    score_cases,
)
from faith_udfs.grounded import DEFAULT_CUTOFFS
from faith_udfs.grounded_v1 import GroundedV1Judge
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.builders import case_row, cases, metric_cases, write

QUESTION = "Where is order A17?"
A17 = ["Order A17 shipped on 3 March by courier."]
REFUNDS = ["Refunds are paid within 5 working days."]


def measured(answer: str, context: list[str], **options: object) -> FaithfulnessMetric:
    """The default metric (no judge named) after measuring one case."""
    metric = FaithfulnessMetric(**options)
    metric.measure(LLMTestCase(input=QUESTION, actual_output=answer, retrieval_context=context))
    return metric


def verdicts(metric: FaithfulnessMetric) -> list[str | None]:
    return [v.verdict for v in metric.verdicts]


def test_the_default_judge_is_the_grounded_judge() -> None:
    assert isinstance(FaithfulnessMetric().model, GroundedJudge)
    assert GroundedJudge().identity.kind == "grounded"
    assert GroundedJudge().identity != LexicalJudge().identity


def test_seed_grounded_answer_scores_one() -> None:
    metric = measured("Order A17 shipped on 3 March.", A17)
    assert (metric.score, verdicts(metric)) == (1.0, ["yes"])


def test_seed_invented_delivery_date_is_unknown_and_costs_only_when_penalized() -> None:
    answer = "Order A17 shipped on 3 March. It arrives tomorrow."
    assert verdicts(measured(answer, A17)) == ["yes", "idk"]
    assert measured(answer, A17).score == 1.0
    assert measured(answer, A17, penalize_ambiguous_claims=True).score == 0.5


def test_seed_contradicting_answer_halves_the_score() -> None:
    metric = measured("Order A17 was cancelled. We are sorry.", A17)
    assert (metric.score, verdicts(metric)) == (0.5, ["no", "idk"])


@pytest.mark.parametrize(
    "sentence",
    [
        "Unable to answer based on the passages.",
        "The passages do not mention when it arrives.",
        "Here is a summary of the passages:",
        "I don't know.",
    ],
)
def test_refusals_and_meta_sentences_are_not_claims(sentence: str) -> None:
    metric = measured(f"{sentence} Order A17 shipped on 3 March.", A17)
    assert metric.claims == ["Order A17 shipped on 3 March."]
    alone = measured(sentence, A17)
    assert (alone.claims, alone.score, alone.no_claims) == ([], 1.0, True)


def test_a_lead_in_followed_by_a_claim_is_still_a_claim() -> None:
    metric = measured("Here is what I found: refunds are paid within 9 working days.", REFUNDS)
    assert verdicts(metric) == ["no"]


@pytest.mark.parametrize(
    "answer",
    [
        "Refunds are paid within 9 working days.",  # a number the context lacks
        "Order A17 shipped on 4 March.",  # a date the context lacks
        "Order A17 shipped on 3 March by courier in Berlin.",  # a name the context lacks
        "Refunds are not paid within 5 working days.",  # a negation the context lacks
    ],
)
def test_a_specific_the_context_lacks_where_it_speaks_of_the_subject_is_no(answer: str) -> None:
    context = REFUNDS if "Refunds" in answer else A17
    metric = measured(answer, context)
    assert verdicts(metric) == ["no"]
    assert metric.verdicts[0].evidence == context[0]


def test_a_silent_context_is_idk_without_evidence_in_a_grounded_answer() -> None:
    metric = measured("Order A17 shipped on 3 March. Batteries are covered.", A17)
    assert verdicts(metric) == ["yes", "idk"]
    assert (metric.verdicts[1].support, metric.verdicts[1].evidence) == (0.0, None)


def test_an_answer_its_context_shares_nothing_with_is_no() -> None:
    # v2: an answer off its context's subject is not grounded (v1 said idk: it passed)
    metric = measured("Batteries are covered.", ["The warranty lasts 2 years."])
    assert verdicts(metric) == ["no"]
    assert metric.verdicts[0].context_lacks == ["batteries", "covered"]
    v1 = measured(
        "Batteries are covered.", ["The warranty lasts 2 years."], model=GroundedV1Judge()
    )
    assert (verdicts(v1), v1.verdicts[0].support, v1.verdicts[0].evidence) == (["idk"], 0.0, None)


def test_support_is_graded_against_the_best_sentence_not_word_by_word() -> None:
    context = ["Order B42 was delivered on 12 April.", "Refunds are paid within 5 days."]
    paraphrase = measured("Order B42 arrived on 12 April.", context)
    assert verdicts(paraphrase) == ["yes"]
    assert 0.5 < paraphrase.verdicts[0].support < 1.0
    assert paraphrase.verdicts[0].evidence == context[0]
    # The lexical judge, all-or-nothing word by word, calls the same paraphrase `no`.
    assert verdicts(measured("Order B42 arrived on 12 April.", context, model=LexicalJudge())) == [
        "no"
    ]


def test_a_claim_only_partly_in_the_context_is_no() -> None:
    metric = measured(
        "Order A17 shipped on 3 March by courier, and the courier lost the parcel twice.", A17
    )
    assert verdicts(metric) == ["no"]


NFC_CAFE = unicodedata.normalize("NFC", "Café Zürich opens at 9 am.")
NFD_CAFE = unicodedata.normalize("NFD", NFC_CAFE)


@pytest.mark.parametrize("judge", [GroundedJudge, LexicalJudge])
@pytest.mark.parametrize(
    ("answer", "context"),
    [
        (NFD_CAFE, [NFC_CAFE]),  # decomposed accents against composed ones
        (NFC_CAFE, [NFD_CAFE]),
        ("Café Zü\u200brich opens at 9 am.", [NFC_CAFE]),  # a zero-width space inside a word
        ("Caf\u00e9 Z\u00fcrich op\u00adens\u2060 at 9 am.\ufeff", [NFC_CAFE]),  # soft hyphen...
    ],
)
def test_unicode_forms_and_format_characters_score_as_the_clean_text(
    judge: type, answer: str, context: list[str]
) -> None:
    clean = measured(NFC_CAFE, [NFC_CAFE], model=judge())
    typed = measured(answer, context, model=judge())
    assert clean.score == 1.0
    assert (typed.score, verdicts(typed)) == (clean.score, verdicts(clean))


WORDS = st.sampled_from(
    "order A17 shipped on 3 March 4 by courier refunds are paid within 5 working days it "
    "arrives tomorrow was cancelled not never Berlin café unable to answer here is".split()
)
SENTENCE = st.builds(
    lambda words, end: " ".join(words) + end,
    st.lists(WORDS, max_size=8),
    st.sampled_from([".", "!", "?", ",", "", ": "]),
)
TEXT = st.builds(" ".join, st.lists(SENTENCE, max_size=4))
CASE = st.tuples(TEXT, st.lists(TEXT, max_size=3))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(batch=st.lists(CASE, min_size=1, max_size=10))
def test_a_batch_gets_the_verdicts_each_case_gets_alone(batch) -> None:
    frame = metric_cases([(f"c{i}", answer, context) for i, (answer, context) in enumerate(batch)])
    together = score_cases(frame, GroundedJudge(), MetricConfig())
    alone = [
        score_cases(frame.slice(i, 1), GroundedJudge(), MetricConfig()) for i in range(len(batch))
    ]
    assert together.case_scores.equals(pl.concat([f.case_scores for f in alone]))
    assert together.claim_verdicts.equals(pl.concat([f.claim_verdicts for f in alone]))
    support = together.claim_verdicts["support"]
    assert support.null_count() == 0
    assert support.is_between(0.0, 1.0).all()


def test_the_pipeline_stores_support_and_evidence(tmp_path: Path) -> None:
    rows = [
        case_row("grounded"),
        case_row("wrong", "Order A17 was cancelled. We are sorry."),
        case_row("refund", "Refunds are paid within 9 working days."),
    ]
    source, db = write(cases(rows), tmp_path / "cases.parquet"), tmp_path / "f.duckdb"
    run = run_score(ScoreSettings(source=str(source), db=str(db)))
    assert run["status"] == "completed"
    con = duckdb.connect(str(db), read_only=True)
    try:
        stored = con.sql(
            "SELECT case_id, claim_index, verdict, support, evidence, context_lacks "
            "FROM claim_verdicts ORDER BY case_id, claim_index"
        ).fetchall()
    finally:
        con.close()
    shipped, refunds = (
        "Order A17 shipped on 3 March by courier.",
        "Refunds are paid within 5 working days.",
    )
    assert [(c, i, v, e, lacks) for c, i, v, _, e, lacks in stored] == [
        ("grounded", 0, "yes", shipped, None),
        ("refund", 0, "no", refunds, ["9"]),
        ("wrong", 0, "no", shipped, ["cancelled"]),
        ("wrong", 1, "idk", None, ["sorry"]),
    ]
    supports = [s for *_, s, _, _ in stored]
    assert supports[0] >= DEFAULT_CUTOFFS.supported
    assert all(0.0 < s < 1.0 for s in supports[1:3])
    assert supports[3] == 0.0
