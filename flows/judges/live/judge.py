"""OpenAIJudge: any OpenAI-compatible chat-completions endpoint as the faithfulness judge.

Modes (the mode is part of the judge identity, hence of the metric config):

- `per-item`: one call per distinct passage (truths), answer (claims) and (claims, truths)
  question (verdicts), with the one-item templates of prompts.py: about 2 calls a case plus
  the distinct passages a case, fewer as the cache fills.
- `packed` (default): the same three questions, up to `pack_size` items (and `pack_chars`
  characters of data) a call, with the templates of packed_prompts.py: the per-item count
  divided by about `pack_size`, and the instructions paid once a call.

Both ask with the templates of faith_udfs (prompts.py, packed_prompts.py); the reason is a
template (no call) unless `llm_reason=True`. Every answer is cached per item in `judge_cache`
(key: model, template version, mode, schema, item, request parameters), so a re-run pays for
nothing twice whatever the packs looked like. The endpoint's address is not part of the
identity: the model name is what changes verdicts (OpenAI, Azure or a LiteLLM proxy serving
one model agree), and addresses may carry credentials; give two different weights two names.
"""

from __future__ import annotations

import logging
import threading
from types import TracebackType
from typing import TYPE_CHECKING

import polars as pl

from faith_udfs.config import JudgeIdentity
from faith_udfs.judges import (
    ItemJudge,
    outcome_frame,
    verdicts_frame,
)
from faith_udfs.packed_prompts import (
    PACKED_VERSION,
)
from faith_udfs.prompts import (
    PROMPT_VERSION,
)
from flows.judges.endpoint.breaker import DEFAULT_BREAKER_FAILURES
from flows.judges.endpoint.capped_http import DEFAULT_MAX_REPLY_BYTES
from flows.judges.endpoint.request_details import endpoint_key
from flows.judges.endpoint.transport import ChatEndpoint, Usage
from flows.store.judge_memory import MEMORY_ERRORS, JudgeMemory
from flows.store.reply_cache import ReplyCache

if TYPE_CHECKING:
    from collections.abc import Callable

    import duckdb

    from flows.judges.endpoint.limiter import AdaptiveLimiter
    from flows.run.settings import JudgeSettings
from flows.judges.live.asking import CachedPackedAsking
from flows.judges.live.tasks import (
    DEFAULT_MODE,
    Task,
    check_judge_settings,
    judge_task,
    outcomes,
    template_reason,
)

log = logging.getLogger(__name__)


class OpenAIJudge(CachedPackedAsking, ItemJudge):
    """Judge asking an OpenAI-compatible chat-completions endpoint, concurrently and politely.

    Each call has a deadline of `timeout` seconds, reply included. Transient failures (429,
    5xx, deadlines, resets, answers that are not chat completions) are retried with jittered
    backoff; a refused key or unknown model stops every further call; caps leave the rest
    pending; `stop()` ends every call and wait at once. Talking to the endpoint is
    endpoint.transport.ChatEndpoint's; asking and reading is here.
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
        max_output_tokens: int | None = None,
        llm_reason: bool = False,
        cache: ReplyCache | None = None,
        owns_cache: bool = False,
        memory: JudgeMemory | None = None,
        pack_size: int = 8,
        pack_chars: int = 12_000,
        backoff_base: float = 0.5,
        backoff_max: float = 20.0,
        max_retry_after: float = 60.0,
        track_items: bool = False,
        rpm: int | None = None,
        tpm: int | None = None,
        rate_window: float = 60.0,
        wrap_limiter: Callable[[AdaptiveLimiter], AdaptiveLimiter] | None = None,
        max_reply_bytes: int = DEFAULT_MAX_REPLY_BYTES,
        breaker_failures: int = DEFAULT_BREAKER_FAILURES,
    ) -> None:
        check_judge_settings(
            model=model,
            mode=mode,
            concurrency=concurrency,
            timeout=timeout,
            max_retries=max_retries,
            max_calls=max_calls,
            max_tokens=max_tokens,
            pack_size=pack_size,
            pack_chars=pack_chars,
            max_output_tokens=max_output_tokens,
        )
        self._usage = Usage()
        self._memory = memory
        self._endpoint_key = endpoint_key(base_url)
        self._remembered = self._recall_format(model)
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
            rpm=rpm,
            tpm=tpm,
            rate_window=rate_window,
            wrap_limiter=wrap_limiter,
            response_format=self._remembered,
            max_reply_bytes=max_reply_bytes,
            breaker_failures=breaker_failures,
        )
        if self._remembered is not None:
            log.info(
                "judge %s: asking with response_format %s, remembered for this endpoint",
                model,
                self._remembered,
            )
        self.model = model
        self._max_output_tokens = max_output_tokens
        self.mode = mode
        self.llm_reason = llm_reason
        self.api_key_env = api_key_env
        self._pack_size = pack_size if mode == "packed" else 1
        self._pack_chars = pack_chars
        self._concurrency = concurrency
        self._cache = cache
        self._owns_cache = owns_cache  # close the cache with the judge
        self._track_items = track_items
        self._identity = self.identity_of(model, mode)

    @staticmethod
    def identity_of(model: str, mode: str) -> JudgeIdentity:
        """The identity of this judge for `model` and `mode` (also the dry run's)."""
        template = PROMPT_VERSION if mode == "per-item" else f"{PROMPT_VERSION}+{PACKED_VERSION}"
        return JudgeIdentity(
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
    def response_format_confirmed(self) -> bool:
        """Whether the endpoint answered a request in `response_format` (usable or not)."""
        return self._chat.response_format_confirmed

    @property
    def latencies(self) -> list[float]:
        """Seconds of each answered request, in order."""
        return list(self._chat.latencies)

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
            if self._memory is not None and self._owns_cache:
                self._memory.close()
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

    def _recall_format(self, model: str) -> str | None:
        if self._memory is None:
            return None
        try:
            return self._memory.response_format(self._endpoint_key, model)
        except MEMORY_ERRORS as exc:
            log.warning("judge memory unreadable (%s); negotiating again", type(exc).__name__)
            return None

    def _remember_format(self) -> None:
        """Store the mode the endpoint answered, once it differs from the remembered one."""
        if self._memory is None or not self._chat.response_format_confirmed:
            return
        found = self._chat.response_format
        if found != self._remembered:
            self._memory.remember_format(self._endpoint_key, self.model, found)
            log.info("judge %s: the endpoint answers response_format %s", self.model, found)
            self._remembered = found

    def _stage_task(self, stage: str, limit: int | None = None) -> Task:
        return judge_task(stage, packed=self.mode == "packed", limit=limit)


def build_openai_judge(
    settings: JudgeSettings,
    con: duckdb.DuckDBPyConnection | None = None,
    *,
    cache: ReplyCache | None = None,
    wrap_limiter: Callable[[AdaptiveLimiter], AdaptiveLimiter] | None = None,
) -> OpenAIJudge:
    """The judge `--judge openai` asks for; `con` (the run's store) backs its call cache and
    its memory of the endpoint's structured-output mode, or `cache` stands in for the call
    cache (a Dask task's, flows/engines/worker_judge.py)."""
    owns_cache = cache is None and con is not None
    cache = ReplyCache(con) if owns_cache else cache
    memory = JudgeMemory(con) if con is not None else None
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
            max_output_tokens=settings.max_output_tokens,
            llm_reason=settings.llm_reason,
            cache=cache,
            owns_cache=owns_cache,
            memory=memory,
            # The pipeline drains per-item usage after every batch to charge cases.
            track_items=True,
            rpm=settings.rpm,
            tpm=settings.tpm,
            wrap_limiter=wrap_limiter,
            max_reply_bytes=settings.max_reply_bytes,
            breaker_failures=settings.breaker_failures,
        )
    except BaseException:
        if owns_cache and cache is not None:
            cache.close()
        if memory is not None:
            memory.close()
        raise
    return judge
