"""How an LLM judge asks distinct items: the reply cache first, then packs of the rest,
concurrently. How one pack gets its answers is the judge's own (`PackAnswers`): the endpoint
now (live/endpoint_answers.py), a Batch API request line (batch/answers.py), or a stand-in
that only counts (live/dry_run.py)."""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import polars as pl

from faith_udfs.config import JudgeIdentity
from faith_udfs.errors import JudgeError, JudgeReplyError
from faith_udfs.packed_prompts import PACKED_VERSION
from faith_udfs.packed_replies import numbered, split_packed, strict_loads
from flows.judges.endpoint.transport import REQUEST_PARAMETERS, Reply
from flows.judges.endpoint.usage import Usage
from flows.judges.live.tasks import (
    Misfiled,
    Result,
    Task,
    json_reply,
    lost_answer,
    packs_of,
    read_answer,
)
from flows.store.judge_memory import MEMORY_ERRORS, JudgeMemory
from flows.store.reply_cache import CACHE_ERRORS, ReplyCache
from flows.waits import result_of

log = logging.getLogger("flows.judges.live.judge")

T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True)
class Asked:
    """One ask: its task, its distinct items, their cache keys, and (when usage is tracked
    per item) the items' row keys, which packs index into."""

    task: Task
    items: list[Any]
    cache_keys: list[str]
    keys: list[int] | None


class PackAnswers(Protocol):
    """How a pack of items the cache lacked gets its answers."""

    def prepare(self, asked: Asked, missing: list[int]) -> None:
        """Before any pack: the items the cache lacked (the batch judge reads where their
        batches stand in one query)."""

    def answer(self, asked: Asked, pack: list[int]) -> list[Result]:
        """One result for each item of `pack` (indices into `asked.items`), in its order; a
        judge error raised is every item's."""
        ...


def cache_key(model: str, template: str, mode: str, schema: str, item_data: Any) -> str:
    """An item's key in judge_cache: model, template version, mode, schema, the item's data
    and the request parameters (`faith cache check` recomputes it for old rows)."""
    payload = {
        "model": model,
        "template": template,
        "mode": mode,
        "schema": schema,
        "item": item_data,
        "params": REQUEST_PARAMETERS,
    }
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def legacy_claims_key(model: str, template: str, schema: str, answer: str) -> str:
    """The key a claims answer cached before migration 018 has, had it been asked for
    `answer` (the mode follows from the template: packed templates are packed's)."""
    mode = "packed" if PACKED_VERSION in template else "per-item"
    return cache_key(model, template, mode, schema, {"text": answer})


class AnswerStore:
    """The reply cache as a judge reads and fills it: one key per item (model, template
    version, mode, schema, item, request parameters), whatever the packs looked like."""

    def __init__(
        self, identity: JudgeIdentity, mode: str, cache: ReplyCache | None, *, writes: bool = True
    ) -> None:
        self.identity = identity
        self.mode = mode
        self.cache = cache
        self._writes = writes  # a dry run looks answers up and stores none

    def key(self, task: Task, item: Any) -> str:
        return cache_key(
            self.identity.model,
            self.identity.prompt_version,
            self.mode,
            task.schema,
            task.item_data(item),
        )

    def found(self, cache_keys: list[str]) -> dict[int, str]:
        """The stored replies among `cache_keys`, by position; an unreadable cache is empty."""
        if self.cache is None or not cache_keys:
            return {}
        try:
            found = self.cache.get_many(cache_keys)
        except CACHE_ERRORS as exc:
            log.warning("judge cache unreadable (%s); asking the endpoint", type(exc).__name__)
            return {}
        return {i: found[key] for i, key in enumerate(cache_keys) if key in found}

    def read_reply(
        self,
        task: Task,
        *,
        reply: Reply,
        asking: list[int],
        items: list[Any],
        cache_keys: list[str],
        share: list[tuple[int, int]],
        results: dict[int, Result],
    ) -> dict[int, JudgeReplyError]:
        """Store the usable answers of a reply; returns the items it left unanswered, and why.
        Entries without item numbers are read in order; once one of them proves to be another
        item's, that order is wrong, and none of them is used."""
        try:
            whole = json_reply(reply)
            entry = task.packed_field
            parts = split_packed(whole, entry, len(asking)) if entry else [whole]
        except JudgeReplyError as exc:
            return dict.fromkeys(asking, exc)
        unusable: dict[int, JudgeReplyError] = {}
        values: dict[int, Any] = {}
        numbers = dict(enumerate(asking, start=1))  # item number in the prompt -> index
        for number, part in zip(numbers, parts, strict=True):
            index = numbers[number]
            # The pack's other items, by their numbers in this prompt: an answer that reads as
            # one of theirs is not this item's (issue 27).
            others = {n: items[i] for n, i in numbers.items() if n != number}
            try:
                if part is None:
                    raise JudgeReplyError(f"the reply has no entry for this item's {entry}")
                values[index] = read_answer(task, part, items[index], others)
            except JudgeReplyError as exc:
                unusable[index] = exc
        misfiled = [exc for exc in unusable.values() if isinstance(exc, Misfiled)]
        if entry and misfiled and not numbered(whole):
            shuffled = JudgeReplyError(
                f"the reply's entries carry no item numbers and one is another item's "
                f"({misfiled[0]}): their order is not the items', so none is used"
            )
            return {index: unusable.get(index, shuffled) for index in asking}
        for index, part, (prompt, completion) in zip(asking, parts, share, strict=True):
            if index in values:
                results[index] = Result(value=values[index])
                self.keep(task, cache_keys[index], part, prompt, completion, item=items[index])
        return unusable

    def keep(
        self,
        task: Task,
        key: str,
        part: Any,
        prompt_tokens: int,
        completion_tokens: int,
        *,
        item: Any = None,
    ) -> None:
        """Cache one item's answer, with the item's data (`faith cache check` reads it back)."""
        if self.cache is None or not self._writes:
            return
        self.cache.put(
            key,
            kind=self.identity.kind,
            model=self.identity.model,
            prompt_version=self.identity.prompt_version,
            schema_name=task.schema,
            reply=json.dumps(part, ensure_ascii=False),
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            item=None if item is None else json.dumps(task.item_data(item), ensure_ascii=False),
        )

    def flush(self) -> None:
        if self.cache is None or not self._writes:
            return
        try:
            self.cache.flush()
        except CACHE_ERRORS as exc:
            log.warning("judge cache not written (%s); a re-run pays again", type(exc).__name__)


def release(cache: ReplyCache | None, memory: JudgeMemory | None, *, owned: bool) -> None:
    """A judge's end: the cache and memory it built itself are closed, a cache lent to it is
    flushed and stays open."""
    if cache is not None:
        if owned:
            cache.close()
        else:
            cache.flush()
    if memory is not None and owned:
        memory.close()


class Asking:
    """Asks distinct items through the reply cache, in packs, concurrently; `answers` says
    how a pack is answered, `on_interrupt` ends the calls in flight on Ctrl-C, and
    `remember_format` stores the endpoint's structured-output mode with the failures."""

    def __init__(
        self,
        answers: PackAnswers,
        *,
        store: AnswerStore,
        usage: Usage,
        memory: JudgeMemory | None,
        pack_size: int,
        pack_chars: int,
        concurrency: int,
        track_items: bool,
        on_interrupt: Callable[[], None],
        remember_format: Callable[[], None] | None = None,
    ) -> None:
        self.answers = answers
        self.store = store
        self._usage = usage
        self._memory = memory
        self._pack_size = pack_size
        self._pack_chars = pack_chars
        self._concurrency = concurrency
        self.track_items = track_items
        self._on_interrupt = on_interrupt
        self._remember_format = remember_format

    def ask(self, task: Task, items: list[Any], keys: pl.Series | None = None) -> list[Result]:
        """Answer distinct items: cache first (one query), then packs of the rest, concurrently."""
        results: list[Result | None] = [None] * len(items)
        cache_keys = [self.store.key(task, item) for item in items]
        key_list = keys.to_list() if keys is not None and self.track_items else None
        asked = Asked(task, items, cache_keys, key_list)
        usage_rows: list[tuple[str, int, float, int, int, bool]] = []
        # A stored answer is one item's, whichever request brought it: it is read as a one-item
        # reply is (a packed item's verdicts must name their claims to be placed in their pack;
        # the answer of an item a pack escalated, asked alone, names none).
        stored = task.alone or task
        for index, reply in self.store.found(cache_keys).items():
            try:
                value = read_answer(stored, strict_loads(reply), items[index])
                results[index] = Result(value=value)
            except (JudgeReplyError, ValueError):
                # An unusable stored row (a placeholder of old, another item's answer) is asked
                # again, and the new answer replaces it.
                continue
            if key_list is not None:
                usage_rows.append((task.stage, key_list[index], 0.0, 0, 0, True))
        self._usage.add(cached=sum(r is not None for r in results))
        self._usage.record_items(usage_rows)
        missing = [i for i, result in enumerate(results) if result is None]
        self.answers.prepare(asked, missing)
        missing = self._untried_first(missing, cache_keys)
        packs = packs_of(
            task, items, missing, pack_size=self._pack_size, pack_chars=self._pack_chars
        )

        def answer(pack: list[int]) -> list[Result]:
            return self.answers.answer(asked, pack)

        for pack, (pack_results, error) in zip(packs, self._fan_out(answer, packs), strict=True):
            for position, index in enumerate(pack):
                if pack_results is not None:
                    results[index] = pack_results[position]
                else:
                    results[index] = Result(error=error)
        self.store.flush()
        self._remember(
            {
                cache_keys[i]: str(result.error)
                for i, result in enumerate(results)
                if result is not None
                and result.error is not None
                and result.error.case_status == "invalid"
            }
        )
        return [result if result is not None else Result(error=lost_answer()) for result in results]

    def _untried_first(self, missing: list[int], cache_keys: list[str]) -> list[int]:
        """`missing` with the items whose calls failed in earlier runs moved last: under a
        call cap they wait behind items never tried instead of spending every run's cap."""
        if self._memory is None or not missing:
            return missing
        try:
            failed = self._memory.failed_before(cache_keys[i] for i in missing)
        except MEMORY_ERRORS as exc:
            log.warning("judge memory unreadable (%s); items asked in order", type(exc).__name__)
            return missing
        return sorted(missing, key=lambda i: cache_keys[i] in failed)

    def _remember(self, failures: dict[str, str]) -> None:
        """Record the items that failed, and the structured-output mode the endpoint answered."""
        if self._memory is None:
            return
        try:
            self._memory.record_failures(failures)
            if self._remember_format is not None:
                self._remember_format()
        except MEMORY_ERRORS as exc:
            log.warning("judge memory not written (%s)", type(exc).__name__)

    def _fan_out(
        self, answer: Callable[[T], R], items: Sequence[T]
    ) -> list[tuple[R | None, JudgeError | None]]:
        """`answer` each item, concurrently; a judge error is that item's, anything else is a
        bug and propagates (the items not yet started are not asked)."""

        def call(item: T) -> tuple[R | None, JudgeError | None]:
            try:
                return answer(item), None
            except JudgeError as exc:  # one item's failure must not sink the batch
                return None, exc

        if len(items) <= 1 or self._concurrency == 1:
            return [call(item) for item in items]
        pool = ThreadPoolExecutor(
            max_workers=min(self._concurrency, len(items)), thread_name_prefix="faith-judge"
        )
        try:
            futures: list[Future[tuple[R | None, JudgeError | None]]] = [
                pool.submit(call, item) for item in items
            ]
            # In slices: on the main thread (the nightly judge check) a plain result() stays
            # deaf to Ctrl-C until the call's deadline.
            return [result_of(future) for future in futures]
        except BaseException as exc:
            if not isinstance(exc, Exception):
                self._on_interrupt()  # calls in flight are cancelled, the workers end at once
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
