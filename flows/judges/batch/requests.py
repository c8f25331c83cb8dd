"""The Batch API's file formats: JSONL request lines out, result lines in.

A request line carries exactly the body the live path posts (ChatEndpoint.request_body);
a result line carries the chat completion, or the error, of one request line. Formats as
OpenAI documents them; any server implementing its files and batches endpoints uses them.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

from faith_udfs.errors import ConfigError
from flows.judges.endpoint.request_details import token_count
from flows.judges.endpoint.transport import Reply

__all__ = [
    "BATCH_ENDPOINT",
    "BatchLimits",
    "LineResult",
    "batch_slices",
    "read_result_lines",
    "reply_of_completion",
    "request_line",
]

log = logging.getLogger(__name__)

# The route every request line names, and the `endpoint` of the batch.
BATCH_ENDPOINT: Final = "/v1/chat/completions"
# OpenAI's limits on one batch's input file: 50,000 requests and 200 MB (kept below).
MAX_REQUESTS = 50_000
MAX_BYTES = 190_000_000


@dataclass(frozen=True)
class BatchLimits:
    """What one batch may carry: `max_requests` request lines and `max_bytes` of input file
    (the server's limits, not the user's: tests lower them to cut a run into many batches)."""

    max_requests: int = MAX_REQUESTS
    max_bytes: int = MAX_BYTES

    def __post_init__(self) -> None:
        for name, value in (("max_requests", self.max_requests), ("max_bytes", self.max_bytes)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ConfigError(f"BatchLimits.{name} must be an integer >= 1, got {value!r}")


def request_line(custom_id: str, body: dict[str, Any]) -> bytes:
    """One JSONL line asking `body` of the chat-completions route."""
    line = {"custom_id": custom_id, "method": "POST", "url": BATCH_ENDPOINT, "body": body}
    return json.dumps(line, ensure_ascii=False).encode("utf-8", "surrogatepass") + b"\n"


def batch_slices(
    lines: list[bytes], *, max_requests: int = MAX_REQUESTS, max_bytes: int = MAX_BYTES
) -> Iterator[slice]:
    """Consecutive runs of `lines` each within one batch's limits."""
    start, size = 0, 0
    for index, line in enumerate(lines):
        if index > start and (index - start >= max_requests or size + len(line) > max_bytes):
            yield slice(start, index)
            start, size = index, 0
        size += len(line)
    if start < len(lines):
        yield slice(start, len(lines))


# A request line left unanswered for these reasons is asked again, as a live call would be
# retried: the window ran out, the batch was cancelled, or the server failed for the moment.
_UNFINISHED_CODES = frozenset({"batch_expired", "batch_cancelled"})
_TRANSIENT_STATUS = frozenset({408, 409, 429})


@dataclass(frozen=True)
class LineResult:
    """What the batch gave one request line: a chat completion, or why there is none, and
    whether that is worth asking again (`retry`) rather than an error of its cases."""

    completion: dict[str, Any] | None = None
    error: str | None = None
    retry: bool = False


def read_result_lines(data: bytes) -> dict[str, LineResult]:
    """The results of an output or error file, by custom_id. A line that is not JSON, or
    names no request, is logged and skipped: its items are asked again. A custom_id given
    twice keeps its first answer: a later error line for it (a server's retry that failed)
    would throw away an answer already paid for."""
    results: dict[str, LineResult] = {}
    for number, raw in enumerate(data.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            line = json.loads(raw)
        except (ValueError, RecursionError):  # RecursionError: nested past Python's depth
            log.warning("batch result line %d is not JSON; its request is asked again", number)
            continue
        custom_id = line.get("custom_id") if isinstance(line, dict) else None
        if not isinstance(custom_id, str):
            log.warning("batch result line %d names no request; skipped", number)
            continue
        result = _line_result(line)
        first = results.get(custom_id)
        if first is not None and first.completion is not None:
            log.warning(
                "batch result line %d answers %r again; its first answer is kept",
                number,
                custom_id[:80],
            )
            continue
        results[custom_id] = result
    return results


def _line_result(line: dict[str, Any]) -> LineResult:
    response = line.get("response")
    response = response if isinstance(response, dict) else {}
    status = response.get("status_code")
    body = response.get("body")
    error = line.get("error")
    if status == 200 and isinstance(body, dict) and not error:
        return LineResult(completion=body)
    code = error.get("code") if isinstance(error, dict) else None
    transient = isinstance(status, int) and (status in _TRANSIENT_STATUS or status >= 500)
    return LineResult(
        error=_line_error(error, status, body),
        retry=transient or code in _UNFINISHED_CODES or status is None,
    )


def _line_error(error: Any, status: Any, body: Any) -> str:
    """One line saying why a request of the batch has no answer."""
    detail = body.get("error") if isinstance(body, dict) else None
    for source in (detail, error):
        if isinstance(source, dict):
            message = str(source.get("message") or source.get("code") or "").strip()
            if message:
                break
    else:
        message = "no answer"
    message = message if len(message) <= 300 else message[:299] + "…"
    if isinstance(status, int):
        return f"the batch answered HTTP {status} for this request: {message}"
    return f"the batch did not answer this request: {message}"


def reply_of_completion(completion: dict[str, Any], prompt_estimate: int) -> Reply | None:
    """The text, finish reason and usage of a chat completion from a result line; None when
    the body is no chat completion. Usage a server leaves out is estimated (4 characters a
    token; `prompt_estimate` for the prompt), as the live path does."""
    choices = completion.get("choices")
    choice = choices[0] if isinstance(choices, list) and choices else None
    message = choice.get("message") if isinstance(choice, dict) else None
    if not isinstance(message, dict):
        return None
    content = message.get("content")
    text = content if isinstance(content, str) else ""
    finish = choice.get("finish_reason") if isinstance(choice, dict) else None
    usage = completion.get("usage")
    usage = usage if isinstance(usage, dict) else {}
    return Reply(
        text=text,
        finish_reason=finish if isinstance(finish, str) else None,
        prompt_tokens=token_count(usage.get("prompt_tokens"), prompt_estimate),
        completion_tokens=token_count(usage.get("completion_tokens"), len(text) // 4),
    )
