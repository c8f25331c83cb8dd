"""The asking half of OpenAIJudge: the reply cache first, then packs of the rest,
concurrently; an item a pack's reply left unusable is asked again alone (escalation.py)."""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

import polars as pl

from faith_udfs.config import JudgeIdentity
from faith_udfs.errors import JudgeError, JudgeReplyError
from faith_udfs.packed_prompts import PACKED_VERSION
from faith_udfs.packed_replies import split_packed, strict_loads
from flows.judges.endpoint.transport import REQUEST_PARAMETERS, ChatEndpoint, Reply, Usage
from flows.judges.live.escalation import AskingAlone
from flows.judges.live.tasks import (
    Result,
    Task,
    json_reply,
    lost_answer,
    packs_of,
    read_answer,
    reply_token_budget,
    split_evenly,
)
from flows.store.judge_memory import MEMORY_ERRORS, JudgeMemory
from flows.store.reply_cache import CACHE_ERRORS, ReplyCache
from flows.waits import result_of

if TYPE_CHECKING:
    pass


log = logging.getLogger("flows.judges.live.judge")

T = TypeVar("T")
R = TypeVar("R")


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


class CachedPackedAsking(AskingAlone):
    """Asks distinct items of a ChatEndpoint through the reply cache, in packs, concurrently.

    The judge that inherits it sets the attributes below in its constructor.
    """

    model: str
    mode: str
    _identity: JudgeIdentity
    _chat: ChatEndpoint
    _usage: Usage
    _cache: ReplyCache | None
    _memory: JudgeMemory | None
    _max_output_tokens: int | None
    _track_items: bool
    _pack_size: int
    _pack_chars: int
    _concurrency: int

    def stop(self) -> None:
        raise NotImplementedError

    def _one(self, task: Task, item: Any) -> Any:
        result = self._ask(task, [item])[0]
        if result.error is not None:
            raise result.error
        return result.value

    def _cache_key(self, task: Task, item: Any) -> str:
        return cache_key(
            self.model, self._identity.prompt_version, self.mode, task.schema, task.item_data(item)
        )

    def _ask(self, task: Task, items: list[Any], keys: pl.Series | None = None) -> list[Result]:
        """Answer distinct items: cache first (one query), then packs of the rest, concurrently."""
        results: list[Result | None] = [None] * len(items)
        cache_keys = [self._cache_key(task, item) for item in items]
        key_list = keys.to_list() if keys is not None and self._track_items else None
        usage_rows: list[tuple[str, int, float, int, int, bool]] = []
        for index, reply in self._cached(cache_keys).items():
            try:
                results[index] = Result(value=read_answer(task, strict_loads(reply), items[index]))
            except (JudgeReplyError, ValueError):
                # An unusable stored row (a placeholder of old, another item's answer) is asked
                # again, and the new answer replaces it.
                continue
            if key_list is not None:
                usage_rows.append((task.stage, key_list[index], 0.0, 0, 0, True))
        self._usage.add(cached=sum(r is not None for r in results))
        self._usage.record_items(usage_rows)
        missing = self._untried_first(
            [i for i, result in enumerate(results) if result is None], cache_keys
        )
        packs = packs_of(
            task, items, missing, pack_size=self._pack_size, pack_chars=self._pack_chars
        )

        def answer(pack: list[int]) -> list[Result]:
            return self._answer_pack(task, pack, items, cache_keys, key_list)

        for pack, (pack_results, error) in zip(packs, self._fan_out(answer, packs), strict=True):
            for position, index in enumerate(pack):
                results[index] = pack_results[position] if error is None else Result(error=error)
        self._flush_cache()
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
            self._remember_format()
        except MEMORY_ERRORS as exc:
            log.warning("judge memory not written (%s)", type(exc).__name__)

    def _remember_format(self) -> None:
        raise NotImplementedError

    def _cached(self, cache_keys: list[str]) -> dict[int, str]:
        if self._cache is None or not cache_keys:
            return {}
        try:
            found = self._cache.get_many(cache_keys)
        except CACHE_ERRORS as exc:
            log.warning("judge cache unreadable (%s); asking the endpoint", type(exc).__name__)
            return {}
        return {i: found[key] for i, key in enumerate(cache_keys) if key in found}

    def _answer_pack(
        self,
        task: Task,
        pack: list[int],
        items: list[Any],
        cache_keys: list[str],
        keys: list[int] | None,
    ) -> list[Result]:
        """Ask one pack; the items its reply leaves unusable (or answers with another item's
        answer) are asked again one by one with the one-item template (escalation.py), never
        as a smaller pack renumbered. One-item tasks are asked alone from the start.
        A request counts as failed only when no answer of its reply was used."""
        spent = [0, 0, 0]  # requests, prompt tokens, completion tokens
        alone = task.alone
        if alone is None:
            results = {
                i: self._ask_alone(task, items[i], cache_keys[i], spent, stored_as=task)
                for i in pack
            }
        else:
            results, unusable = self._ask_packed(task, pack, items, cache_keys, spent)
            if unusable:
                self._usage.add(retries=1, escalated=len(unusable))
            for i in unusable:
                results[i] = self._ask_alone(
                    alone, items[i], cache_keys[i], spent, stored_as=task, attempts=1
                )
        if keys is not None:
            calls = spent[0] / len(pack)
            prompt_tokens, completion_tokens = (
                split_evenly(spent[1], len(pack)),
                split_evenly(spent[2], len(pack)),
            )
            self._usage.record_items(
                [
                    (task.stage, keys[i], calls, prompt_tokens[n], completion_tokens[n], False)
                    for n, i in enumerate(pack)
                ]
            )
        return [results[i] for i in pack]

    def _ask_packed(
        self, task: Task, pack: list[int], items: list[Any], cache_keys: list[str], spent: list[int]
    ) -> tuple[dict[int, Result], dict[int, JudgeReplyError]]:
        """One packed call: the answers it gave, and the items it left unusable (and why)."""
        budget = reply_token_budget(task, [items[i] for i in pack], self._max_output_tokens)
        try:
            reply = self._chat.complete(
                task.render([items[i] for i in pack]),
                schema=task.schema,
                max_tokens=budget,
                spent=spent,
            )
        except JudgeError as exc:
            return {i: Result(error=exc) for i in pack}, {}
        share = list(
            zip(
                split_evenly(reply.prompt_tokens, len(pack)),
                split_evenly(reply.completion_tokens, len(pack)),
                strict=True,
            )
        )
        results: dict[int, Result] = {}
        unusable = self._read_pack(
            task,
            reply=reply,
            asking=pack,
            items=items,
            cache_keys=cache_keys,
            share=share,
            results=results,
        )
        if len(unusable) == len(pack):
            self._usage.add(failed=1)  # nothing of this reply was used
        return results, unusable

    def _read_pack(
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
        """Store the usable answers of a reply; returns the items it left unanswered, and why."""
        try:
            whole = json_reply(reply)
            entry = task.packed_field
            parts = split_packed(whole, entry, len(asking)) if entry else [whole]
        except JudgeReplyError as exc:
            return dict.fromkeys(asking, exc)
        unusable: dict[int, JudgeReplyError] = {}
        numbers = dict(enumerate(asking, start=1))  # item number in the prompt -> index
        for number, part, (prompt_tokens, completion_tokens) in zip(
            numbers, parts, share, strict=True
        ):
            index = numbers[number]
            # The pack's other items, by their numbers in this prompt: an answer that reads as
            # one of theirs is not this item's.
            others = {n: items[i] for n, i in numbers.items() if n != number}
            try:
                if part is None:
                    raise JudgeReplyError(f"the reply has no entry for this item's {entry}")
                value = read_answer(task, part, items[index], others)
            except JudgeReplyError as exc:
                unusable[index] = exc
                continue
            results[index] = Result(value=value)
            self._store(
                task, cache_keys[index], part, prompt_tokens, completion_tokens, item=items[index]
            )
        return unusable

    def _store(
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
        if self._cache is None:
            return
        self._cache.put(
            key,
            kind=self._identity.kind,
            model=self.model,
            prompt_version=self._identity.prompt_version,
            schema_name=task.schema,
            reply=json.dumps(part, ensure_ascii=False),
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            item=None if item is None else json.dumps(task.item_data(item), ensure_ascii=False),
        )

    def _flush_cache(self) -> None:
        if self._cache is None:
            return
        try:
            self._cache.flush()
        except CACHE_ERRORS as exc:
            log.warning("judge cache not written (%s); a re-run pays again", type(exc).__name__)

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
                self.stop()  # interrupted: calls in flight are cancelled, the workers end at once
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
