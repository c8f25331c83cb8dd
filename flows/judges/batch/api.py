"""An OpenAI-style Batch API (files and batches endpoints), asked with deadlines.

Upload a JSONL file (`POST /files`, purpose `batch`), submit it (`POST /batches`, window
24 h; never retried: a create is not idempotent and a second one is billed again), find the
batch of a file (`GET /batches`, paged), ask a batch's state (`GET /batches/{id}`), read a
result file (`GET /files/{id}/content`), cancel (`POST /batches/{id}/cancel`). Every request
runs on one asyncio loop under a deadline that cancels it wherever it is, and `stop()` cancels
them all, as the chat endpoint's (endpoint/transport.py). The key stays inside the client;
credentials in the URL are sent as Basic auth and kept out of the URL
(request_details.without_userinfo).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

import openai

from faith_udfs.errors import ConfigError, JudgeTransientError
from flows.errors import JudgeEndpointError
from flows.judges.batch.requests import BATCH_ENDPOINT
from flows.judges.endpoint.event_loop import LoopThread
from flows.judges.endpoint.request_details import endpoint_name, split_userinfo, without_userinfo
from flows.scrub import register_endpoint_secrets, scrub, scrub_bytes

__all__ = [
    "FINISHED",
    "SUBMISSION_TAG",
    "BatchApi",
    "BatchApiError",
    "BatchNotFound",
    "BatchRefused",
    "BatchStatus",
]

# Batch states after which nothing more will come (OpenAI's names).
FINISHED = frozenset({"completed", "failed", "expired", "cancelled"})
COMPLETION_WINDOW: Final = "24h"
# A request's own deadline cancels it; the caller's wait for it gives this much more.
_GRACE_SECONDS = 2.0
# The metadata key a batch is tagged with: the input file it was created from.
SUBMISSION_TAG = "faithpipe_input_file"
# Finding a file's batch reads the newest batches, 100 a page, back to an hour before the
# file was recorded (clocks differ), at most this many pages: no listing without an end.
_PAGE, _MOST_PAGES, _CLOCK_MARGIN_SECONDS = 100, 20, 3600.0


class BatchApiError(JudgeTransientError):
    """A files or batches request failed (5xx, 429 after the client's retries, a deadline,
    a reset, an answer that is not JSON): nothing is lost, the next run asks again."""


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
            error=_batch_errors(data.get("errors")),
        )


def _batch_errors(errors: Any) -> str | None:
    """The batch's own errors (why it failed validation), as one line."""
    found = errors.get("data") if isinstance(errors, dict) else None
    if not isinstance(found, list) or not found:
        return None
    messages = [str(e.get("message") or e.get("code")) for e in found if isinstance(e, dict)]
    line = "; ".join(messages[:3]) + (
        f" (and {len(messages) - 3} more)" if len(messages) > 3 else ""
    )
    return line[:500]


def _made_from(batch: Any, input_file_id: str) -> bool:
    """Whether a listed batch was created from this input file."""
    if not isinstance(batch, dict):
        return False
    metadata = batch.get("metadata")
    tagged = isinstance(metadata, dict) and metadata.get(SUBMISSION_TAG) == input_file_id
    return tagged or batch.get("input_file_id") == input_file_id


def _failure(exc: BaseException, deadline: float) -> str:
    """Why a request got no answer, in one line (never the server's text: no key echoed)."""
    if isinstance(exc, (TimeoutError, openai.APITimeoutError)):
        return f"the batch endpoint did not answer within {deadline:g} s"
    if isinstance(exc, concurrent.futures.CancelledError):
        return "the judge was stopped during a batch request"
    if isinstance(exc, openai.APIConnectionError):
        cause = type(exc.__cause__).__name__ if exc.__cause__ else "no response"
        return f"connection to the batch endpoint failed ({cause})"
    return f"the batch endpoint failed: {type(exc).__name__}"


class BatchApi:
    """The files and batches endpoints of one server, each request under a deadline.

    `timeout` bounds a small request (submit, state, cancel); `transfer_timeout` an upload or
    a download of a whole file. Transient failures are retried by the openai client (twice,
    with backoff), within those deadlines; a create never is (a lost answer may hide a batch
    the server started: find it with `find`).
    """

    def __init__(
        self,
        *,
        base_url: str | None,
        api_key_env: str,
        timeout: float,
        transfer_timeout: float | None = None,
    ) -> None:
        api_key = os.environ.get(api_key_env)
        if not api_key:
            raise ConfigError(
                f"the Batch API key is read from the environment variable {api_key_env}, which "
                f"is not set; export {api_key_env}=<key> or name another with --api-key-env"
            )
        self.endpoint = endpoint_name(split_userinfo(base_url)[0] if base_url else None)
        self._timeout = float(timeout)
        self._transfer_timeout = float(transfer_timeout or max(10 * timeout, 120.0))
        public_url, basic_auth = without_userinfo(base_url)
        register_endpoint_secrets(api_key, base_url)  # cut out of every answer (flows/scrub.py)
        self._client = openai.AsyncOpenAI(
            base_url=public_url,
            api_key=api_key,
            max_retries=2,
            timeout=self._transfer_timeout,
            default_headers={"Authorization": basic_auth} if basic_auth else None,
        )
        # POST /batches is not idempotent: retrying it after a lost answer bills twice.
        self._once = self._client.with_options(max_retries=0)
        self._loop = LoopThread("faith-batch-http")

    def __repr__(self) -> str:
        return f"BatchApi(endpoint={self.endpoint!r})"

    def upload(self, data: bytes, filename: str) -> str:
        """Upload a JSONL file of requests; returns its file id."""
        answer = self._call(
            lambda: self._client.files.with_raw_response.create(
                file=(filename, data, "application/jsonl"), purpose="batch"
            ),
            self._transfer_timeout,
        )
        file_id = json.loads(answer).get("id") if answer else None
        if not isinstance(file_id, str):
            raise BatchApiError("the files endpoint answered no file id")
        return file_id

    def submit(self, input_file_id: str) -> BatchStatus:
        """Start a batch of the uploaded file's requests, to finish within 24 h, tagged with the
        file (SUBMISSION_TAG). Asked once: any error but a refusal leaves it unknown whether
        the batch exists."""
        return BatchStatus.of(
            self._json(
                lambda: self._once.batches.with_raw_response.create(
                    input_file_id=input_file_id,
                    endpoint=BATCH_ENDPOINT,
                    completion_window=COMPLETION_WINDOW,
                    metadata={SUBMISSION_TAG: input_file_id},
                )
            )
        )

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
                if _made_from(batch, input_file_id):
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

    def content(self, file_id: str) -> bytes:
        """A whole file's bytes (a batch's output or error file)."""
        return self._call(
            lambda: self._client.files.with_raw_response.content(file_id), self._transfer_timeout
        )

    def stop(self) -> None:
        """Cancel every request in flight."""
        self._loop.cancel_all()

    def close(self) -> None:
        """Cancel, then close the HTTP connections and the loop's thread."""
        self.stop()
        self._loop.close(self._client.close(), _GRACE_SECONDS)

    def _json(self, request: Callable[[], Awaitable[Any]]) -> Any:
        body = self._call(request, self._timeout)
        try:
            return json.loads(body)
        except ValueError:
            raise BatchApiError(f"the batches endpoint answered no JSON: {body[:120]!r}") from None

    def _call(self, request: Callable[[], Awaitable[Any]], deadline: float) -> bytes:
        """The body of one request's answer, read within `deadline` seconds, scrubbed of
        whatever the server echoed of our credentials (answers, result files)."""

        async def run() -> bytes:
            async with asyncio.timeout(deadline):
                raw = await request()
                return await raw.http_response.aread()

        try:
            return scrub_bytes(self._loop.run(run(), deadline + _GRACE_SECONDS))
        except openai.APIStatusError as exc:
            raise self._status_error(exc) from None
        except (TimeoutError, concurrent.futures.CancelledError, openai.APIError) as exc:
            raise BatchApiError(_failure(exc, deadline)) from None

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
