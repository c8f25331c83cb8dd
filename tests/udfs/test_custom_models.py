"""A DeepEval user's own model class, written as they write it: an `async def generate`, a
`generate` that hands back `a_generate(...)`'s coroutine, a model used from a notebook's
running event loop."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Coroutine
from typing import Any

import pytest

import faith_udfs.awaiting as awaiting
from faith_udfs import DisplayConfig, ErrorConfig, FaithfulnessMetric, LLMTestCase, evaluate
from faith_udfs.prompts import schema_of
from tests.support.seed_judge import pretend_judge

CONTEXT = ["Refunds are paid within 30 days.", "A receipt is required. Shipping is free."]
ANSWERS = [
    "Refunds are paid within 30 days.",
    "Refunds are paid within 90 days. A receipt is required.",
    "We ship to Mars.",
]
QUIET = DisplayConfig(print_results=False)
KEEP = ErrorConfig(ignore_errors=True)


def cases() -> list[LLMTestCase]:
    return [LLMTestCase(input="q", actual_output=a, retrieval_context=CONTEXT) for a in ANSWERS]


def reply_to(prompt: str) -> str:
    return json.dumps(pretend_judge(prompt, schema_of(prompt)))


class SyncModel:  # DeepEval's docs' custom model
    def load_model(self) -> SyncModel:
        return self

    def generate(self, prompt: str) -> str:
        return reply_to(prompt)

    async def a_generate(self, prompt: str) -> str:
        return reply_to(prompt)

    def get_model_name(self) -> str:
        return "custom-judge"


class AsyncModel(SyncModel):
    """`generate` written `async def`, as an async provider SDK (AsyncOpenAI) invites; every
    call remembers the event loop it ran on, as an async client's connection pool binds to it."""

    def __init__(self) -> None:
        self.loops: set[int] = set()

    async def generate(self, prompt: str) -> str:  # type: ignore[override]
        self.loops.add(id(asyncio.get_running_loop()))
        await asyncio.sleep(0)
        if "Mars" in prompt:
            raise ConnectionError("Connection reset by peer")
        return reply_to(prompt)


class HandsBackModel(SyncModel):
    """A sync `generate` returning the coroutine of its `a_generate`."""

    def generate(self, prompt: str) -> Coroutine[Any, Any, str]:  # type: ignore[override]
        return self.a_generate(prompt)


def outcomes(model: object) -> list[tuple[float | None, str | None]]:
    result = evaluate(cases(), [FaithfulnessMetric(model=model)], display_config=QUIET,
                      error_config=KEEP)  # fmt: skip
    return [(d.score, d.error) for d in (t.metrics_data[0] for t in result.test_results)]


def test_an_async_generate_is_awaited_and_scores_as_a_sync_one() -> None:
    """Its coroutine was read as the reply: every case invalid, `the model replied with a
    coroutine, not JSON`, and a RuntimeWarning that it was never awaited."""
    model = AsyncModel()
    scored = outcomes(model)
    assert [score for score, _ in scored] == [1.0, 0.5, None]
    assert "generate() raised ConnectionError: Connection reset by peer" in (scored[2][1] or "")
    assert len(model.loops) == 1  # one event loop for every call: an async client keeps working
    assert outcomes(HandsBackModel()) == outcomes(SyncModel())


def test_an_async_generate_works_from_inside_a_running_event_loop() -> None:
    """A notebook calls measure() inside its running loop, and awaits a_measure()."""

    async def notebook_cell() -> tuple[float | None, float | None]:
        metric = FaithfulnessMetric(model=AsyncModel())
        first = metric.measure(cases()[1])
        return first, await FaithfulnessMetric(model=AsyncModel()).a_measure(cases()[1])

    assert asyncio.run(notebook_cell()) == (0.5, 0.5)


def test_an_async_generate_that_never_ends_is_its_cases_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The wait for it has a deadline: the case is given up with an error saying so."""
    monkeypatch.setattr(awaiting, "DEADLINE_SECONDS", 0.01)

    class HungModel(SyncModel):
        async def generate(self, prompt: str) -> str:  # type: ignore[override]
            await asyncio.Event().wait()  # never set
            return reply_to(prompt)

    metric = FaithfulnessMetric(model=HungModel())
    metric.measure(cases()[0])
    assert metric.score is None
    assert metric.error == (
        "JudgeTransientError: the model's generate() did not finish within 0.01 s"
    )


class RunsItsAsyncModel(SyncModel):
    """The sync `generate` a DeepEvalBaseLLM subclass often writes over its `a_generate`."""

    def generate(self, prompt: str) -> str:
        return asyncio.run(self.a_generate(prompt))


def test_a_generate_running_its_own_event_loop_works_inside_a_notebooks_loop() -> None:
    """In a notebook (a running loop) it was every case's error: `the model's generate()
    raised RuntimeError: asyncio.run() cannot be called from a running event loop`, where
    DeepEval's measure(), asking a_generate there, scores it."""

    async def notebook_cell() -> tuple[float | None, list[tuple[float | None, str | None]]]:
        metric = FaithfulnessMetric(model=RunsItsAsyncModel())
        first = metric.measure(cases()[1])
        assert metric.error is None
        return first, outcomes(RunsItsAsyncModel())

    assert asyncio.run(notebook_cell()) == (0.5, outcomes(SyncModel()))
