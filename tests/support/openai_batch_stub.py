"""A real OpenAI-style Batch API server on 127.0.0.1 for `--judge-mode batch` tests.

It implements the files endpoints (upload with purpose `batch`, content) and the batches
endpoints (create, retrieve, cancel), plus chat completions (so a live run and a batch run can
be compared on one server). Request lines are answered with the pretend judge of
tests/support/openai_stub.py (4 characters a token). Each new batch takes the next outcome
queued with `then(...)` (default `complete`):

- `complete`: finished when first asked for its state;
- `hold`: `in_progress` until `release()`, then complete;
- `fail`: `failed` (a validation error), no output;
- `expire`: `expired`, the first half of its lines answered, the rest in the error file;
- `partial`: `completed`, every other line failed in the error file (HTTP 400, then 500);
- `garbled`: `completed`, the first line's reply is not JSON;
- `echo`: `completed`, every line failed with a 400 whose error echoes every header and the
  body of the create request (tests/support/echo.py), Authorization first;
- `mislabel`: `completed`, every line answered under a custom_id it was not asked by.

It counts what a provider would bill (answered lines and their tokens) and every request.
`lose_create_answers(n)` makes the next n creates start their batch but answer 502 (an answer
lost on the way); `on_create`, when set, is called after a batch is created and before the
answer is sent (a test kills the asking process there). `GET /v1/batches` lists them, newest
first, in pages (`limit`, `after`), as OpenAI does. `fail_all(status, retry_after=…, times=…)`
answers every request (or the next `times`) with that status, Retry-After if given, and notes
when each came (`failed_at`), until `heal()`. Routes named in `endless` (`batch_status`,
`file_content`) answer 200 with a body that never ends (no Content-Length), until the client
hangs up; `endless_sent` counts the bytes written. `state_refused` (a status) answers every
batch's state with that HTTP status. `file_id`, when set, is the id every upload is answered
(a server reusing file ids).
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator
from email.parser import BytesParser
from email.policy import default as email_policy
from http.server import BaseHTTPRequestHandler
from typing import Any

from tests.support.echo import echo_text
from tests.support.loopback import LoopbackServer
from tests.support.openai_stub import _Server, answer_prompt

# The key the batch-mode tests' stub takes (tests/flows/judges/conftest.py).
BATCH_KEY = "sk-batch-3f0a9c2e7d1b4c6a8e5f"
OUTCOMES = ("complete", "hold", "fail", "expire", "partial", "garbled", "echo", "mislabel")
_FILE_CONTENT = re.compile(r"^/v1/files/([\w-]+)/content$")
_BATCH = re.compile(r"^/v1/batches/([\w-]+)(/cancel)?$")
_ENDLESS_MOST = 1 << 30  # what an endless answer writes at most (a client that never hangs up)


class BatchStub(LoopbackServer):
    """The server, its files and batches, counters and outcome queue; a context manager."""

    def __init__(self, *, api_key: str | None = None) -> None:
        self.api_key = api_key
        self.lock = threading.Lock()
        self.files: dict[str, bytes] = {}
        self.batches: dict[str, dict[str, Any]] = {}
        self.outcomes: deque[str] = deque()
        self.held: dict[str, str] = {}  # batch id -> outcome once released
        self.requests: Counter[str] = Counter()  # by route
        self.lines_submitted = 0
        self.lines_billed = 0  # answered lines: what a provider charges for
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self.bodies: list[dict[str, Any]] = []  # every request line's body, and every chat body
        self.errors: list[str] = []
        self.lost_create_answers = 0  # creates still to answer 502 after creating
        self.on_create: Callable[[], None] | None = None
        # Every request answered with this status and Retry-After, `times` more (None: all).
        self.failing: tuple[int, float | None, int | None] | None = None
        self.failed_at: list[float] = []  # monotonic times of the requests failed so
        self.unreadable: set[str] = set()  # file ids whose content is answered 400, always
        self.unknown_at_first = 0  # a batch created answers 404 to its first this many GETs
        self.endless: set[str] = set()  # routes answered with a body that never ends
        self.state_refused: int | None = None  # every batch state answered with this status
        self.endless_sent = 0
        self.file_id: str | None = None  # every upload answered this id (a server reusing ids)
        self._ids = 0
        self._listen(_Handler, _Server, stub=self)

    def then(self, *outcomes: str) -> None:
        """The next batches created get these outcomes, in order."""
        for outcome in outcomes:
            if outcome not in OUTCOMES:
                raise ValueError(f"unknown outcome {outcome!r}; expected one of {OUTCOMES}")
        with self.lock:
            self.outcomes.extend(outcomes)

    def release(self) -> None:
        """Held batches finish (complete) when next asked for."""
        with self.lock:
            for batch in self.batches.values():
                if batch["_outcome"] == "hold":
                    batch["_outcome"] = "complete"

    def fail_all(
        self, status: int, *, retry_after: float | None = None, times: int | None = None
    ) -> None:
        """Every request from now on (or the next `times`) is answered `status`, with a
        Retry-After header when given: a server down, overloaded or throttling."""
        with self.lock:
            self.failing = (status, retry_after, times)

    def heal(self) -> None:
        with self.lock:
            self.failing = None

    def _failure(self) -> tuple[int, float | None] | None:
        """The status (and Retry-After) this request is failed with, if the stub is failing."""
        with self.lock:
            if self.failing is None:
                return None
            status, retry_after, times = self.failing
            if times is not None:
                self.failing = (status, retry_after, times - 1) if times > 1 else None
            self.failed_at.append(time.monotonic())
            self.requests["failed"] += 1
            return status, retry_after

    def lose_create_answers(self, count: int = 1) -> None:
        """The next `count` creates start their batch, then answer 502 (the answer is lost)."""
        with self.lock:
            self.lost_create_answers += count

    def files_text(self, batch_id: str) -> str:
        """The request lines of a batch, as uploaded."""
        with self.lock:
            return self.files[self.batches[batch_id]["input_file_id"]].decode()

    def states(self) -> Counter[str]:
        with self.lock:
            return Counter(batch["status"] for batch in self.batches.values())

    # --- the endpoints' work --------------------------------------------------------------

    def _new_id(self, prefix: str) -> str:
        self._ids += 1
        return f"{prefix}-stub{self._ids:04d}"

    def upload(self, data: bytes) -> dict[str, Any]:
        with self.lock:
            file_id = self.file_id or self._new_id("file")
            self.files[file_id] = data
        return {
            "id": file_id,
            "object": "file",
            "bytes": len(data),
            "purpose": "batch",
            "created_at": int(time.time()),
            "filename": "batch.jsonl",
        }

    def create(self, request: dict[str, Any], echo: str = "") -> tuple[int, dict[str, Any]]:
        with self.lock:
            data = self.files.get(request.get("input_file_id", ""))
            if data is None:
                return 400, {"error": {"message": "no such input file"}}
            if (
                request.get("endpoint") != "/v1/chat/completions"
                or request.get("completion_window") != "24h"
            ):
                return 400, {"error": {"message": "unsupported endpoint or window"}}
            lines = [json.loads(line) for line in data.splitlines() if line.strip()]
            for line in lines:
                if line.get("method") != "POST" or line.get("url") != "/v1/chat/completions":
                    return 400, {"error": {"message": f"bad request line {line!r}"[:200]}}
                self.bodies.append(line["body"])
            self.lines_submitted += len(lines)
            batch_id = self._new_id("batch")
            self.batches[batch_id] = {
                "id": batch_id,
                "object": "batch",
                "endpoint": request["endpoint"],
                "input_file_id": request["input_file_id"],
                "completion_window": "24h",
                "status": "validating",
                "output_file_id": None,
                "error_file_id": None,
                "errors": None,
                "created_at": int(time.time()),
                "request_counts": {"total": len(lines), "completed": 0, "failed": 0},
                "metadata": request.get("metadata"),
                "_outcome": self.outcomes.popleft() if self.outcomes else "complete",
                "_lines": lines,
                "_echo": echo,
                "_unknown": self.unknown_at_first,
            }
            return 200, _visible(self.batches[batch_id])

    def listing(self, query: str) -> tuple[int, dict[str, Any]]:
        """A page of batches, newest first, after the batch `after` (OpenAI's cursor)."""
        params = dict(part.split("=", 1) for part in query.split("&") if "=" in part)
        limit = int(params.get("limit", 20))
        with self.lock:
            newest_first = sorted(self.batches, reverse=True)
            after = params.get("after")
            start = newest_first.index(after) + 1 if after in newest_first else 0
            page = [_visible(self.batches[b]) for b in newest_first[start : start + limit]]
            return 200, {
                "object": "list",
                "data": page,
                "first_id": page[0]["id"] if page else None,
                "last_id": page[-1]["id"] if page else None,
                "has_more": start + limit < len(newest_first),
            }

    def retrieve(self, batch_id: str, *, cancel: bool = False) -> tuple[int, dict[str, Any]]:
        """A batch's state (advanced by its outcome), or cancelled first with `cancel`."""
        with self.lock:
            batch = self.batches.get(batch_id)
            if batch is not None and batch["_unknown"] > 0 and not cancel:
                batch["_unknown"] -= 1  # a server that does not know it yet
                batch = None
            if batch is None:
                return 404, {"error": {"message": f"No batch found with id '{batch_id}'"}}
            if cancel:
                batch["status"] = "cancelled"
            elif batch["status"] in ("validating", "in_progress"):
                self._advance(batch)
            return 200, _visible(batch)

    def _advance(self, batch: dict[str, Any]) -> None:
        """Apply the batch's outcome (under the lock)."""
        outcome = batch["_outcome"]
        if outcome == "hold":
            batch["status"] = "in_progress"
            return
        if outcome == "fail":
            batch["status"] = "failed"
            batch["errors"] = {
                "object": "list",
                "data": [
                    {"code": "invalid_request", "message": "stub: this batch failed validation"}
                ],
            }
            return
        lines = batch["_lines"]
        output, failed = [], []
        for number, line in enumerate(lines):
            if outcome == "expire" and number >= len(lines) // 2:
                failed.append(
                    {
                        "id": f"req-{number}",
                        "custom_id": line["custom_id"],
                        "response": None,
                        "error": {"code": "batch_expired", "message": "expired"},
                    }
                )
            elif outcome == "echo":
                failed.append(
                    {
                        "id": f"req-{number}",
                        "custom_id": line["custom_id"],
                        "response": {
                            "status_code": 400,
                            "body": {"error": {"message": batch["_echo"]}},
                        },
                        "error": None,
                    }
                )
            elif outcome == "partial" and number % 2 == 1:
                failed.append(
                    {
                        "id": f"req-{number}",
                        "custom_id": line["custom_id"],
                        "response": {
                            "status_code": 400 if number % 4 == 1 else 500,
                            "body": {"error": {"message": "stub: request refused"}},
                        },
                        "error": None,
                    }
                )
            else:
                garble = outcome == "garbled" and number == 0
                label = f"{line['custom_id']}-x" if outcome == "mislabel" else line["custom_id"]
                output.append(
                    {
                        "id": f"req-{number}",
                        "custom_id": label,
                        "response": {
                            "status_code": 200,
                            "body": self._completion(line["body"], garble),
                        },
                        "error": None,
                    }
                )
        batch["status"] = "expired" if outcome == "expire" else "completed"
        batch["request_counts"] = {
            "total": len(lines),
            "completed": len(output),
            "failed": len(failed),
        }
        if output:
            batch["output_file_id"] = self._store_lines(output)
        if failed:
            batch["error_file_id"] = self._store_lines(failed)

    def _store_lines(self, lines: list[dict[str, Any]]) -> str:
        file_id = self._new_id("file")
        self.files[file_id] = b"".join(json.dumps(line).encode() + b"\n" for line in lines)
        return file_id

    def _completion(self, body: dict[str, Any], garble: bool = False) -> dict[str, Any]:
        """A chat completion of the pretend judge, billed (under the lock)."""
        prompt = body["messages"][0]["content"]
        content = "{'items': [oops" if garble else json.dumps(answer_prompt(prompt))
        prompt_tokens = sum(len(m.get("content") or "") for m in body["messages"]) // 4
        completion_tokens = len(content) // 4
        self.lines_billed += 1
        self.prompt_tokens += prompt_tokens
        self.completion_tokens += completion_tokens
        return {
            "id": f"chatcmpl-{self.lines_billed}",
            "object": "chat.completion",
            "model": body.get("model"),
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {"role": "assistant", "content": content},
                }
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }

    def chat(self, body: dict[str, Any]) -> dict[str, Any]:
        with self.lock:
            self.bodies.append(body)
            return self._completion(body)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    server: _Server  # its `stub` is the BatchStub

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the tests read counters."""

    def _authorised(self) -> bool:
        failure = self.server.stub._failure()
        if failure is not None:
            status, retry_after = failure
            headers = {} if retry_after is None else {"Retry-After": f"{retry_after:g}"}
            payload = {"error": {"message": f"stub: failing with {status}"}}
            self._send_bytes(status, json.dumps(payload).encode(), "application/json", headers)
            return False
        key = self.server.stub.api_key
        presented = self.headers.get("Authorization", "").removeprefix("Bearer ")
        if key is not None and presented != key:
            self._send(401, {"error": {"message": "Incorrect API key provided"}})
            return False
        return True

    def do_GET(self) -> None:
        stub = self.server.stub
        path = self.path.split("?")[0]
        if not self._authorised():
            return
        if match := _FILE_CONTENT.match(path):
            stub.requests["file_content"] += 1
            if "file_content" in stub.endless:
                self._send_endless()
                return
            data = stub.files.get(match.group(1))
            if match.group(1) in stub.unreadable:
                self._send(400, {"error": {"message": "the file cannot be downloaded"}})
            elif data is None:
                self._send(404, {"error": {"message": "no such file"}})
            else:
                self._send_bytes(200, data, "application/octet-stream")
            return
        if path == "/v1/batches":
            stub.requests["batch_list"] += 1
            self._send(*stub.listing(self.path.partition("?")[2]))
            return
        if (match := _BATCH.match(path)) and not match.group(2):
            stub.requests["batch_status"] += 1
            if "batch_status" in stub.endless:
                self._send_endless()
                return
            if stub.state_refused is not None:
                self._send(stub.state_refused, {"error": {"message": "stub: invalid batch id"}})
                return
            self._send(*stub.retrieve(match.group(1)))
            return
        self._send(404, {"error": {"message": f"no route GET {path}"}})

    def do_POST(self) -> None:
        stub = self.server.stub
        path = self.path.split("?")[0]
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if not self._authorised():
            return
        if path == "/v1/files":
            stub.requests["upload"] += 1
            fields = _multipart(self.headers.get("Content-Type", ""), body)
            if fields.get("purpose") != b"batch" or "file" not in fields:
                self._send(400, {"error": {"message": "purpose must be batch, with a file"}})
                return
            self._send(200, stub.upload(fields["file"]))
            return
        if path == "/v1/batches":
            stub.requests["batch_create"] += 1
            echo = echo_text(self.headers, body, path=self.path)
            status, answer = stub.create(json.loads(body), echo=echo)
            if stub.on_create is not None and status == 200:
                stub.on_create()
            with stub.lock:
                lose, stub.lost_create_answers = (
                    stub.lost_create_answers > 0,
                    max(stub.lost_create_answers - 1, 0),
                )
            if lose:
                self._send(502, {"error": {"message": "stub: bad gateway"}})
            else:
                self._send(status, answer)
            return
        if (match := _BATCH.match(path)) and match.group(2):
            stub.requests["batch_cancel"] += 1
            self._send(*stub.retrieve(match.group(1), cancel=True))
            return
        if path == "/v1/chat/completions":
            stub.requests["chat"] += 1
            self._send(200, stub.chat(json.loads(body)))
            return
        self._send(404, {"error": {"message": f"no route POST {path}"}})

    def _send_endless(self) -> None:
        """200, then blanks until the client hangs up (a JSON body that never ends)."""
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.close_connection = True
        chunk, stub = b" " * 65536, self.server.stub
        with contextlib.suppress(OSError):
            while stub.endless_sent < _ENDLESS_MOST:  # the stub's own bound, should all else fail
                self.wfile.write(chunk)
                with stub.lock:
                    stub.endless_sent += len(chunk)

    def _send(self, status: int, payload: Any) -> None:
        self._send_bytes(status, json.dumps(payload).encode(), "application/json")

    def _send_bytes(
        self, status: int, body: bytes, content_type: str, headers: dict[str, str] | None = None
    ) -> None:
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@contextlib.contextmanager
def serving_batches(**options: Any) -> Iterator[BatchStub]:
    """A running Batch API stub for one test; when it ends, no handler of it may have failed."""
    with BatchStub(**options) as server:
        yield server
    assert server.errors == [], f"the stub itself failed: {server.errors}"


def _visible(batch: dict[str, Any]) -> dict[str, Any]:
    """A batch as the server shows it (without the stub's own fields)."""
    return {key: value for key, value in batch.items() if not key.startswith("_")}


def _multipart(content_type: str, body: bytes) -> dict[str, bytes]:
    """The fields of a multipart/form-data body, by name."""
    message = BytesParser(policy=email_policy).parsebytes(
        f"Content-Type: {content_type}\r\n\r\n".encode() + body
    )
    fields = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        fields[str(name)] = part.get_payload(decode=True) or b""
    return fields
