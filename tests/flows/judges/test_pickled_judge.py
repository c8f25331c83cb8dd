"""A metric judged by a model name travels to worker processes: multiprocessing, joblib and
Ray pickle the metric they are given. The judge goes as its settings, never its key nor its
connections, and is built again, reading the key from the environment it lands in."""

from __future__ import annotations

import pickle
from collections.abc import Iterator

import duckdb
import pytest

import flows.run.deepeval  # noqa: F401 - model names mean the OpenAI judge
from faith_udfs import FaithfulnessMetric, LLMTestCase
from flows.judges import JudgeSettings, build_judge
from tests.support.openai_stub import StubServer, serving

KEY = "sk-test-key-that-must-not-travel"
CASE = LLMTestCase(
    input="What if these shoes don't fit?",
    actual_output="Refunds are paid within 30 days.",
    retrieval_context=["Refunds are paid within 30 days."],
)


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[StubServer]:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    with serving(api_key=KEY) as stub:
        monkeypatch.setenv("OPENAI_BASE_URL", stub.base_url)
        yield stub


def test_a_metric_with_a_model_name_pickles_without_its_key_and_scores_after(
    server: StubServer,
) -> None:
    """It was `TypeError: cannot pickle '_thread.lock' object`."""
    metric = FaithfulnessMetric(threshold=0.7, model="gpt-4o-mini")
    metrics = [metric]
    try:
        assert metric.measure(CASE) == 1.0  # a judge that has made calls travels too
        sent = pickle.dumps(metric)
        assert KEY.encode() not in sent
        asked = server.requests
        copy = pickle.loads(sent)
        metrics.append(copy)
        assert copy.evaluation_model == "gpt-4o-mini"
        assert copy.threshold == 0.7
        assert copy.measure(CASE) == 1.0
        assert server.requests > asked  # the copy asks the same endpoint, with its own client
    finally:  # their connections: left open, a later test's garbage collection warned of them
        for each in metrics:
            each.model.close()


def test_a_judge_holding_a_databases_call_cache_is_refused_in_one_line(
    server: StubServer, tmp_path
) -> None:
    """A DuckDB connection cannot travel: say so, and what to do, instead of pickle's
    `cannot pickle '_thread.lock' object`."""
    con = duckdb.connect(str(tmp_path / "faith.duckdb"))
    judge = build_judge(
        JudgeSettings(kind="openai", model="gpt-4o-mini", base_url=server.base_url), con
    )
    try:
        with pytest.raises(TypeError) as refused:
            pickle.dumps(FaithfulnessMetric(model=judge))
        message = str(refused.value)
        assert "\n" not in message
        assert message.startswith("an OpenAIJudge holding a database's call cache cannot be")
    finally:
        judge.close()
        con.close()
