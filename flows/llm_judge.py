"""OpenAIJudge: any OpenAI-compatible chat-completions endpoint as the faithfulness judge.

Modes (the mode is part of the judge identity, hence of the metric config):

- `per-item`: one call per distinct passage (truths), answer (claims) and (claims, truths)
  question (verdicts), with the one-item templates of prompts.py: about 2 calls a case plus
  the distinct passages a case, fewer as the cache fills.
- `packed` (default): the same three questions, up to `pack_size` items (and `pack_chars`
  characters of data) a call, with the templates of combined_prompts.py: the per-item count
  divided by about `pack_size`, and the instructions paid once a call.

Both ask with the templates of faith_udfs (prompts.py, combined_prompts.py); the reason is a
template (no call) unless `llm_reason=True`. Every answer is cached per item in `judge_cache`
(key: model, template version, mode, schema, item, request parameters), so a re-run pays for
nothing twice whatever the packs looked like. The endpoint's address is not part of the
identity: the model name is what changes verdicts (OpenAI, Azure or a LiteLLM proxy serving
one model agree), and addresses may carry credentials; give two different weights two names.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeVar

import duckdb
import polars as pl

from faith_udfs.combined_prompts import (
    PACKED_CLAIMS,
    PACKED_FIELD,
    PACKED_REASONS,
    PACKED_TRUTHS,
    PACKED_VERDICTS,
    PACKED_VERSION,
    packed_claims_prompt,
    packed_reasons_prompt,
    packed_truths_prompt,
    packed_verdicts_prompt,
)
from faith_udfs.combined_replies import parse_exact_verdicts, split_packed
from faith_udfs.config import JudgeIdentity
from faith_udfs.errors import ConfigError, JudgeError, JudgeReplyError
from faith_udfs.judges import (
    ItemJudge,
    ItemOutcome,
    outcome_frame,
    outcome_of_error,
    verdicts_frame,
)
from faith_udfs.prompts import (
    CLAIMS,
    PROMPT_VERSION,
    REASON,
    TRUTHS,
    VERDICTS,
    claims_prompt,
    format_score,
    reason_prompt,
    truths_prompt,
    verdicts_prompt,
)
from faith_udfs.replies import first_json_object, parse_reason, parse_statements
from flows.judge_cache import JudgeCache
from flows.llm_transport import REQUEST_PARAMETERS, ChatEndpoint, Reply, Usage
from flows.stage import result_of

if TYPE_CHECKING:
    from flows.settings import JudgeSettings

log = logging.getLogger(__name__)

T = TypeVar("T")
R = TypeVar("R")

MODES = ("per-item", "packed")
DEFAULT_MODE = "packed"
_RETRY_NOTE = (
    "Your previous reply to this could not be used: {reason}. Reply again with one complete "
    "JSON object in exactly the format asked for, and nothing else."
)


@dataclass(frozen=True)
class _Task:
    """One question asked of the endpoint: how to render, identify and read its items."""

    stage: str
    schema: str
    render: Callable[[list[Any]], str]
    item_data: Callable[[Any], Any]
    size: Callable[[Any], int]
    parse: Callable[[Any, Any], Any]

    @property
    def packed_field(self) -> str | None:
        """The field each entry of a packed reply carries; None when one item is asked."""
        return PACKED_FIELD.get(self.schema)


@dataclass(frozen=True)
class _Result:
    value: Any = None
    error: JudgeError | None = None


class OpenAIJudge(ItemJudge):
    """Judge asking an OpenAI-compatible chat-completions endpoint, concurrently and politely.

    Each call has a deadline of `timeout` seconds, reply included. Transient failures (429,
    5xx, deadlines, resets, answers that are not chat completions) are retried with jittered
    backoff; a refused key or unknown model stops every further call; caps leave the rest
    pending; `stop()` ends every call and wait at once. Talking to the endpoint is
    llm_transport.ChatEndpoint's; asking and reading is here.
    """

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key_env: str = "OPENAI_API_KEY",
        mode: str = DEFAULT_MODE,
        concurrency: int = 8,
        timeout: float = 30.0,
        max_retries: int = 4,
        max_calls: int | None = None,
        max_tokens: int | None = None,
        llm_reason: bool = False,
        cache: JudgeCache | None = None,
        owns_cache: bool = False,
        pack_size: int = 8,
        pack_chars: int = 12_000,
        backoff_base: float = 0.5,
        backoff_max: float = 20.0,
        max_retry_after: float = 60.0,
        track_items: bool = False,
    ) -> None:
        _check_settings(
            model=model,
            mode=mode,
            concurrency=concurrency,
            timeout=timeout,
            max_retries=max_retries,
            max_calls=max_calls,
            max_tokens=max_tokens,
            pack_size=pack_size,
            pack_chars=pack_chars,
        )
        self._usage = Usage()
        # Set by stop(), close() or an interrupt: no new call is made, no wait goes on.
        self._stop = threading.Event()
        self._chat = ChatEndpoint(
            model,
            base_url=base_url,
            api_key_env=api_key_env,
            concurrency=concurrency,
            timeout=timeout,
            max_retries=max_retries,
            max_calls=max_calls,
            max_tokens=max_tokens,
            backoff_base=backoff_base,
            backoff_max=backoff_max,
            max_retry_after=max_retry_after,
            usage=self._usage,
            stop=self._stop,
        )
        self.model = model
        self.mode = mode
        self.llm_reason = llm_reason
        self.api_key_env = api_key_env
        self._pack_size = pack_size if mode == "packed" else 1
        self._pack_chars = pack_chars
        self._concurrency = concurrency
        self._cache = cache
        self._owns_cache = owns_cache  # close the cache with the judge
        self._track_items = track_items
        template = PROMPT_VERSION if mode == "per-item" else f"{PROMPT_VERSION}+{PACKED_VERSION}"
        self._identity = JudgeIdentity(
            kind="openai", model=model, prompt_version=template, options=(("mode", mode),)
        )

    # --- public surface -------------------------------------------------------------------

    @property
    def identity(self) -> JudgeIdentity:
        return self._identity

    @property
    def fatal_error(self) -> str | None:
        """Why the endpoint refuses every call (bad key, unknown model), once it has said so."""
        return self._chat.fatal_error

    @property
    def response_format(self) -> str:
        """The structured-output request the endpoint accepted last (json_schema first)."""
        return self._chat.response_format

    @property
    def concurrency_limit(self) -> int:
        """Requests allowed in flight now (lowered by 429s, recovering on successes)."""
        return self._chat.concurrency_limit

    def usage(self) -> dict[str, int]:
        """Counters of this judge's run: calls (HTTP requests made), cached (items answered
        from the cache), failed (requests without a usable answer), retries, throttled (429s),
        prompt_tokens, completion_tokens."""
        return self._usage.snapshot()

    def drain_item_usage(self) -> pl.DataFrame:
        """Per judged item since the last drain (with `track_items=True`): `stage`, `key`,
        `calls` (its share of the requests), `prompt_tokens`, `completion_tokens`, `cached`."""
        rows = self._usage.drain_items()
        return pl.DataFrame(
            rows,
            schema={
                "stage": pl.String,
                "key": pl.UInt64,
                "calls": pl.Float64,
                "prompt_tokens": pl.Int64,
                "completion_tokens": pl.Int64,
                "cached": pl.Boolean,
            },
            orient="row",
        )

    def stop(self) -> None:
        """End the run's judging now, from any thread: calls in flight are cancelled, waits
        for a slot or a backoff end, and every later call fails at once as a judge error."""
        self._chat.stop()

    def close(self) -> None:
        """Stop, write the cache buffer and close the HTTP connections; a cache the judge built
        itself (`build_openai_judge`) is closed too, one passed in stays open."""
        self._chat.stop()
        try:
            if self._cache is not None:
                if self._owns_cache:
                    self._cache.close()
                else:
                    self._cache.flush()
        finally:
            self._chat.close()

    def __enter__(self) -> OpenAIJudge:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return (
            f"OpenAIJudge(model={self.model!r}, mode={self.mode!r}, "
            f"endpoint={self._chat.endpoint!r}, api_key_env={self.api_key_env!r})"
        )

    # --- the four questions, as frames ----------------------------------------------------

    def truths(self, passages: pl.DataFrame, limit: int | None) -> pl.DataFrame:
        results = self._ask(
            self._task("truths", limit), passages["text"].to_list(), passages["key"]
        )
        return outcome_frame(passages["key"], "truths", pl.List(pl.String), _outcomes(results))

    def claims(self, answers: pl.DataFrame) -> pl.DataFrame:
        results = self._ask(self._task("claims"), answers["text"].to_list(), answers["key"])
        return outcome_frame(answers["key"], "claims", pl.List(pl.String), _outcomes(results))

    def verdicts(self, questions: pl.DataFrame) -> pl.DataFrame:
        items = list(zip(questions["claims"].to_list(), questions["truths"].to_list(), strict=True))
        results = self._ask(self._task("verdicts"), items, questions["key"])
        return verdicts_frame(questions["key"], _outcomes(results))

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
        results = self._ask(self._task("reasons"), items, requests["key"])
        return outcome_frame(requests["key"], "reason", pl.String, _outcomes(results))

    # --- the same questions one item at a time (ItemJudge) --------------------------------

    def answer_truths(self, text: str, limit: int | None) -> list[str]:
        return self._one(self._task("truths", limit), text)

    def answer_claims(self, text: str) -> list[str]:
        return self._one(self._task("claims"), text)

    def answer_verdicts(
        self, claims: list[str], truths: list[str]
    ) -> list[tuple[str | None, str | None]]:
        return self._one(self._task("verdicts"), (claims, truths))

    def answer_reason(self, score: float, contradictions: list[str]) -> str:
        if not self.llm_reason:
            return template_reason(score, contradictions)
        return self._one(self._task("reasons"), (score, contradictions))

    # --- machinery ------------------------------------------------------------------------

    def _task(self, stage: str, limit: int | None = None) -> _Task:
        packed = self.mode == "packed"
        if stage == "truths":
            return _Task(
                stage,
                PACKED_TRUTHS if packed else TRUTHS,
                render=(lambda texts: packed_truths_prompt(texts, limit))
                if packed
                else (lambda texts: truths_prompt(texts[0], limit)),
                item_data=lambda text: {"text": text, "limit": limit},
                size=len,
                parse=lambda reply, _: parse_statements(reply, "truths"),
            )
        if stage == "claims":
            return _Task(
                stage,
                PACKED_CLAIMS if packed else CLAIMS,
                render=packed_claims_prompt if packed else (lambda texts: claims_prompt(texts[0])),
                item_data=lambda text: {"text": text},
                size=len,
                parse=lambda reply, _: parse_statements(reply, "claims"),
            )
        if stage == "verdicts":
            return _Task(
                stage,
                PACKED_VERDICTS if packed else VERDICTS,
                render=packed_verdicts_prompt
                if packed
                else (lambda questions: verdicts_prompt(*questions[0])),
                item_data=lambda q: {"claims": list(q[0]), "truths": list(q[1])},
                size=lambda q: sum(map(len, q[0])) + sum(map(len, q[1])),
                parse=lambda reply, q: parse_exact_verdicts(reply, len(q[0])),
            )
        return _Task(
            stage,
            PACKED_REASONS if packed else REASON,
            render=packed_reasons_prompt
            if packed
            else (lambda requests: reason_prompt(*requests[0])),
            item_data=lambda r: {"score": format_score(r[0]), "contradictions": list(r[1])},
            size=lambda r: sum(map(len, r[1])) + 8,
            parse=lambda reply, _: parse_reason(reply),
        )

    def _one(self, task: _Task, item: Any) -> Any:
        result = self._ask(task, [item])[0]
        if result.error is not None:
            raise result.error
        return result.value

    def _cache_key(self, task: _Task, item: Any) -> str:
        payload = {
            "model": self.model,
            "template": self._identity.prompt_version,
            "mode": self.mode,
            "schema": task.schema,
            "item": task.item_data(item),
            "params": REQUEST_PARAMETERS,
        }
        text = json.dumps(payload, sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()

    def _ask(self, task: _Task, items: list[Any], keys: pl.Series | None = None) -> list[_Result]:
        """Answer distinct items: cache first (one query), then packs of the rest, concurrently."""
        results: list[_Result | None] = [None] * len(items)
        cache_keys = [self._cache_key(task, item) for item in items]
        key_list = keys.to_list() if keys is not None and self._track_items else None
        usage_rows: list[tuple[str, int, float, int, int, bool]] = []
        for index, reply in self._cached(cache_keys).items():
            try:
                results[index] = _Result(value=task.parse(json.loads(reply), items[index]))
            except (JudgeReplyError, ValueError):
                continue  # an unusable stored row is asked again and replaced
            if key_list is not None:
                usage_rows.append((task.stage, key_list[index], 0.0, 0, 0, True))
        self._usage.add(cached=sum(r is not None for r in results))
        self._usage.record_items(usage_rows)
        missing = [i for i, result in enumerate(results) if result is None]
        packs = self._packs(task, items, missing)

        def answer(pack: list[int]) -> list[_Result]:
            return self._answer_pack(task, pack, items, cache_keys, key_list)

        for pack, (pack_results, error) in zip(packs, self._fan_out(answer, packs), strict=True):
            for position, index in enumerate(pack):
                results[index] = pack_results[position] if error is None else _Result(error=error)
        self._flush_cache()
        return [result if result is not None else _Result(error=_lost()) for result in results]

    def _cached(self, cache_keys: list[str]) -> dict[int, str]:
        if self._cache is None or not cache_keys:
            return {}
        try:
            found = self._cache.get_many(cache_keys)
        except duckdb.Error as exc:
            log.warning("judge cache unreadable (%s); asking the endpoint", type(exc).__name__)
            return {}
        return {i: found[key] for i, key in enumerate(cache_keys) if key in found}

    def _packs(self, task: _Task, items: list[Any], indices: list[int]) -> list[list[int]]:
        packs: list[list[int]] = []
        current: list[int] = []
        chars = 0
        for index in indices:
            size = task.size(items[index])
            if current and (len(current) >= self._pack_size or chars + size > self._pack_chars):
                packs.append(current)
                current, chars = [], 0
            current.append(index)
            chars += size
        if current:
            packs.append(current)
        return packs

    def _answer_pack(
        self,
        task: _Task,
        pack: list[int],
        items: list[Any],
        cache_keys: list[str],
        keys: list[int] | None,
    ) -> list[_Result]:
        """Ask one pack; items whose answer is unusable are asked once more, then fail."""
        results: dict[int, _Result] = {}
        asking = list(pack)
        note: str | None = None
        spent = [0, 0, 0]  # requests, prompt tokens, completion tokens
        for attempt in range(2):
            try:
                reply = self._complete(task, task.render([items[i] for i in asking]), note, spent)
            except JudgeError as exc:
                results.update((i, _Result(error=exc)) for i in asking)
                break
            share = list(
                zip(
                    _split(reply.prompt_tokens, len(asking)),
                    _split(reply.completion_tokens, len(asking)),
                    strict=True,
                )
            )
            unusable = self._read_pack(
                task,
                reply=reply,
                asking=asking,
                items=items,
                cache_keys=cache_keys,
                share=share,
                results=results,
            )
            if not unusable:
                break
            self._usage.add(failed=1)
            if attempt == 0:
                self._usage.add(retries=1)
                asking = sorted(unusable)
                note = str(next(iter(unusable.values())))
            else:
                results.update((i, _Result(error=exc)) for i, exc in unusable.items())
        if keys is not None:
            calls = spent[0] / len(pack)
            prompt, completion = _split(spent[1], len(pack)), _split(spent[2], len(pack))
            self._usage.record_items(
                [
                    (task.stage, keys[i], calls, prompt[n], completion[n], False)
                    for n, i in enumerate(pack)
                ]
            )
        return [results[i] for i in pack]

    def _read_pack(
        self,
        task: _Task,
        *,
        reply: Reply,
        asking: list[int],
        items: list[Any],
        cache_keys: list[str],
        share: list[tuple[int, int]],
        results: dict[int, _Result],
    ) -> dict[int, JudgeReplyError]:
        """Store the usable answers of a reply; returns the items it left unanswered, and why."""
        try:
            whole = _json_reply(reply)
            entry = task.packed_field
            parts = split_packed(whole, entry, len(asking)) if entry else [whole]
        except JudgeReplyError as exc:
            return dict.fromkeys(asking, exc)
        unusable: dict[int, JudgeReplyError] = {}
        for index, part, (prompt_tokens, completion_tokens) in zip(
            asking, parts, share, strict=True
        ):
            try:
                if part is None:
                    raise JudgeReplyError(f"the reply has no entry for this item's {entry}")
                value = task.parse(part, items[index])
            except JudgeReplyError as exc:
                unusable[index] = exc
                continue
            results[index] = _Result(value=value)
            self._store(task, cache_keys[index], part, prompt_tokens, completion_tokens)
        return unusable

    def _store(
        self, task: _Task, key: str, part: Any, prompt_tokens: int, completion_tokens: int
    ) -> None:
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
        )

    def _flush_cache(self) -> None:
        if self._cache is None:
            return
        try:
            self._cache.flush()
        except duckdb.Error as exc:
            log.warning("judge cache not written (%s); a re-run pays again", type(exc).__name__)

    def _complete(self, task: _Task, prompt: str, note: str | None, spent: list[int]) -> Reply:
        """One answer from the endpoint; `note` says why the previous reply was unusable."""
        follow_up = None if note is None else _RETRY_NOTE.format(reason=note)
        return self._chat.complete(prompt, schema=task.schema, follow_up=follow_up, spent=spent)

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


def build_openai_judge(
    settings: JudgeSettings, con: duckdb.DuckDBPyConnection | None = None
) -> OpenAIJudge:
    """The judge `--judge openai` asks for; `con` (the run's store) backs its call cache."""
    cache = JudgeCache(con) if con is not None else None
    try:
        judge = OpenAIJudge(
            settings.model or "",
            base_url=settings.endpoint_url(),
            api_key_env=settings.api_key_env,
            mode=settings.mode or DEFAULT_MODE,
            concurrency=settings.concurrency,
            timeout=settings.timeout,
            max_calls=settings.max_calls,
            max_tokens=settings.max_tokens,
            llm_reason=settings.llm_reason,
            cache=cache,
            owns_cache=cache is not None,
            # The pipeline drains per-item usage after every batch to charge cases.
            track_items=True,
        )
    except BaseException:
        if cache is not None:
            cache.close()
        raise
    return judge


def _split(total: int, parts: int) -> list[int]:
    """`total` in `parts` whole shares that add up to it exactly (the first ones get the rest)."""
    share, rest = divmod(total, parts)
    return [share + (1 if n < rest else 0) for n in range(parts)]


def template_reason(score: float, contradictions: Sequence[str | None] | None) -> str:
    """The reason without a call: the score, then each contradiction, as the lexical judge."""
    parts = [f"The score is {format_score(score)}."]
    for text in contradictions or []:
        stripped = (text or "").strip()
        if stripped:
            parts.append(stripped if stripped[-1] in ".!?" else f"{stripped}.")
    return " ".join(parts)


def _check_settings(
    *,
    model: str,
    mode: str,
    concurrency: int,
    timeout: float,
    max_retries: int,
    max_calls: int | None,
    max_tokens: int | None,
    pack_size: int,
    pack_chars: int,
) -> None:
    if not isinstance(model, str) or not model.strip():
        raise ConfigError("--judge openai needs --model NAME (e.g. --model gpt-4o-mini)")
    if mode not in MODES:
        raise ConfigError(f"unknown judge mode {mode!r}; expected one of {', '.join(MODES)}")
    for name, value, least in (
        ("concurrency", concurrency, 1),
        ("max_retries", max_retries, 0),
        ("pack_size", pack_size, 1),
        ("pack_chars", pack_chars, 1),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise ConfigError(f"{name} must be an integer >= {least}, got {value!r}")
    for name, cap in (("max_calls", max_calls), ("max_tokens", max_tokens)):
        if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int) or cap < 0):
            raise ConfigError(f"{name} must be a non-negative integer or None, got {cap!r}")
    if not timeout or timeout <= 0:
        raise ConfigError(f"timeout must be a positive number of seconds, got {timeout!r}")


def _json_reply(reply: Reply) -> Any:
    try:
        return first_json_object(reply.text)
    except JudgeReplyError as exc:
        if reply.finish_reason == "length":
            raise JudgeReplyError(
                f"the reply was cut at the token limit before its JSON ended: {exc}"
            ) from None
        raise


def _lost() -> JudgeError:
    return JudgeError("the judge returned no answer for this item")


def _outcomes(results: Sequence[_Result]) -> list[ItemOutcome]:
    """Each call's result as the item outcome the stages' frames are built from."""
    return [
        ItemOutcome(value=r.value) if r.error is None else outcome_of_error(r.error)
        for r in results
    ]
