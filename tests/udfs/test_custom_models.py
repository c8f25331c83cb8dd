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
from faith_udfs import (
    AsyncConfig,
    ConfigError,
    DisplayConfig,
    ErrorConfig,
    FaithfulnessMetric,
    LLMTestCase,
    evaluate,
)
from faith_udfs.deepeval_models import STAND_INS
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


class MeetingModel(SyncModel):
    """An async model whose every call waits for a second call to be in flight with it: one
    call at a time, the first waits alone until its deadline."""

    def __init__(self) -> None:
        self.in_flight = 0
        self.most_in_flight = 0
        self.met: asyncio.Event | None = None

    async def generate(self, prompt: str) -> str:  # type: ignore[override]
        self.met = self.met or asyncio.Event()  # made on faith_udfs' loop, its only user
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        if self.in_flight >= 2:
            self.met.set()
        try:
            await self.met.wait()
        finally:
            self.in_flight -= 1
        return reply_to(prompt)


def test_an_async_models_calls_are_made_together_as_deepeval_makes_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """evaluate() asked an async model one call at a time (92 calls of 50 ms for 30 cases:
    4.7 s), where DeepEval has up to 20 of them in flight."""
    monkeypatch.setattr(awaiting, "DEADLINE_SECONDS", 30.0)
    model = MeetingModel()
    assert outcomes(model) == outcomes(SyncModel())  # in the items' order, none given up
    assert 2 <= model.most_in_flight <= 20


class WaitsOnceModel(SyncModel):
    """An async model whose first call waits a while for company; the rest go straight on."""

    def __init__(self) -> None:
        self.in_flight = 0
        self.most_in_flight = 0
        self.first = True

    async def generate(self, prompt: str) -> str:  # type: ignore[override]
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            if self.first:
                self.first = False
                await asyncio.sleep(0.5)
            return reply_to(prompt)
        finally:
            self.in_flight -= 1


@pytest.mark.parametrize(
    "options",
    [{"async_config": AsyncConfig(max_concurrent=1)}, {"run_async": False}],
    ids=["max_concurrent-1", "run_async-False"],
)
def test_evaluate_keeps_to_its_async_config(options: dict[str, Any]) -> None:
    """A rate-limited user's AsyncConfig(max_concurrent=1) is one call in flight."""
    model = WaitsOnceModel()
    evaluate(cases(), [FaithfulnessMetric(model=model)], display_config=QUIET, **options)
    assert model.most_in_flight == 1


class StartsModel(SyncModel):
    """An async model noting when each call starts (the loop's clock)."""

    def __init__(self) -> None:
        self.starts: list[float] = []

    async def generate(self, prompt: str) -> str:  # type: ignore[override]
        self.starts.append(asyncio.get_running_loop().time())
        return reply_to(prompt)


def test_throttle_value_spaces_an_async_models_calls() -> None:
    """A rate-limited user's `throttle_value` was taken and ignored: since an async model's
    calls go out together (up to 20), such a user met a storm of 429s. Each call now starts
    `throttle_value` seconds after the one before, at least (a lower bound: no load breaks it)."""
    model = StartsModel()
    config = AsyncConfig(throttle_value=0.05)
    evaluate(cases(), [FaithfulnessMetric(model=model)], display_config=QUIET,
             async_config=config)  # fmt: skip
    gaps = [b - a for a, b in zip(model.starts, model.starts[1:], strict=False)]
    assert len(gaps) >= 5
    assert min(gaps) >= 0.045  # the loop's clock against the threads' monotonic slots


@pytest.mark.parametrize("value", [-1, float("nan"), float("inf"), "1", True])
def test_a_throttle_value_that_is_no_wait_is_refused_in_one_line(value: object) -> None:
    with pytest.raises(ConfigError, match=r"^throttle_value must be a number of seconds"):
        evaluate(cases(), [FaithfulnessMetric()], display_config=QUIET, throttle_value=value)


def test_a_max_concurrent_below_one_is_refused_in_one_line() -> None:
    """DeepEval's semaphore of 0 waits forever."""
    with pytest.raises(ConfigError, match=r"^max_concurrent must be a whole number of at least"):
        evaluate(cases(), [FaithfulnessMetric()], display_config=QUIET, max_concurrent=0)


class StructuredOutputModel(SyncModel):
    """A model confining its reply to the schema, as DeepEval's docs write one: its SDK
    (OpenAI's `parse`, instructor, LangChain's `with_structured_output`) takes a pydantic
    class and decodes under its JSON schema."""

    def generate(self, prompt: str, schema: Any) -> Any:  # type: ignore[override]
        import jsonschema
        import pydantic

        assert issubclass(schema, pydantic.BaseModel), f"{schema!r} is no pydantic model"
        shape = schema.model_json_schema()
        assert set(shape["required"]) <= set(shape["properties"]), shape
        reply = json.loads(reply_to(prompt))
        if "verdicts" in reply:  # numbered, last claim first
            numbered = [{"claim": n, **v} for n, v in enumerate(reply["verdicts"], start=1)]
            reply["verdicts"] = numbered[::-1]
        jsonschema.validate(reply, shape)  # what a confined decoder writes
        return schema.model_validate_json(json.dumps(reply))


class FencedModel(SyncModel):
    """A small model fencing its JSON, read by `schema.model_validate_json` (the stand-in
    read it; pydantic's own refuses anything but bare JSON)."""

    def generate(self, prompt: str, schema: Any) -> Any:  # type: ignore[override]
        return schema.model_validate_json(f"Here it is:\n```json\n{reply_to(prompt)}\n```")


def test_a_schema_is_a_pydantic_class_for_a_model_whose_sdk_wants_one() -> None:
    """With pydantic loaded (the SDK loads it), `schema` was a stand-in no SDK takes: every
    case's error (`... is no pydantic model`), and its JSON schema had no properties to
    confine a decoder to. Verdicts out of claim order keep their claim numbers."""
    import pydantic  # noqa: F401 - loaded, as the model's SDK loads it

    assert outcomes(StructuredOutputModel()) == outcomes(SyncModel())
    metric = FaithfulnessMetric(model=StructuredOutputModel())
    metric.measure(cases()[1])
    assert [v.verdict for v in metric.verdicts] == ["no", "yes"]  # 90 days: no; receipt: yes
    assert outcomes(FencedModel()) == outcomes(SyncModel())  # a pydantic class reads it too
    for stand_in in STAND_INS.values():  # without pydantic: its JSON schema has properties too
        shape = stand_in.model_json_schema()
        assert set(shape["required"]) <= set(shape["properties"])


def test_a_generate_raising_systemexit_leaves_the_shared_loop_running(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A coroutine raising KeyboardInterrupt or SystemExit (an SDK's, a `sys.exit` in a
    handler) escaped the loop's run_forever and ended its thread: that call and every later
    one waited out the whole deadline (600 s each, every case) on a loop no one ran."""
    monkeypatch.setattr(awaiting, "DEADLINE_SECONDS", 5.0)

    async def leaves() -> str:
        raise SystemExit(3)

    with pytest.raises(SystemExit):  # raised where the call was made, as a sync one would be
        awaiting.run_awaitable(leaves(), "the model's generate()")

    async def answers() -> int:
        return 42

    assert awaiting.run_awaitable(answers(), "the model's generate()") == 42


def test_a_cancelled_a_measure_stops_its_calls_instead_of_leaving_its_thread_asking(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`asyncio.wait_for(metric.a_measure(case), 1)`, or Ctrl-C in `asyncio.run`: the await
    ended, but its worker thread went on waiting for each call to its deadline, one item after
    another, and asyncio.run's exit waited for that thread (minutes of a hung endpoint, paid
    calls made after the caller gave up)."""
    import time

    # a deadline far past what the fixed path takes on any machine: without the fix, the
    # worker waits it out (once a call), so the run takes at least that long
    monkeypatch.setattr(awaiting, "DEADLINE_SECONDS", 60.0)

    class HungModel(SyncModel):
        async def generate(self, prompt: str) -> str:  # type: ignore[override]
            await asyncio.Event().wait()  # never set
            return reply_to(prompt)

    async def gives_up() -> None:
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(FaithfulnessMetric(model=HungModel()).a_measure(cases()[1]), 0.2)

    started = time.monotonic()
    asyncio.run(gives_up())  # returns once the worker thread is done
    assert time.monotonic() - started < 30.0  # half one call's deadline: it was not waited
