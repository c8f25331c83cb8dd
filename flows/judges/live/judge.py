"""OpenAIJudge: any OpenAI-compatible chat-completions endpoint as the faithfulness judge.

Modes (the mode is part of the judge identity, hence of the metric config):

- `per-item`: one call per distinct passage (truths), answer (claims) and (claims, truths)
  question (verdicts), with the one-item templates of prompts.py: about 2 calls a case plus
  the distinct passages a case, fewer as the cache fills.
- `packed` (default): the same three questions, up to `Packing.size` items (and
  `Packing.chars` characters of data) a call, with the templates of packed_prompts.py: the
  per-item count divided by about the pack size, and the instructions paid once a call.

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

from faith_udfs.errors import ConfigError
from flows.judges.endpoint.call_policy import CallPolicy
from flows.judges.endpoint.request_details import endpoint_key
from flows.judges.endpoint.transport import ChatEndpoint, Usage
from flows.judges.live.asking import AnswerStore, Asking, release
from flows.judges.live.endpoint_answers import EndpointAnswers
from flows.judges.live.questions import AskingJudge, openai_identity
from flows.judges.live.tasks import DEFAULT_MODE, Packing, check_judge_settings
from flows.store.judge_memory import MEMORY_ERRORS, JudgeMemory
from flows.store.reply_cache import ReplyCache

if TYPE_CHECKING:
    from collections.abc import Callable

    import duckdb

    from flows.judges.endpoint.limiter import AdaptiveLimiter
    from flows.judges.settings import JudgeSettings

log = logging.getLogger(__name__)


class OpenAIJudge(AskingJudge):
    """Judge asking an OpenAI-compatible chat-completions endpoint, concurrently and politely.

    Each call has a deadline of `timeout` seconds, reply included. Transient failures (429,
    5xx, deadlines, resets, answers that are not chat completions) are retried with jittered
    backoff; a refused key or unknown model stops every further call; caps leave the rest
    pending; `stop()` ends every call and wait at once. Talking to the endpoint is
    endpoint.transport.ChatEndpoint's, answering a pack live/endpoint_answers.py's, the cache
    and the packs live/asking.py's; the endpoint and its connections are held here.
    """

    def __init__(
        self,
        settings: JudgeSettings,
        *,
        policy: CallPolicy | None = None,
        packing: Packing | None = None,
        cache: ReplyCache | None = None,
        memory: JudgeMemory | None = None,
        owns_cache: bool = False,
        track_items: bool = False,
        wrap_limiter: Callable[[AdaptiveLimiter], AdaptiveLimiter] | None = None,
    ) -> None:
        """`settings` (kind openai): the model, endpoint and limits; `policy`: retries,
        backoff and the rate window (the house's defaults); `packing`: a packed call's size;
        `cache` and `memory`: the run's call cache and endpoint memory, closed with the judge
        when `owns_cache`; `track_items`: keep each item's usage for the run to drain;
        `wrap_limiter`: a cap on calls in flight on top of the judge's own (flows/engines/)."""
        if settings.kind != "openai":
            raise ConfigError(
                f"OpenAIJudge takes JudgeSettings(kind='openai', ...), not kind "
                f"{settings.kind!r}; build any judge with flows.judges.build_judge(settings)"
            )
        policy, packing = policy or CallPolicy(), packing or Packing()
        model, mode = settings.model or "", settings.mode or DEFAULT_MODE
        check_judge_settings(
            model=model,
            mode=mode,
            concurrency=settings.concurrency,
            timeout=settings.timeout,
            max_retries=policy.max_retries,
            max_calls=settings.max_calls,
            max_tokens=settings.max_tokens,
            pack_size=packing.size,
            pack_chars=packing.chars,
            max_output_tokens=settings.max_output_tokens,
        )
        # What pickle sends instead of the judge (its locks, client and key cannot travel):
        # how to build it again; None when it holds what cannot (a database's call cache).
        self._rebuilt_from = (
            (settings, policy, packing, track_items)
            if cache is None and memory is None and wrap_limiter is None
            else None
        )
        usage = Usage()
        base_url = settings.endpoint_url()
        self._memory = memory
        self._endpoint_key = endpoint_key(base_url)
        self._remembered = recalled_format(memory, self._endpoint_key, model)
        # Set by stop(), close() or an interrupt: no new call is made, no wait goes on.
        self._stop = threading.Event()
        self._chat = ChatEndpoint(
            model,
            base_url=base_url,
            api_key_env=settings.api_key_env,
            limits=settings.call_limits(),
            policy=policy,
            usage=usage,
            stop=self._stop,
            wrap_limiter=wrap_limiter,
            response_format=self._remembered,
        )
        if self._remembered is not None:
            log.info(
                "judge %s: asking with response_format %s, remembered for this endpoint",
                model,
                self._remembered,
            )
        self.api_key_env = settings.api_key_env
        self._cache = cache
        self._owns_cache = owns_cache  # close the cache with the judge
        store = AnswerStore(openai_identity(model, mode), mode, cache)
        answers = EndpointAnswers(
            self._chat, store=store, usage=usage, max_output_tokens=settings.max_output_tokens
        )
        super().__init__(
            model=model,
            mode=mode,
            llm_reason=settings.llm_reason,
            usage=usage,
            asking=Asking(
                answers,
                store=store,
                usage=usage,
                memory=memory,
                pack_size=packing.size if mode == "packed" else 1,
                pack_chars=packing.chars,
                concurrency=settings.concurrency,
                track_items=track_items,
                on_interrupt=self.stop,
                remember_format=self._remember_format,
            ),
        )

    # --- public surface -------------------------------------------------------------------

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

    def stop(self) -> None:
        """End the run's judging now, from any thread: calls in flight are cancelled, waits
        for a slot or a backoff end, and every later call fails at once as a judge error."""
        self._chat.stop()

    def close(self) -> None:
        """Stop, write the cache buffer and close the HTTP connections; a cache the judge built
        itself (`build_openai_judge`) is closed too, one passed in stays open."""
        self._chat.stop()
        try:
            release(self._cache, self._memory, owned=self._owns_cache)
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

    def __reduce__(self) -> tuple[Callable[..., OpenAIJudge], tuple[object, ...]]:
        """Pickled as its settings (multiprocessing, joblib, Ray send the metric holding it):
        built again where it lands, reading the API key from that environment; never the
        key, the connections or the calls' counters. A database's call cache cannot travel."""
        if self._rebuilt_from is None:
            raise TypeError(
                "an OpenAIJudge holding a database's call cache cannot be pickled (a DuckDB "
                "connection does not travel): build the judge in each process, "
                "flows.judges.build_judge(settings, con), or pass the model name"
            )
        return rebuilt_openai_judge, self._rebuilt_from

    def __repr__(self) -> str:
        return (
            f"OpenAIJudge(model={self.model!r}, mode={self.mode!r}, "
            f"endpoint={self._chat.endpoint!r}, api_key_env={self.api_key_env!r})"
        )

    # --- machinery ------------------------------------------------------------------------

    def _remember_format(self) -> None:
        """Store the mode the endpoint answered, once it differs from the remembered one."""
        if self._memory is None or not self._chat.response_format_confirmed:
            return
        found = self._chat.response_format
        if found != self._remembered:
            self._memory.remember_format(self._endpoint_key, self.model, found)
            log.info("judge %s: the endpoint answers response_format %s", self.model, found)
            self._remembered = found


def rebuilt_openai_judge(
    settings: JudgeSettings, policy: CallPolicy, packing: Packing, track_items: bool
) -> OpenAIJudge:
    """A pickled OpenAIJudge, built again from what it was built from."""
    return OpenAIJudge(settings, policy=policy, packing=packing, track_items=track_items)


def recalled_format(memory: JudgeMemory | None, endpoint: str, model: str) -> str | None:
    """The structured-output mode this endpoint answered in earlier runs, if remembered."""
    if memory is None:
        return None
    try:
        return memory.response_format(endpoint, model)
    except MEMORY_ERRORS as exc:
        log.warning("judge memory unreadable (%s); negotiating again", type(exc).__name__)
        return None


def build_openai_judge(
    settings: JudgeSettings,
    con: duckdb.DuckDBPyConnection | None = None,
    *,
    cache: ReplyCache | None = None,
    wrap_limiter: Callable[[AdaptiveLimiter], AdaptiveLimiter] | None = None,
    cached: bool = True,
) -> OpenAIJudge:
    """The judge `--judge openai` asks for; `con` (the run's store) backs its call cache and
    its memory of the endpoint's structured-output mode, or `cache` stands in for the call
    cache (a Dask task's, flows/engines/worker_judge.py). `cached=False`: no call cache, every
    question asked (the nightly judge check, which watches the model behind the name)."""
    owns_cache = cache is None and con is not None and cached
    cache = ReplyCache(con) if owns_cache and con is not None else cache
    memory = JudgeMemory(con) if con is not None else None
    try:
        judge = OpenAIJudge(
            settings,
            cache=cache,
            memory=memory,
            owns_cache=owns_cache,
            # The pipeline drains per-item usage after every batch to charge cases.
            track_items=True,
            wrap_limiter=wrap_limiter,
        )
    except BaseException:
        if owns_cache and cache is not None:
            cache.close()
        if memory is not None:
            memory.close()
        raise
    return judge
