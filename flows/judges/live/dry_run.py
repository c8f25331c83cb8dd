"""`--dry-run` for the LLM judge: the real asking path, with the endpoint left out.

EstimatingJudge is the live judge's asking without an endpoint: the same items, cache keys,
cache lookup and packs (live/asking.py), so what it counts as asked is what a run would ask.
In place of each call (StandInAnswers) it renders the real prompt, counts it, and answers
with a stand-in (the lexical
judge's truths, claims and verdicts, written as the reply schema asks) whose size gives the
completion tokens; the stand-in's claims and truths then shape the verdict questions, as a
model's would. A stand-in answer is remembered for the rest of the dry run (RememberingStore),
as a run's answer is found in the cache by its later batches: an item asked in batch 1 is not
counted again in batch 2. Tokens are estimated at rate_window.CHARS_PER_TOKEN characters a
token. Nothing is sent, nothing is written to the cache, no API key is needed.
"""

from __future__ import annotations

import json
import threading
from typing import TYPE_CHECKING, Any

import polars as pl

from faith_udfs import LexicalJudge
from faith_udfs.config import JudgeIdentity
from faith_udfs.packed_replies import split_packed
from flows.judges.endpoint.rate_window import CHARS_PER_TOKEN
from flows.judges.endpoint.usage import Usage
from flows.judges.live.asking import AnswerStore, Asked, Asking
from flows.judges.live.questions import AskingJudge, openai_identity
from flows.judges.live.tasks import (
    DEFAULT_MODE,
    PACK_CHARS,
    PACK_SIZE,
    Packing,
    Result,
    check_judge_settings,
    reply_cut,
    reply_token_budget,
    template_reason,
)
from flows.store.reply_cache import ReplyCache

if TYPE_CHECKING:
    import duckdb

    from flows.judges.settings import JudgeSettings


def estimated_tokens(text: str) -> int:
    """Tokens of `text`, estimated from its length (the server is never asked)."""
    return round(len(text) / CHARS_PER_TOKEN)


class RememberingStore(AnswerStore):
    """The cache as a dry run reads it: the stored replies, and the stand-in answers given
    earlier in this dry run (a run would find its own answers there), written nowhere."""

    def __init__(self, identity: JudgeIdentity, mode: str, cache: ReplyCache | None) -> None:
        super().__init__(identity, mode, cache, writes=False)
        self.given: dict[str, str] = {}  # cache key -> the stand-in's answer, as JSON

    def found(self, cache_keys: list[str]) -> dict[int, str]:
        found = super().found(cache_keys)
        for i, key in enumerate(cache_keys):
            if i not in found and key in self.given:
                found[i] = self.given[key]
        return found


class StandInAnswers:
    """Answers a pack without a call (PackAnswers): counts the call it would be, its prompt
    and reply tokens, and replies as the lexical judge would, in the reply schema's form.
    Under --max-output-tokens (`fixed`) a stand-in reply longer than the limit is cut as a
    real one would be: a pack's items are asked again alone (escalation.py), and an item
    whose own reply is still too long fails with the run's ReplyCut, so the dry run counts
    those cases invalid (and says exit 8 when they are too many)."""

    def __init__(self, usage: Usage, given: dict[str, str], fixed: int | None = None) -> None:
        self._usage = usage
        self._given = given  # each answer, for the dry run's later batches (RememberingStore)
        self._fixed = fixed
        self._stand_in = LexicalJudge()

    def prepare(self, asked: Asked, missing: list[int]) -> None:
        """Nothing to look up."""

    def answer(self, asked: Asked, pack: list[int]) -> list[Result]:
        """Count the call this pack would be, and answer it with the stand-in."""
        task = asked.task
        items = [asked.items[i] for i in pack]
        values = self._stand_in_answers(task.stage, items, task.item_data(items[0]))
        entry = task.packed_field
        if entry:
            # One entry an item, as a packed reply numbers them (each value is a one-item reply).
            reply: Any = {"items": [{"item": n, **value} for n, value in enumerate(values, 1)]}
            parts = split_packed(reply, entry, len(items))
        else:
            reply = values[0]
            parts = [reply]
        budget = reply_token_budget(task, items, self._fixed)
        if self._counted(task.render(items), reply, budget):
            return [
                self._given_answer(asked, i, part, item)
                for i, part, item in zip(pack, parts, items, strict=True)
            ]
        if task.alone is None:  # a one-item task's cut reply is not asked again at the limit
            return [Result(error=reply_cut(budget, alone=True)) for _ in pack]
        self._usage.add(retries=1, escalated=len(pack))
        results = []
        for index, part, item in zip(pack, parts, items, strict=True):
            budget_alone = reply_token_budget(task.alone, [item], self._fixed)
            if self._counted(task.alone.render([item]), part, budget_alone):
                results.append(self._given_answer(asked, index, part, item))
            else:
                results.append(Result(error=reply_cut(budget_alone, alone=True)))
        return results

    def _counted(self, prompt: str, reply: Any, budget: int) -> bool:
        """Count one call; False when its reply would pass the limit given (cut there)."""
        text = json.dumps(reply, ensure_ascii=False)
        cut = self._fixed is not None and len(text) > CHARS_PER_TOKEN * budget
        self._usage.add(
            calls=1,
            failed=int(cut),
            prompt_tokens=estimated_tokens(prompt),
            completion_tokens=budget if cut else estimated_tokens(text),
        )
        return not cut

    def _given_answer(self, asked: Asked, index: int, part: Any, item: Any) -> Result:
        """The stand-in's answer for one item, remembered for the later batches."""
        self._given[asked.cache_keys[index]] = json.dumps(part, ensure_ascii=False)
        return Result(value=asked.task.parse(part, item))

    def _stand_in_answers(self, stage: str, asked: list[Any], first: dict[str, Any]) -> list[Any]:
        """What a model would reply for each item, in the reply schema's form; `first` is the
        first item's cache data (the truths limit is in it)."""
        keys = pl.Series("key", range(len(asked)), dtype=pl.UInt64)
        if stage == "truths":
            frame = self._stand_in.truths(
                pl.DataFrame([keys, pl.Series("text", asked)]), first.get("limit")
            )
            return [{"truths": truths} for truths in frame.sort("key")["truths"].to_list()]
        if stage == "claims":
            frame = self._stand_in.claims(pl.DataFrame([keys, pl.Series("text", asked)]))
            return [{"claims": claims} for claims in frame.sort("key")["claims"].to_list()]
        if stage == "verdicts":
            questions = pl.DataFrame(
                [
                    keys,
                    pl.Series("claims", [list(q[0]) for q in asked], dtype=pl.List(pl.String)),
                    pl.Series("truths", [list(q[1]) for q in asked], dtype=pl.List(pl.String)),
                ]
            )
            frame = self._stand_in.verdicts(questions).sort("key")
            return [
                {
                    "verdicts": [
                        {"claim": n, "verdict": verdict, "reason": reason or ""}
                        for n, (verdict, reason) in enumerate(zip(v, r, strict=True), start=1)
                    ]
                }
                for v, r in zip(frame["verdicts"], frame["reasons"], strict=True)
            ]
        return [{"reason": template_reason(score, list(c))} for score, c in asked]


class EstimatingJudge(AskingJudge):
    """The OpenAI judge's asking that makes no call: it counts the calls, prompt tokens and
    completion tokens a run would spend (`usage()`), answering each item with a stand-in."""

    def __init__(
        self,
        model: str,
        *,
        mode: str = DEFAULT_MODE,
        llm_reason: bool = False,
        cache: ReplyCache | None = None,
        owns_cache: bool = False,
        packing: Packing | None = None,
        max_output_tokens: int | None = None,
    ) -> None:
        packing = packing or Packing()
        usage = Usage()
        self._stop = threading.Event()
        self._cache = cache
        self._owns_cache = owns_cache
        # Looks answers up, stores none; no failures to order by, no format to remember.
        store = RememberingStore(openai_identity(model, mode), mode, cache)
        super().__init__(
            model=model,
            mode=mode,
            llm_reason=llm_reason,
            usage=usage,
            asking=Asking(
                StandInAnswers(usage, store.given, max_output_tokens),
                store=store,
                usage=usage,
                memory=None,
                pack_size=packing.size if mode == "packed" else 1,
                pack_chars=packing.chars,
                concurrency=1,
                track_items=False,
                on_interrupt=self.stop,
            ),
        )

    @property
    def fatal_error(self) -> str | None:
        return None

    def stop(self) -> None:
        self._stop.set()

    def close(self) -> None:
        if self._cache is not None and self._owns_cache:
            self._cache.close()

    def __repr__(self) -> str:
        return f"EstimatingJudge(model={self.model!r}, mode={self.mode!r})"


def build_estimating_judge(
    settings: JudgeSettings, con: duckdb.DuckDBPyConnection | None = None
) -> EstimatingJudge:
    """The judge `--dry-run` uses in place of `--judge openai`; `con` backs the cache lookup."""
    # A batch run asks the live packed judge's items under its config (batch/judge.py).
    mode = "packed" if settings.mode == "batch" else settings.mode or DEFAULT_MODE
    check_judge_settings(
        model=settings.model or "",
        mode=mode,
        concurrency=settings.concurrency,
        timeout=settings.timeout,
        max_retries=0,
        max_calls=settings.max_calls,
        max_tokens=settings.max_tokens,
        pack_size=PACK_SIZE,
        pack_chars=PACK_CHARS,
        max_output_tokens=settings.max_output_tokens,
    )
    cache = ReplyCache(con) if con is not None else None
    return EstimatingJudge(
        settings.model or "",
        mode=mode,
        llm_reason=settings.llm_reason,
        cache=cache,
        owns_cache=cache is not None,
        max_output_tokens=settings.max_output_tokens,
    )
