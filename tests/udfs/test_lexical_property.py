"""Properties: the vectorised LexicalJudge equals the seed's rules applied one case at a time."""

from __future__ import annotations

import polars as pl
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from faith_udfs import LexicalJudge, MetricConfig, PromptJudge, score_cases
from tests.support.builders import metric_cases
from tests.support.seed_judge import pretend_judge

# Words mix a small vocabulary (so claims and truths overlap), stop words, numbers and ids.
WORDS = st.sampled_from(
    "order A17 shipped on 3 March by courier refunds are paid within 5 working days it "
    "arrives tomorrow was cancelled we sorry not never B2 2026 café naïve Straße".split()
)
ENDINGS = st.sampled_from([".", "!", "?", ",", "", ". ", "!\n", "?  "])
SENTENCE = st.builds(
    lambda words, end: " ".join(words) + end, st.lists(WORDS, min_size=0, max_size=7), ENDINGS
)
TEXT = st.builds(" ".join, st.lists(SENTENCE, min_size=0, max_size=4))
CASE = st.tuples(TEXT, st.lists(TEXT, min_size=0, max_size=3))


def frame(cases: list[tuple[str, list[str]]]) -> pl.DataFrame:
    return metric_cases([(f"c{i}", answer, context) for i, (answer, context) in enumerate(cases)])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    cases=st.lists(CASE, min_size=1, max_size=12),
    penalize=st.booleans(),
    limit=st.one_of(st.none(), st.integers(1, 3)),
)
def test_vectorised_lexical_judge_equals_the_seed_rules(cases, penalize, limit) -> None:
    config = MetricConfig(penalize_ambiguous_claims=penalize, truths_extraction_limit=limit)
    batch = frame(cases)
    vectorised = score_cases(batch, LexicalJudge(), config)
    one_by_one = [
        score_cases(batch.slice(i, 1), PromptJudge(pretend_judge), config)
        for i in range(batch.height)
    ]
    columns = [
        "case_id",
        "n_claims",
        "n_yes",
        "n_no",
        "n_idk",
        "score",
        "success",
        "status",
        "reason",
    ]
    expected = pl.concat([frames.case_scores.select(columns) for frames in one_by_one])
    assert vectorised.case_scores.select(columns).equals(expected)
    expected_verdicts = pl.concat([frames.claim_verdicts for frames in one_by_one]).drop(
        "config_id"
    )
    assert vectorised.claim_verdicts.drop("config_id").equals(expected_verdicts)
    scores = vectorised.case_scores["score"].drop_nulls()
    assert scores.is_between(0.0, 1.0).all()
