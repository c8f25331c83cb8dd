"""The seed tutorial's three answers are our first acceptance tests, through every judge."""

from __future__ import annotations

import pytest

from faith_udfs import FaithfulnessMetric, GroundedJudge, LexicalJudge, PromptJudge
from faith_udfs.grounded_v1 import GroundedV1Judge
from tests.conftest import POLICY, QUESTION, retrieve
from tests.support.seed_judge import pretend_judge

JUDGES = {
    "grounded": GroundedJudge,
    "grounded-v1": GroundedV1Judge,
    "lexical": LexicalJudge,
    "prompt": lambda: PromptJudge(pretend_judge),
}


def test_the_crude_retriever_finds_one_line() -> None:
    assert retrieve(QUESTION) == [POLICY[0]]


@pytest.mark.parametrize("judge", JUDGES)
def test_grounded_answer_scores_one(judge: str, seed_cases) -> None:
    metric = FaithfulnessMetric(model=JUDGES[judge]())
    assert metric.measure(seed_cases["grounded"]) == 1.0
    assert metric.reason == "The score is 1.00."
    assert metric.success is True
    assert metric.claims == ["Order A17 shipped on 3 March."]
    assert metric.truths == ["Order A17 shipped on 3 March by courier."]
    assert [v.verdict for v in metric.verdicts] == ["yes"]


@pytest.mark.parametrize("judge", JUDGES)
def test_invented_sentence_is_unknown_and_costs_nothing_by_default(judge: str, seed_cases) -> None:
    metric = FaithfulnessMetric(model=JUDGES[judge]())
    assert metric.measure(seed_cases["invented"]) == 1.0
    assert [v.verdict for v in metric.verdicts] == ["yes", "idk"]
    assert metric.verdicts[1].reason == "The context does not mention: It arrives tomorrow."


@pytest.mark.parametrize("judge", JUDGES)
def test_invented_sentence_costs_half_when_penalized(judge: str, seed_cases) -> None:
    strict = FaithfulnessMetric(model=JUDGES[judge](), penalize_ambiguous_claims=True)
    assert strict.measure(seed_cases["invented"]) == 0.5
    assert strict.reason == "The score is 0.50."
    assert strict.success is True  # 0.5 >= the default threshold 0.5


@pytest.mark.parametrize("judge", JUDGES)
def test_contradicting_answer_halves_the_score(judge: str, seed_cases) -> None:
    metric = FaithfulnessMetric(model=JUDGES[judge]())
    assert metric.measure(seed_cases["wrong"]) == 0.5
    assert metric.reason == "The score is 0.50."
    assert [(v.verdict, v.reason) for v in metric.verdicts] == [
        ("no", "The context says otherwise about: Order A17 was cancelled."),
        ("idk", "The context does not mention: We are sorry."),
    ]


def test_each_judge_names_its_own_metric_config() -> None:
    metrics = [FaithfulnessMetric(model=make()) for make in JUDGES.values()]
    config_ids = {metric.config.config_id(metric.model.identity) for metric in metrics}
    assert len(config_ids) == len(JUDGES)
