"""AskingJudge: the four questions of the metric, as frames and one item at a time, asked
through an Asking (live/asking.py). The live judge, the batch judge and the dry run are
AskingJudges that differ only in how a pack is answered and what they hold open."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import polars as pl

from faith_udfs.config import JudgeIdentity
from faith_udfs.judges import ItemJudge, outcome_frame, verdicts_frame
from faith_udfs.packed_prompts import PACKED_VERSION
from faith_udfs.prompts import PROMPT_VERSION
from faith_udfs.verdicts import VERDICT_READING
from flows.judges.endpoint.usage import Usage
from flows.judges.live.asking import Asking
from flows.judges.live.tasks import Result, Task, judge_task, outcomes, template_reason

ITEM_USAGE_SCHEMA = {
    "stage": pl.String,
    "key": pl.UInt64,
    "calls": pl.Float64,
    "prompt_tokens": pl.Int64,
    "completion_tokens": pl.Int64,
    "cached": pl.Boolean,
}


def openai_identity(model: str, mode: str) -> JudgeIdentity:
    """The identity of the OpenAI-compatible judge for `model` and `mode` (live, batch and
    dry run alike: one metric config, one cache), with the reading of its verdict words."""
    asked = asking_identity(model, mode)
    return replace(asked, options=(*asked.options, ("verdict_reading", VERDICT_READING)))


def asking_identity(model: str, mode: str) -> JudgeIdentity:
    """What the judge's requests depend on: model, prompt templates and mode. Batches are
    owned by it (flows/store/batch_jobs.JudgeOf), so a new reading of the replies still
    collects the batches asked before it."""
    template = PROMPT_VERSION if mode == "per-item" else f"{PROMPT_VERSION}+{PACKED_VERSION}"
    return JudgeIdentity(
        kind="openai", model=model, prompt_version=template, options=(("mode", mode),)
    )


class AskingJudge(ItemJudge):
    """A judge whose questions go through `asking`; the reason is a template (no call)
    unless `llm_reason`."""

    def __init__(
        self, *, model: str, mode: str, llm_reason: bool, usage: Usage, asking: Asking
    ) -> None:
        self.model = model
        self.mode = mode
        self.llm_reason = llm_reason
        self._identity = openai_identity(model, mode)
        self._usage = usage
        self._asking = asking

    @property
    def identity(self) -> JudgeIdentity:
        return self._identity

    def usage(self) -> dict[str, int]:
        """Counters of this judge's run: calls (HTTP requests made), cached (items answered
        from the cache), failed (requests without a usable answer), retries, throttled (429s),
        prompt_tokens, completion_tokens."""
        return self._usage.snapshot()

    def drain_item_usage(self) -> pl.DataFrame:
        """Per judged item since the last drain (with `track_items=True`): `stage`, `key`,
        `calls` (its share of the requests), `prompt_tokens`, `completion_tokens`, `cached`."""
        return pl.DataFrame(self._usage.drain_items(), schema=ITEM_USAGE_SCHEMA, orient="row")

    # --- the four questions, as frames ----------------------------------------------------

    def truths(self, passages: pl.DataFrame, limit: int | None) -> pl.DataFrame:
        results = self._ask(
            self._stage_task("truths", limit), passages["text"].to_list(), passages["key"]
        )
        return outcome_frame(passages["key"], "truths", pl.List(pl.String), outcomes(results))

    def claims(self, answers: pl.DataFrame) -> pl.DataFrame:
        results = self._ask(self._stage_task("claims"), answers["text"].to_list(), answers["key"])
        return outcome_frame(answers["key"], "claims", pl.List(pl.String), outcomes(results))

    def verdicts(self, questions: pl.DataFrame) -> pl.DataFrame:
        items = list(zip(questions["claims"].to_list(), questions["truths"].to_list(), strict=True))
        results = self._ask(self._stage_task("verdicts"), items, questions["key"])
        return verdicts_frame(questions["key"], outcomes(results))

    def reasons(self, requests: pl.DataFrame) -> pl.DataFrame:
        items = list(
            zip(requests["score"].to_list(), requests["contradictions"].to_list(), strict=True)
        )
        if not self.llm_reason:
            texts = [template_reason(score, contradictions) for score, contradictions in items]
            return requests.select("key").with_columns(
                reason=pl.Series(texts, dtype=pl.String),
                error=pl.lit(None, dtype=pl.String),
                pending=pl.lit(False),
            )
        results = self._ask(self._stage_task("reasons"), items, requests["key"])
        return outcome_frame(requests["key"], "reason", pl.String, outcomes(results))

    # --- the same questions one item at a time (ItemJudge) --------------------------------

    def answer_truths(self, text: str, limit: int | None) -> list[str]:
        return self._one(self._stage_task("truths", limit), text)

    def answer_claims(self, text: str) -> list[str]:
        return self._one(self._stage_task("claims"), text)

    def answer_verdicts(
        self, claims: list[str], truths: list[str]
    ) -> list[tuple[str | None, str | None]]:
        return self._one(self._stage_task("verdicts"), (claims, truths))

    def answer_reason(self, score: float, contradictions: list[str]) -> str:
        if not self.llm_reason:
            return template_reason(score, contradictions)
        return self._one(self._stage_task("reasons"), (score, contradictions))

    # --- machinery ------------------------------------------------------------------------

    def _ask(self, task: Task, items: list[Any], keys: pl.Series | None) -> list[Result]:
        return self._asking.ask(task, items, keys)

    def _one(self, task: Task, item: Any) -> Any:
        result = self._ask(task, [item], None)[0]
        if result.error is not None:
            raise result.error
        return result.value

    def _stage_task(self, stage: str, limit: int | None = None) -> Task:
        return judge_task(stage, packed=self.mode == "packed", limit=limit)
