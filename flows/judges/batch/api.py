"""An OpenAI-style Batch API (files and batches endpoints), asked with deadlines.

Upload a JSONL file (`POST /files`, purpose `batch`), submit it (`POST /batches`, window
24 h; never retried: a create is not idempotent and a second one is billed again), find the
batch of a file (`GET /batches`, paged), ask a batch's state (`GET /batches/{id}`), read a
result file (`GET /files/{id}/content`), cancel (`POST /batches/{id}/cancel`). Every request
runs on one asyncio loop under a deadline that cancels it wherever it is, and `stop()` cancels
them all, as the chat endpoint's (endpoint/transport.py). Retries are this module's, under a
circuit breaker (endpoint/breaker.py): after N failures of one kind in a row, or one
Retry-After longer than the run can wait, no further request is made (BatchUnreachable,
exit 6). The key stays inside the client; credentials in the URL are sent as Basic auth and
kept out of the URL (request_details.without_userinfo).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import os
import random
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

import openai

from faith_udfs.errors import ConfigError, JudgeTransientError
from flows.clock import remaining
from flows.errors import JudgeEndpointError, JudgeUnreachable
from flows.judges.batch.requests import BATCH_ENDPOINT
from flows.judges.batch.server_json import SUBMISSION_TAG, batch_errors, made_from
from flows.judges.endpoint.api_key import missing_api_key
from flows.judges.endpoint.breaker import (
    BATCH_SAID,
    DEFAULT_BREAKER_FAILURES,
    CircuitBreaker,
    connection_kind,
)
from flows.judges.endpoint.capped_http import answer_limit, capped_client, too_large
from flows.judges.endpoint.cleartext import warn_if_cleartext
from flows.judges.endpoint.event_loop import LoopThread
from flows.judges.endpoint.loading import failure_kind
from flows.judges.endpoint.redirects import RedirectRefused
from flows.judges.endpoint.reply_cap import DEFAULT_MAX_REPLY_BYTES, ReplyTooLarge
from flows.judges.endpoint.request_details import (
    endpoint_name,
    retry_after_seconds,
    split_userinfo,
    without_userinfo,
)
from flows.scrub import register_endpoint_secrets, scrub, scrub_bytes

__all__ = [
    "FINISHED",
    "SUBMISSION_TAG",
    "BatchApi",
    "BatchApiError",
    "BatchNotFound",
    "BatchRefused",
    "BatchStatus",
    "BatchUnreachable",
]

# Batch states after which nothing more will come (OpenAI's names).
FINISHED = frozenset({"completed", "failed", "expired", "cancelled"})
COMPLETION_WINDOW: Final = "24h"
# A request's own deadline cancels it; the caller's wait for it gives this much more.
_GRACE_SECONDS = 2.0
# Finding a file's batch reads the newest batches, 100 a page, back to an hour before the
# file was recorded (clocks differ), at most this many pages: no listing without an end.
_PAGE, _MOST_PAGES, _CLOCK_MARGIN_SECONDS = 100, 20, 3600.0
# Every request but a create is tried this many times more, after 0.5 s, 1 s, 2 s, 4 s (or
# the Retry-After the run can wait): as the live judge's, one request failing all its
# attempts the same way opens the breaker at its default (5).
_RETRIES, _BACKOFF_BASE, _BACKOFF_MOST = 4, 0.5, 8.0
# The longest Retry-After waited for (the live judge's default most); never past --run-timeout.
MAX_RETRY_AFTER = 60.0


class BatchApiError(JudgeTransientError):
    """A files or batches request failed (5xx, 429 after the client's retries, a deadline,
    a reset, an answer that is not JSON): nothing is lost, the next run asks again."""


class BatchUnreachable(JudgeUnreachable, BatchApiError):
    """The circuit breaker opened: no further request is made this run. Whatever waits on the
    server stays for the next run (a BatchApiError), and the run ends with exit 6 (a
    JudgeUnreachable), the cases left pending."""


class BatchNotFound(BatchApiError):
    """The server does not know this batch (HTTP 404): it was deleted, or is another server's."""


class BatchRefused(BatchApiError):
    """The server refused the request (HTTP 400, 409, 413, 422 ...): it did nothing, so a
    create refused this way left no batch behind."""


@dataclass(frozen=True)
class BatchStatus:
    """What the server says of a batch."""

    batch_id: str
    status: str
    input_file_id: str | None
    output_file_id: str | None
    error_file_id: str | None
    error: str | None

    @property
    def finished(self) -> bool:
        return self.status in FINISHED

    @classmethod
    def of(cls, data: Any) -> BatchStatus:
        if not isinstance(data, dict) or not isinstance(data.get("id"), str):
            raise BatchApiError(f"the batches endpoint answered no batch: {str(data)[:120]!r}")

        def text(name: str) -> str | None:
            value = data.get(name)
            return value if isinstance(value, str) and value else None

        return cls(
            batch_id=data["id"],
            status=text("status") or "unknown",
            input_file_id=text("input_file_id"),
            output_file_id=text("output_file_id"),
            error_file_id=text("error_file_id"),
            error=batch_errors(data.get("errors")),
        )


class BatchApi:
    """The files and batches endpoints of one server, each request under a deadline.

    `timeout` bounds a small request (submit, state, cancel), and the silence of a file
    transfer (connecting, a wait for the next bytes); `transfer_timeout` an upload or a
    download of a whole file. An answer is read up to `max_reply_bytes` (a result file: that
    much for each request line of its batch), then given up on: an endless body is never held
    whole (--max-reply-bytes, as the chat endpoint's). Transient failures (connection,
    deadline, 408, 429, 5xx) are retried 4 times with backoff; a create never is (a lost
    answer may hide a batch the server started: find it with `find`). Each failed attempt
    counts toward the circuit breaker (`breaker_failures` of one kind in a row), a request
    given up after a 429 at every attempt once (`rate`); a Retry-After longer than the run
    can wait opens it at once: the server asked for no request before the run is over.
    """

    def __init__(
        self,
        *,
        base_url: str | None,
        api_key_env: str,
        timeout: float,
        transfer_timeout: float | None = None,
        breaker_failures: int = DEFAULT_BREAKER_FAILURES,
        max_reply_bytes: int = DEFAULT_MAX_REPLY_BYTES,
    ) -> None:
        missing = missing_api_key(api_key_env)
        if missing:
            raise ConfigError(missing)
        api_key = os.environ[api_key_env]
        self.endpoint = endpoint_name(split_userinfo(base_url)[0] if base_url else None)
        self._timeout = float(timeout)
        self._transfer_timeout = float(transfer_timeout or max(10 * timeout, 120.0))
        self._max_reply_bytes = max_reply_bytes
        public_url, basic_auth = without_userinfo(base_url)
        register_endpoint_secrets(api_key, base_url)  # cut out of every answer (flows/scrub.py)
        warn_if_cleartext(base_url, api_key_env)  # a key crossing the network in clear
        silence = min(self._timeout, self._transfer_timeout)
        self._client = openai.AsyncOpenAI(
            base_url=public_url,
            api_key=api_key,
            max_retries=0,  # retried here, under the breaker (_call)
            # A black hole (accepts, never answers) is found within --timeout, even on a
            # transfer: no byte for that long ends the attempt.
            timeout=openai.Timeout(
                self._transfer_timeout, connect=silence, read=silence, write=silence, pool=silence
            ),
            default_headers={"Authorization": basic_auth} if basic_auth else None,
            http_client=capped_client(max_reply_bytes, self._transfer_timeout),
        )
        self._breaker = CircuitBreaker(
            breaker_failures, self.endpoint, at_once={"throttled"}, said=BATCH_SAID
        )
        self._stopped = threading.Event()
        self._random = random.Random()  # noqa: S311 - backoff jitter, not cryptography
        self._loop = LoopThread("faith-batch-http")

    def __repr__(self) -> str:
        return f"BatchApi(endpoint={self.endpoint!r})"

    @property
    def unreachable(self) -> str | None:
        """Why no further request is made this run, once the circuit breaker opened."""
        return self._breaker.open

    def upload(self, data: bytes, filename: str) -> str:
        """Upload a JSONL file of requests; returns its file id. A 404 is a server with no
        files endpoint, which can take no batch at all: JudgeEndpointError (exit 6)."""
        try:
            answer = self._call(
                lambda: self._client.files.with_raw_response.create(
                    file=(filename, data, "application/jsonl"), purpose="batch"
                ),
                self._transfer_timeout,
            )
        except BatchNotFound as exc:
            raise self._no_batch_api(exc, "POST /files") from None
        file_id = json.loads(answer).get("id") if answer else None
        if not isinstance(file_id, str):
            raise BatchApiError("the files endpoint answered no file id")
        return file_id

    def _no_batch_api(self, exc: BatchNotFound, request: str) -> JudgeEndpointError:
        return JudgeEndpointError(
            f"the endpoint at {self.endpoint} has no Batch API ({exc}, for {request}): "
            "--judge-mode batch needs OpenAI's files and batches endpoints, which "
            "llama.cpp's and Ollama's servers lack; use --judge-mode packed or per-item"
        )

    def submit(self, input_file_id: str) -> BatchStatus:
        """Start a batch of the uploaded file's requests, to finish within 24 h, tagged with the
        file (SUBMISSION_TAG). Asked once: any error but a refusal leaves it unknown whether
        the batch exists. A 404 is a server with files but no batches endpoint (LocalAI's),
        which can take no batch: JudgeEndpointError (exit 6), as for the upload's."""
        try:
            answer = self._json(
                lambda: self._client.batches.with_raw_response.create(
                    input_file_id=input_file_id,
                    endpoint=BATCH_ENDPOINT,
                    completion_window=COMPLETION_WINDOW,
                    metadata={SUBMISSION_TAG: input_file_id},
                ),
                # POST /batches is not idempotent: retrying it after a lost answer bills twice.
                retries=0,
            )
        except BatchNotFound as exc:
            raise self._no_batch_api(exc, "POST /batches") from None
        return BatchStatus.of(answer)

    def find(self, input_file_id: str, recorded_at: datetime) -> BatchStatus | None:
        """The batch created from this file, looked for among the server's batches newest
        first back to an hour before `recorded_at` (naive UTC); None when surely none is.
        Raises BatchApiError when the listing could not be read to that point."""
        oldest = recorded_at.replace(tzinfo=UTC).timestamp() - _CLOCK_MARGIN_SECONDS
        after: str | None = None
        for _ in range(_MOST_PAGES):
            page = self._json(
                lambda after=after: self._client.batches.with_raw_response.list(  # type: ignore[misc]
                    limit=_PAGE, **({"after": after} if after else {})
                )
            )
            batches = page.get("data") if isinstance(page, dict) else None
            if not isinstance(batches, list):
                raise BatchApiError("the batches endpoint answered no list of batches")
            for batch in batches:
                if made_from(batch, input_file_id):
                    return BatchStatus.of(batch)
            created = [b.get("created_at") for b in batches if isinstance(b, dict)]
            if (
                not page.get("has_more")
                or not batches
                or any(isinstance(at, (int, float)) and at < oldest for at in created)
            ):
                return None
            after = batches[-1].get("id") if isinstance(batches[-1], dict) else None
            if not isinstance(after, str):
                raise BatchApiError("the batches endpoint answered a page without ids")
        raise BatchApiError(
            f"the batch of file {input_file_id} was not among the newest {_PAGE * _MOST_PAGES}"
        )

    def status(self, batch_id: str) -> BatchStatus:
        """The batch's state now."""
        return BatchStatus.of(
            self._json(lambda: self._client.batches.with_raw_response.retrieve(batch_id))
        )

    def cancel(self, batch_id: str) -> BatchStatus:
        """Ask the server to stop the batch (it answers `cancelling`, then `cancelled`)."""
        return BatchStatus.of(
            self._json(lambda: self._client.batches.with_raw_response.cancel(batch_id))
        )

    def content(self, file_id: str, *, lines: int = 1) -> bytes:
        """A whole file's bytes (a batch's output or error file, of at most `lines` request
        lines: read up to `max_reply_bytes` for each)."""
        return self._call(
            lambda: self._client.files.with_raw_response.content(file_id),
            self._transfer_timeout,
            limit=self._max_reply_bytes * max(lines, 1),
        )

    def stop(self) -> None:
        """Cancel every request in flight; no retry waits or starts after it."""
        self._stopped.set()
        self._loop.cancel_all()

    def close(self) -> None:
        """Cancel, then close the HTTP connections and the loop's thread."""
        self.stop()
        self._loop.close(self._client.close(), _GRACE_SECONDS)

    def _json(self, request: Callable[[], Awaitable[Any]], *, retries: int = _RETRIES) -> Any:
        body = self._call(request, self._timeout, retries=retries)
        try:
            return json.loads(body)
        except (ValueError, RecursionError):  # RecursionError: nested past Python's depth
            raise BatchApiError(f"the batches endpoint answered no JSON: {body[:120]!r}") from None

    def _call(
        self,
        request: Callable[[], Awaitable[Any]],
        deadline: float,
        *,
        retries: int = _RETRIES,
        limit: int | None = None,
    ) -> bytes:
        """The body of one request's answer, read within `deadline` seconds an attempt,
        scrubbed of whatever the server echoed of our credentials (answers, result files).
        Transient failures are tried again `retries` times, while the breaker stays closed."""
        attempt = 0
        while True:
            if self._breaker.open is not None:
                raise BatchUnreachable(self._breaker.open)
            if self._stopped.is_set():
                raise BatchApiError("the judge was stopped before a batch request")
            attempt += 1
            failure = self._attempt(request, deadline, limit)
            if isinstance(failure, bytes):
                self._breaker.success()
                return failure
            error, kind, retry_after = failure
            opened = self._breaker.failure(kind, getattr(error, "detail", None)) if kind else None
            last = kind == "throttled" or attempt > retries
            # a 429 at every attempt (`rate`) is counted as its request gives up on it
            opened = opened or (self._breaker.gave_up(kind) if last else None)
            if opened is not None:
                raise BatchUnreachable(str(opened)) from None
            if last:
                raise error
            pause = max(self._backoff(attempt), retry_after or 0.0)
            left = remaining()
            if self._stopped.wait(pause if left is None else min(pause, left)):
                raise BatchApiError("the judge was stopped during a batch request")

    def _attempt(
        self, request: Callable[[], Awaitable[Any]], deadline: float, limit: int | None
    ) -> bytes | tuple[BatchApiError, str | None, float | None]:
        """One attempt: the answer's body, or why it failed, the breaker's kind of that
        failure (None: not counted) and the Retry-After to wait before the next. An answer
        past its cap (`limit`, else the client's) is an error at once, never asked again this
        run: it would be as large again."""

        async def run() -> bytes:
            capped = answer_limit(limit) if limit else contextlib.nullcontext()
            async with asyncio.timeout(deadline):
                with capped:
                    raw = await request()
                    return await raw.http_response.aread()

        try:
            return scrub_bytes(self._loop.run(run(), deadline + _GRACE_SECONDS), model_text=True)
        except openai.APIStatusError as exc:
            return self._status_failure(exc)
        except (TimeoutError, openai.APITimeoutError):
            message = f"the batch endpoint did not answer within {deadline:g} s"
            return BatchApiError(message), "timeout", None
        except concurrent.futures.CancelledError:
            raise BatchApiError("the judge was stopped during a batch request") from None
        except (openai.APIConnectionError, ReplyTooLarge, RedirectRefused) as exc:
            large = too_large(exc)
            if large is not None:
                raise BatchApiError(
                    f"the batch endpoint's answer was not read: {large} (--max-reply-bytes)"
                ) from None
            # Never the server's text: the cause's class and the kind say enough.
            kind = connection_kind(exc)
            cause = type(exc.__cause__).__name__ if exc.__cause__ else "no response"
            message = f"connection to the batch endpoint failed ({cause}, {kind})"
            return BatchApiError(message), kind, None
        except openai.APIError as exc:
            raise BatchApiError(f"the batch endpoint failed: {type(exc).__name__}") from None

    def _status_failure(
        self, exc: openai.APIStatusError
    ) -> tuple[BatchApiError, str | None, float | None]:
        """A transient status (408, 429, 5xx) as an attempt's failure; any other is an
        answer (the breaker closes) and raised at once."""
        status = exc.status_code
        if status not in (408, 429) and status < 500:
            self._breaker.success()
            raise self._status_error(exc) from None
        error = self._status_error(exc)
        asked = retry_after_seconds(exc.response.headers, float("inf"))
        left = remaining()
        can_wait = MAX_RETRY_AFTER if left is None else min(MAX_RETRY_AFTER, left)
        if asked is not None and asked > can_wait:
            return (
                BatchApiError(
                    f"{error}; the endpoint asked to wait {asked:g} s (Retry-After), longer "
                    f"than the run can wait ({can_wait:.0f} s): not waited for, asked again by "
                    "the next run"
                ),
                "throttled",
                None,
            )
        return BatchApiError(str(error)), failure_kind(status, ""), asked

    def _backoff(self, attempt: int) -> float:
        ceiling = min(_BACKOFF_MOST, _BACKOFF_BASE * 2 ** (attempt - 1))
        return ceiling / 2 + self._random.uniform(0, ceiling / 2)

    def _status_error(self, exc: openai.APIStatusError) -> Exception:
        status = exc.status_code
        if status in (401, 403):
            # Never the server's text here: some servers echo part of a refused key.
            return JudgeEndpointError(
                f"the batch endpoint at {self.endpoint} refused the key (HTTP {status}); "
                "set a valid key with the Batch API's permissions"
            )
        body = exc.body
        detail = body.get("message") if isinstance(body, dict) else None
        message = scrub(detail if isinstance(detail, str) else str(exc.message or ""))
        message = f"HTTP {status} from the batch endpoint: {message[:300]}"
        if status == 404:
            return BatchNotFound(message)
        # 408, 429 and 5xx may come from a proxy after the server acted: not a refusal.
        refused = 400 <= status < 500 and status not in (408, 429)
        return BatchRefused(message) if refused else BatchApiError(message)
