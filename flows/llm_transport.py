"""Talking to an OpenAI-compatible chat-completions endpoint politely.

An adaptive limit on requests in flight, jittered backoff that honours Retry-After, a
structured-output request that steps down when the server refuses it, the run's call and
token caps, and the usage counters. What is asked and how replies are read is llm_judge.py's.
"""

from __future__ import annotations

import email.utils
import logging
import os
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

import openai

from faith_udfs.combined_prompts import reply_schema
from faith_udfs.errors import (
    ConfigError,
    JudgeBudgetExhausted,
    JudgeError,
    JudgeReplyError,
    JudgeTransientError,
)
from flows.errors import JudgeEndpointError

__all__ = [
    "FORMATS",
    "REQUEST_PARAMETERS",
    "AdaptiveLimiter",
    "ChatEndpoint",
    "Reply",
    "Usage",
]

log = logging.getLogger(__name__)

# Structured-output requests, best first; a server that refuses one gets the next (per judge).
FORMATS = ("json_schema", "json_object", "text")
# Request parameters that change answers; they enter the cache key.
REQUEST_PARAMETERS: dict[str, Any] = {"temperature": 0}
# 408 and 409 are what the openai client itself retries besides 429 and 5xx.
_TRANSIENT_STATUS = frozenset({408, 409, 429})
_FATAL_STATUS = {
    401: "the endpoint refused the API key read from ${env} (HTTP 401); set a valid key",
    403: "the endpoint denied access to model {model!r} with the key read from ${env} "
    "(HTTP 403); check the key's permissions",
    404: "the endpoint has no model {model!r} or no chat-completions route at {endpoint} "
    "(HTTP 404); check --model and --base-url",
}


@dataclass(frozen=True)
class Reply:
    """One chat completion's text, why it ended, and what it cost."""

    text: str
    finish_reason: str | None
    prompt_tokens: int
    completion_tokens: int


class AdaptiveLimiter:
    """At most `limit` requests in flight; a 429 halves the limit (once per round of requests)
    and pauses everyone for its Retry-After; `limit` successes in a row add one back."""

    def __init__(self, ceiling: int, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.ceiling = ceiling
        self._limit = ceiling
        self._clock = clock
        self._cond = threading.Condition()
        self._in_flight = 0
        self._epoch = 0
        self._successes = 0
        self._paused_until = 0.0

    @property
    def limit(self) -> int:
        return self._limit

    def acquire(self) -> int:
        """Wait for a slot; returns a ticket to hand back to `release`."""
        with self._cond:
            while True:
                wait = self._paused_until - self._clock()
                if wait > 0:
                    self._cond.wait(wait)
                elif self._in_flight >= self._limit:
                    self._cond.wait()
                else:
                    break
            self._in_flight += 1
            return self._epoch

    def release(
        self, ticket: int, *, ok: bool, throttled: bool = False, retry_after: float | None = None
    ) -> None:
        """Free the slot and adapt: grow on success, halve on a throttle, stay on other errors."""
        with self._cond:
            self._in_flight -= 1
            if throttled:
                self._successes = 0
                # Requests sent before the last decrease were sent at the old limit: their 429s
                # say nothing new, so one burst halves the limit once.
                if ticket == self._epoch:
                    self._limit = max(1, self._limit // 2)
                    self._epoch += 1
                if retry_after:
                    self._paused_until = max(self._paused_until, self._clock() + retry_after)
            elif ok:
                self._successes += 1
                if self._limit < self.ceiling and self._successes >= self._limit:
                    self._limit += 1
                    self._successes = 0
            self._cond.notify_all()


class Usage:
    """Thread-safe run counters."""

    FIELDS = (
        "calls",
        "cached",
        "failed",
        "retries",
        "throttled",
        "prompt_tokens",
        "completion_tokens",
    )

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts = dict.fromkeys(self.FIELDS, 0)
        self._items: list[tuple[str, int, float, int, int, bool]] = []

    def add(self, **counts: int) -> None:
        with self._lock:
            for name, value in counts.items():
                self._counts[name] += value

    def get(self, name: str) -> int:
        with self._lock:
            return self._counts[name]

    def tokens(self) -> int:
        with self._lock:
            return self._counts["prompt_tokens"] + self._counts["completion_tokens"]

    def snapshot(self) -> dict[str, int]:
        with self._lock:
            return dict(self._counts)

    def record_items(self, rows: list[tuple[str, int, float, int, int, bool]]) -> None:
        with self._lock:
            self._items.extend(rows)

    def drain_items(self) -> list[tuple[str, int, float, int, int, bool]]:
        with self._lock:
            rows, self._items = self._items, []
            return rows


class ChatEndpoint:
    """One chat-completions endpoint and model, asked concurrently and politely.

    Transient failures (429, 5xx, timeouts, resets) are retried with jittered backoff; a
    refused key or unknown model stops every further call; past a cap, calls are refused.
    Counts go to `usage`; `stop` set means no new call and no further wait.
    """

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None,
        api_key_env: str,
        concurrency: int,
        timeout: float,
        max_retries: int,
        max_calls: int | None,
        max_tokens: int | None,
        backoff_base: float,
        backoff_max: float,
        max_retry_after: float,
        usage: Usage,
        stop: threading.Event,
    ) -> None:
        api_key = os.environ.get(api_key_env)
        if not api_key:
            raise ConfigError(
                f"the openai judge reads its API key from the environment variable "
                f"{api_key_env}, which is not set; export {api_key_env}=<key> (any non-empty "
                "value for a local server without auth), or name another variable with "
                "--api-key-env"
            )
        self.model = model
        self.api_key_env = api_key_env
        self._endpoint = _endpoint_name(base_url)
        self._timeout = float(timeout)
        self._max_retries = max_retries
        self._max_calls = max_calls
        self._max_tokens = max_tokens
        self._backoff_base = backoff_base
        self._backoff_max = backoff_max
        self._max_retry_after = max_retry_after
        # The key lives only inside the client, which sends it as a header.
        self._client = openai.OpenAI(
            base_url=base_url, api_key=api_key, max_retries=0, timeout=self._timeout
        )
        self._limiter = AdaptiveLimiter(concurrency)
        self._usage = usage
        self._stop = stop
        self._lock = threading.Lock()
        self._format = 0
        self._fatal: str | None = None
        self._budget: str | None = None
        self._random = random.Random()  # noqa: S311 - backoff jitter, not cryptography

    @property
    def endpoint(self) -> str:
        """Host and port only: never the userinfo, path or query of the base URL."""
        return self._endpoint

    @property
    def fatal_error(self) -> str | None:
        """Why the endpoint refuses every call (bad key, unknown model), once it has said so."""
        return self._fatal

    @property
    def response_format(self) -> str:
        """The structured-output request the endpoint accepted last (json_schema first)."""
        return FORMATS[self._format]

    @property
    def concurrency_limit(self) -> int:
        """Requests allowed in flight now (lowered by 429s, recovering on successes)."""
        return self._limiter.limit

    def close(self) -> None:
        """Close the HTTP connections."""
        self._client.close()

    def __repr__(self) -> str:
        return (
            f"ChatEndpoint(model={self.model!r}, endpoint={self._endpoint!r}, "
            f"api_key_env={self.api_key_env!r})"
        )

    def complete(
        self, prompt: str, *, schema: str, follow_up: str | None, spent: list[int]
    ) -> Reply:
        """One answer to `prompt` (then `follow_up`, if given), its reply following `schema`.

        Retries transient failures, refuses past the caps; adds the requests made, then the
        reply's tokens, to `spent` (requests, prompt tokens, completion tokens).
        """
        messages = [{"role": "user", "content": prompt}]
        if follow_up is not None:
            messages.append({"role": "user", "content": follow_up})
        failures = 0
        while True:
            self._reserve_call()
            spent[0] += 1
            used_format = self._format
            ticket = self._limiter.acquire()
            try:
                completion = self._client.chat.completions.create(
                    model=self.model,
                    messages=messages,
                    **REQUEST_PARAMETERS,
                    **_format_request(FORMATS[used_format], schema),
                )
            except openai.APIStatusError as exc:
                retry_after = _retry_after(exc.response.headers, self._max_retry_after)
                throttled = exc.status_code == 429
                self._limiter.release(
                    ticket, ok=False, throttled=throttled, retry_after=retry_after
                )
                if self._refused_format(exc, used_format):
                    self._usage.add(failed=1)
                    continue
                problem = self._status_problem(exc)
            except openai.APITimeoutError:
                self._limiter.release(ticket, ok=False)
                retry_after = None
                problem = f"the endpoint did not answer within {self._timeout:g} s"
            except openai.APIConnectionError as exc:
                self._limiter.release(ticket, ok=False)
                retry_after = None
                cause = type(exc.__cause__).__name__ if exc.__cause__ else "no response"
                problem = f"connection to the endpoint failed ({cause})"
            except openai.APIError as exc:
                self._limiter.release(ticket, ok=False)
                self._usage.add(failed=1)
                raise JudgeReplyError(
                    f"the endpoint's answer is not a chat completion: {type(exc).__name__}"
                ) from None
            else:
                self._limiter.release(ticket, ok=True)
                reply = self._reply_of(completion, prompt)
                spent[1] += reply.prompt_tokens
                spent[2] += reply.completion_tokens
                return reply
            failures += 1
            self._usage.add(failed=1)
            if failures > self._max_retries:
                raise JudgeTransientError(f"{problem}; gave up after {failures} attempts") from None
            self._usage.add(retries=1)
            self._stop.wait(self._backoff(failures, retry_after))

    def _reserve_call(self) -> None:
        """Count a request about to be made, or refuse it (endpoint refused us, cap reached)."""
        if self._stop.is_set():
            raise JudgeTransientError("the judge was closed or interrupted before this call")
        with self._lock:
            if self._fatal is not None:
                raise JudgeEndpointError(self._fatal)
            if self._budget is None:
                if self._max_calls is not None and self._usage.get("calls") >= self._max_calls:
                    self._budget = (
                        f"the run's cap of {self._max_calls} judge calls is reached "
                        "(--max-calls); the case stays pending for the next run"
                    )
                elif self._max_tokens is not None and self._usage.tokens() >= self._max_tokens:
                    self._budget = (
                        f"the run's cap of {self._max_tokens} judge tokens is reached "
                        "(--max-tokens); the case stays pending for the next run"
                    )
            if self._budget is not None:
                raise JudgeBudgetExhausted(self._budget)
            self._usage.add(calls=1)

    def _refused_format(self, exc: openai.APIStatusError, used_format: int) -> bool:
        """True when the server refused our response_format: step down to the next one."""
        if exc.status_code not in (400, 422) or used_format + 1 >= len(FORMATS):
            return False
        message = f"{exc.message} {exc.param or ''}".lower()
        if "response_format" not in message and "json_schema" not in message:
            return False
        with self._lock:
            if self._format == used_format:
                self._format = used_format + 1
                log.info(
                    "the judge endpoint refused response_format %s; asking with %s from now on",
                    FORMATS[used_format],
                    FORMATS[self._format],
                )
        return True

    def _status_problem(self, exc: openai.APIStatusError) -> str:
        """A transient failure's description; raises at once for a permanent one."""
        status = exc.status_code
        if status in _TRANSIENT_STATUS or status >= 500:
            if status == 429:
                self._usage.add(throttled=1)
                log.debug("judge endpoint throttled (HTTP 429); limit now %d", self._limiter.limit)
            return f"HTTP {status} from the endpoint: {self._server_message(exc)}"
        self._usage.add(failed=1)
        if status in _FATAL_STATUS:
            # Never the server's text here: some servers echo part of a refused key.
            message = _FATAL_STATUS[status].format(
                env=self.api_key_env, model=self.model, endpoint=self._endpoint
            )
            with self._lock:
                if self._fatal is None:
                    self._fatal = message
                    log.error("judge endpoint: %s; no further calls are made", message)
            raise JudgeEndpointError(message) from None
        raise JudgeError(f"HTTP {status} from the endpoint: {self._server_message(exc)}") from None

    def _server_message(self, exc: openai.APIStatusError) -> str:
        body = exc.body
        detail = body.get("message") if isinstance(body, dict) else None
        text = detail if isinstance(detail, str) else str(exc.message or "")
        secret = self._client.api_key
        if secret:
            text = text.replace(secret, "[redacted]")
        return text if len(text) <= 300 else text[:299] + "…"

    def _reply_of(self, completion: Any, prompt: str) -> Reply:
        choices = getattr(completion, "choices", None) or []
        message = choices[0].message if choices else None
        text = (message.content if message is not None else None) or ""
        finish = choices[0].finish_reason if choices else None
        usage = getattr(completion, "usage", None)
        # Servers that report no usage get an estimate (4 characters a token) so caps hold.
        prompt_tokens = getattr(usage, "prompt_tokens", None)
        completion_tokens = getattr(usage, "completion_tokens", None)
        if prompt_tokens is None:
            prompt_tokens = len(prompt) // 4
        if completion_tokens is None:
            completion_tokens = len(text) // 4
        self._usage.add(prompt_tokens=prompt_tokens, completion_tokens=completion_tokens)
        return Reply(text, finish, prompt_tokens, completion_tokens)

    def _backoff(self, failures: int, retry_after: float | None) -> float:
        ceiling = min(self._backoff_max, self._backoff_base * 2 ** (failures - 1))
        delay = ceiling / 2 + self._random.uniform(0, ceiling / 2)
        return max(delay, retry_after or 0.0)


def _endpoint_name(base_url: str | None) -> str:
    """Host and port of the endpoint: never the userinfo, path or query (they may hold keys)."""
    if not base_url:
        return "api.openai.com"
    parts = urlsplit(base_url)
    host = parts.hostname or "?"
    return f"{host}:{parts.port}" if parts.port else host


def _format_request(kind: str, schema: str) -> dict[str, Any]:
    if kind == "json_schema":
        name = schema.replace(".", "_")
        return {
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": name, "strict": True, "schema": reply_schema(schema)},
            }
        }
    if kind == "json_object":
        return {"response_format": {"type": "json_object"}}
    return {}


def _retry_after(headers: Any, ceiling: float) -> float | None:
    """Seconds the server asks us to wait (`retry-after-ms` or `Retry-After`), capped."""
    seconds: float | None = None
    millis = headers.get("retry-after-ms")
    if millis is not None:
        try:
            seconds = float(millis) / 1000
        except ValueError:
            seconds = None
    value = headers.get("retry-after")
    if seconds is None and value is not None:
        try:
            seconds = float(value)
        except ValueError:
            try:
                when = email.utils.parsedate_to_datetime(value)
            except (TypeError, ValueError):
                when = None
            if when is not None:
                if when.tzinfo is None:
                    when = when.replace(tzinfo=UTC)
                seconds = (when - datetime.now(UTC)).total_seconds()
    if seconds is None:
        return None
    return min(max(seconds, 0.0), ceiling)
