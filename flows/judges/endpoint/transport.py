"""Talking to an OpenAI-compatible chat-completions endpoint politely, with deadlines.

An adaptive limit on requests in flight (limiter.py), jittered backoff that honours
Retry-After (call_policy.py), a structured-output request that steps down when the server
refuses it (negotiation.py; refusals.py says what a refusal means, replies.py reads what was
answered), the run's call and token caps, and the usage counters (usage.py). Every request
runs on one asyncio loop (endpoint/event_loop.py) under a deadline that cancels it wherever
it is (connecting, waiting, reading a reply that trickles in), and a stop cancels them all.
What is asked and how replies are read is live/judge.py's (live/tasks.py, live/asking.py)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import os
import random
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

import openai

from faith_udfs.errors import ConfigError, JudgeBudgetExhausted, JudgeError, JudgeTransientError
from flows.clock import remaining
from flows.errors import JudgeEndpointError
from flows.judges.endpoint.api_key import missing_api_key
from flows.judges.endpoint.breaker import (
    CircuitBreaker,
    EndpointFailure,
    WaitTooLong,
    connection_error,
)
from flows.judges.endpoint.call_policy import CallLimits, CallPolicy
from flows.judges.endpoint.capped_http import RedirectRefused, ReplyTooLarge, capped_client
from flows.judges.endpoint.cleartext import warn_if_cleartext
from flows.judges.endpoint.event_loop import LoopThread
from flows.judges.endpoint.limiter import AdaptiveLimiter
from flows.judges.endpoint.loading import LoadingWait, failure_kind
from flows.judges.endpoint.negotiation import Negotiation
from flows.judges.endpoint.rate_window import call_bound, expected_tokens, shared_window
from flows.judges.endpoint.refusals import FORMATS, TRANSIENT_STATUS, FatalRefusals, RequestRefused
from flows.judges.endpoint.replies import Reply, clipped, error_answer, json_body, reply_of
from flows.judges.endpoint.request_details import (
    chat_request_body,
    conversation,
    endpoint_name,
    retry_after_seconds,
    split_userinfo,
    without_userinfo,
)
from flows.judges.endpoint.usage import Usage
from flows.scrub import register_endpoint_secrets

__all__ = [
    "FORMATS",
    "REQUEST_PARAMETERS",
    "AdaptiveLimiter",
    "CallLimits",
    "CallPolicy",
    "ChatEndpoint",
    "Reply",
    "Usage",
]

log = logging.getLogger(__name__)

T = TypeVar("T")

# Request parameters that change answers; they enter the cache key.
REQUEST_PARAMETERS: dict[str, Any] = {"temperature": 0}
# A request's own deadline cancels it; the caller's wait for it gives this much more.
_GRACE_SECONDS = 2.0


ROOM_WAIT_SECONDS = 1.0  # a wait for --max-tokens room between looks (or till woken)


class ChatEndpoint:
    """One chat-completions endpoint and model, asked concurrently and politely.

    Each request has a deadline of `timeout` seconds, reply body included. Transient failures
    (429, 5xx, deadlines, resets, replies that are not chat completions) are retried with
    jittered backoff; a refused key or unknown model stops every further call; past a cap,
    calls are refused. Counts go to `usage`; once `stop` is set (see `stop()`), no new call
    is made, no wait goes on, and requests in flight are cancelled.
    """

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None,
        api_key_env: str,
        limits: CallLimits,
        policy: CallPolicy,
        usage: Usage,
        stop: threading.Event,
        wrap_limiter: Callable[[AdaptiveLimiter], AdaptiveLimiter] | None = None,
        response_format: str | None = None,
    ) -> None:
        missing = missing_api_key(api_key_env)
        if missing:
            raise ConfigError(missing)
        api_key = os.environ[api_key_env]
        self.model = model
        self.api_key_env = api_key_env
        self._endpoint = endpoint_name(split_userinfo(base_url)[0] if base_url else None)
        self._timeout = float(limits.timeout)
        self._limits = limits
        self._policy = policy
        # The key lives only inside the client, which sends it as a header; so do credentials
        # written into the URL (user:password@), sent as Basic auth the way httpx would, but
        # kept out of the URL that httpx logs on every request.
        public_url, basic_auth = without_userinfo(base_url)
        self._refusals = FatalRefusals(
            api_key_env, model, self._endpoint, basic_auth=bool(basic_auth)
        )
        # Whatever the server echoes of them is cut out of its text (flows/scrub.py).
        register_endpoint_secrets(api_key, base_url)
        warn_if_cleartext(base_url, api_key_env)  # a key crossing the network in clear
        self._client = openai.AsyncOpenAI(
            base_url=public_url,
            api_key=api_key,
            max_retries=0,
            timeout=self._timeout,
            default_headers={"Authorization": basic_auth} if basic_auth else None,
            http_client=capped_client(limits.max_reply_bytes, self._timeout),
        )
        slack = limits.concurrency if policy.overload_slack else 0  # overload kinds' (5xx)
        self._breaker = CircuitBreaker(limits.breaker_failures, self._endpoint, in_flight=slack)
        # --rpm / --tpm: a sliding window over the requests sent (rate_window.py), shared by
        # this process's judges of the same endpoint and model.
        self._window = shared_window(
            public_url, model, limits.rpm, limits.tpm, window=policy.rate_window
        )
        # However long a slot may rightly take to come free: every other request in flight
        # waiting out the rate window, then ending one after the other at its deadline, after
        # the longest pause.
        self._limiter = AdaptiveLimiter(
            limits.concurrency,
            patience=policy.max_retry_after
            + limits.concurrency * (self._timeout + 1 + self._window.longest_wait),
        )
        if wrap_limiter is not None:  # e.g. a cluster-wide cap on top (flows/engines/)
            self._limiter = wrap_limiter(self._limiter)
        self._usage = usage
        self._stop = stop
        self._lock = threading.Lock()
        # --max-tokens: what the calls in flight are expected to cost, counted before their
        # answers (answered calls alone let 8 calls go, 4.6x a cap of 1,000 tokens)
        self._tokens_in_flight = 0
        self._settled = threading.Condition(self._lock)  # a call in flight ended
        self._asked = Negotiation(response_format)
        self._loading = LoadingWait(policy.max_loading_wait, self._endpoint)  # loading its model
        self.latencies: list[float] = []  # seconds of each answered request, in order
        self._fatal: str | None = None
        self._budget: str | None = None
        self._random = random.Random()  # noqa: S311 - backoff jitter, not cryptography
        self._loop = LoopThread("faith-judge-http")

    @property
    def endpoint(self) -> str:
        """Host and port only: never the userinfo, path or query of the base URL."""
        return self._endpoint

    @property
    def fatal_error(self) -> str | None:
        """Why the endpoint refuses every call (bad key, unknown model), once it has said so,
        or why no further call is made (the circuit breaker opened)."""
        return self._fatal or self._breaker.open

    @property
    def response_format(self) -> str:
        """The structured-output request the endpoint accepted last (json_schema first)."""
        return FORMATS[self._asked.format]

    @property
    def response_format_confirmed(self) -> bool:
        """Whether the endpoint answered a request in `response_format` (worth remembering)."""
        return self._asked.confirmed

    @property
    def concurrency_limit(self) -> int:
        """Requests allowed in flight now (lowered by 429s, recovering on successes)."""
        return self._limiter.limit

    def stop(self) -> None:
        """Stop now: no new call, no further wait, and every request in flight is cancelled."""
        self._stop.set()
        self._limiter.wake()
        self._window.wake()
        with self._lock:
            self._settled.notify_all()  # a call waiting for --max-tokens room goes now
        self._loop.cancel_all()

    def close(self) -> None:
        """Stop, then close the HTTP connections and the loop's thread."""
        self.stop()
        self._loop.close(self._client.close(), _GRACE_SECONDS)

    def __repr__(self) -> str:
        return (
            f"ChatEndpoint(model={self.model!r}, endpoint={self._endpoint!r}, "
            f"api_key_env={self.api_key_env!r})"
        )

    def complete(
        self,
        prompt: str,
        *,
        schema: str,
        max_tokens: int,
        previous: tuple[str, str] | None = None,
        spent: list[int],
    ) -> Reply:
        """One answer to `prompt`, its reply following `schema`, at most `max_tokens` long;
        `previous` (the earlier reply, a note on why it was unusable) asks again as
        user / assistant / user.

        Retries the failures whose class is `retryable`, refuses past the caps; a refused
        response_format is asked again with the next one, never retried as it was. Adds the
        requests made, then the reply's tokens, to `spent` (requests, prompt tokens,
        completion tokens).
        """
        messages = conversation(prompt, previous)
        failures = 0
        while True:
            requests_before = spent[0]
            try:
                reply = self._attempt(messages, schema, max_tokens, spent)
            except JudgeError as exc:
                if spent[0] > requests_before:  # a cap or a stop refused it before sending
                    self._usage.add(failed=1)
                failures += 1
                if not exc.retryable or self._stop.is_set():
                    raise
                failures = self._wait_after(exc, failures)
                continue
            self._breaker.success()
            self._loading.answered()
            if reply is None:  # the server refused our response_format: ask with the next
                self._usage.add(failed=1)
                continue
            spent[1] += reply.prompt_tokens
            spent[2] += reply.completion_tokens
            return reply

    def _can_wait(self) -> tuple[float, float | None]:
        """The longest wait a Retry-After may ask for, and the run's time left (None: no
        --run-timeout)."""
        left = remaining()
        longest = self._policy.max_retry_after
        return (longest if left is None else min(longest, left)), left

    def _wait_after(self, exc: JudgeError, failures: int) -> int:
        """Back off before asking again (the failures counted so far: a model loading is not
        one); raise instead when the breaker opens, when the server asks for a longer wait
        than the run can give, when a model's load outlasts its wait, or past the retries."""
        kind, retry_after = getattr(exc, "kind", None), getattr(exc, "retry_after", None)
        detail, (can_wait, left) = getattr(exc, "detail", None), self._can_wait()
        if kind == "loading":
            poll = self._loading.next_wait(
                self._policy, retry_after, self._random, left, detail or ""
            )
            if poll is not None:
                self._usage.add(retries=1)
                self._stop.wait(poll)
                return failures - 1
            detail = self._loading.gave_up(detail or "", left)
        too_long = retry_after is not None and retry_after > can_wait
        if too_long:
            kind = "throttled"
        opened = self._breaker.failure(kind, detail) if kind else None
        if opened is not None:
            raise opened from None
        if too_long:
            raise WaitTooLong(
                f"{exc}; the endpoint asked to wait {retry_after:g} s (Retry-After), longer "
                f"than the run can wait ({can_wait:.0f} s): not waited for, the case stays "
                "pending for the next run"
            ) from None
        if failures > self._policy.max_retries:
            if (opened := self._breaker.gave_up(kind)) is not None:  # 429s, calls in a row
                raise opened from None
            raise JudgeTransientError(f"{exc}; gave up after {failures} attempts") from None
        self._usage.add(retries=1)
        wait = self._policy.backoff(failures, retry_after, self._random)
        self._stop.wait(wait if left is None else min(wait, left))
        return failures

    def _attempt(
        self, messages: list[dict[str, str]], schema: str, max_tokens: int, spent: list[int]
    ) -> Reply | None:
        """One request, in a slot that every way out hands back: the reply, None when the
        server refused the response format, or the JudgeError it ended in."""
        ticket = self._limiter.acquire(self._stop)
        ok, throttled, retry_after, expected = False, False, None, 0
        try:
            sent = self._window.admit(call_bound(messages, schema, max_tokens), self._stop)
            expected = self._reserve_call(
                expected_tokens(messages, max_tokens, self._usage, replies=len(self.latencies))
            )
            spent[0] += 1
            prompt = messages[0]["content"]  # the question (conversation()): what a refusal is of
            used_format = self._asked.format_for(prompt)
            body = chat_request_body(
                self.model,
                messages,
                schema=schema,
                response_format=FORMATS[used_format],
                max_tokens=max_tokens,
                parameters=REQUEST_PARAMETERS,
                limit_field=self._asked.limit_field,
            )
            started = time.monotonic()
            try:
                raw = self._loop.run(self._post(body), self._timeout + _GRACE_SECONDS)
            except openai.APIStatusError as exc:
                throttled = exc.status_code == 429
                asked = retry_after_seconds(exc.response.headers, float("inf"))
                # Every slot pauses for a wait the run can give; a longer one is not waited
                # for (_wait_after), by this call or any other.
                retry_after = asked if asked is not None and asked <= self._can_wait()[0] else None
                if self._asked.refused_limit_field(exc, body) or self._asked.refused_format(
                    exc, used_format, prompt
                ):
                    return None
                raise self._status_error(exc, asked) from None
            except (TimeoutError, openai.APITimeoutError):
                raise EndpointFailure(
                    f"the endpoint did not answer within {self._timeout:g} s", "timeout"
                ) from None
            except concurrent.futures.CancelledError:
                raise JudgeTransientError("the judge was stopped during this call") from None
            except (openai.APIConnectionError, ReplyTooLarge, RedirectRefused) as exc:
                raise connection_error(exc) from None
            except openai.APIError as exc:
                raise EndpointFailure(
                    f"the endpoint's answer is no chat completion: {type(exc).__name__}", "answer"
                ) from None
            completion = json_body(raw)
            refused = error_answer(completion, raw)
            if refused is not None:
                if self._asked.refused_format(refused, used_format, prompt):
                    return None
                code = refused.body.get("code") if isinstance(refused.body, dict) else None
                if code == 429 or (isinstance(code, int) and code >= 500):
                    said = self._server_message(refused)
                    message = f"the endpoint answered error {code}: {said}"
                    raise EndpointFailure(message, failure_kind(code, said), detail=said)
                raise self._status_error(refused, None) from None
            reply = self._reply_of(raw, completion, messages, max_tokens)
            self._window.settle(sent, None if reply.estimated else reply.total_tokens)
            with self._lock:
                self.latencies.append(time.monotonic() - started)
            self._asked.answered(used_format, prompt)
            ok = True
            return reply
        finally:
            with self._lock:
                self._tokens_in_flight -= expected
                self._settled.notify_all()  # a call waiting for the cap may go, or not
            self._limiter.release(ticket, ok=ok, throttled=throttled, retry_after=retry_after)

    async def _post(self, body: dict[str, Any]) -> Any:
        """The raw answer to one request, body read, within the deadline (on the loop)."""
        async with asyncio.timeout(self._timeout):
            raw = await self._client.chat.completions.with_raw_response.create(**body)
            await raw.http_response.aread()
            return raw

    def _reserve_call(self, expected: int) -> int:
        """Count a request about to be made, expected to cost `expected` tokens (returned,
        to be given back when it ends), or refuse it (endpoint refused us, cap reached)."""
        if self._stop.is_set():
            raise JudgeTransientError("the judge was closed or interrupted before this call")
        with self._lock:
            # Checked again after every wait for --max-tokens: while a call waited, the cap
            # of calls may have filled, the key been refused or the breaker opened.
            while True:
                if self._fatal is not None:
                    raise JudgeEndpointError(self._fatal)
                self._breaker.check()
                room = self._room(expected)
                if room != "wait":
                    break
                if self._stop.is_set():
                    raise JudgeTransientError("the judge was stopped while this call waited")
                # a call in flight ends by its deadline, and stop() wakes this wait
                self._settled.wait(timeout=ROOM_WAIT_SECONDS)
            if self._budget is not None:
                raise JudgeBudgetExhausted(self._budget)
            self._usage.add(calls=1)
            self._tokens_in_flight += expected
            return expected

    def _room(self, expected: int) -> str:
        """Whether a call expected to cost `expected` may go now (under `_lock`): "go";
        "refused", the run's budget spent (set, for every call after); or "wait", when it fits
        --max-tokens only if the calls in flight leave it room."""
        if self._budget is not None:
            return "refused"
        calls, spent = self._usage.get("calls"), self._usage.tokens()
        room, self._budget = self._limits.room(calls, spent, self._tokens_in_flight, expected)
        return room

    def _status_error(self, exc: openai.APIStatusError, retry_after: float | None) -> JudgeError:
        """The judge error an HTTP error status is: transient, or permanent for every call."""
        status = exc.status_code
        message = self._refusals.message_for(exc)
        if message is not None:
            with self._lock:
                if self._fatal is None:
                    self._fatal = message
                    log.error("judge endpoint: %s; no further calls are made", message)
            return JudgeEndpointError(message)
        if status in TRANSIENT_STATUS or status >= 500:
            if status == 429:
                self._usage.add(throttled=1)
                log.debug("judge endpoint throttled (HTTP 429); limit now %d", self._limiter.limit)
            said = self._server_message(exc)
            message = f"HTTP {status} from the endpoint: {said}"
            return EndpointFailure(message, failure_kind(status, said), retry_after, detail=said)
        return RequestRefused(f"HTTP {status} from the endpoint: {self._server_message(exc)}")

    def _server_message(self, exc: openai.APIStatusError) -> str:
        body = exc.body
        detail = body.get("message") if isinstance(body, dict) else None
        return self._redacted(detail if isinstance(detail, str) else str(exc.message or ""))

    def _redacted(self, text: str, limit: int = 300) -> str:
        """Server text fit for an error: scrubbed (flows/scrub.py: some servers echo the key
        or the Authorization header), then clipped."""
        return clipped(text, self._client.api_key, limit)

    def _reply_of(
        self, raw: Any, completion: Any, messages: list[dict[str, str]], max_tokens: int
    ) -> Reply:
        """The reply of a chat completion (replies.py), its tokens counted."""
        reply = reply_of(raw, completion, messages, max_tokens, secret=self._client.api_key)
        self._usage.add(
            prompt_tokens=reply.prompt_tokens,
            completion_tokens=reply.completion_tokens,
            estimated=int(reply.estimated),
        )
        return reply
