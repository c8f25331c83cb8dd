"""A real OpenAI-compatible chat-completions server on 127.0.0.1 for the LLM judge's tests.

It answers faithpipe's rendered prompts (one-item and packed) with the seed's pretend judge
(tests/support/seed_judge.py), reports `usage` (4 characters a token), counts every request,
and fails on demand: 429 with Retry-After, 500, too slow, malformed or truncated JSON, fewer
verdicts than claims, 400/401/404, a reset connection, at random for a seeded fraction of
requests, or by refusing `response_format` kinds. It also misbehaves as broken servers and
proxies do: hangs without a byte, trickles its reply a byte at a time, answers 200 with an
HTML page, an empty body or JSON that is no chat completion, or numbers verdicts from 0.
Switched on with `behave(...)`, it acts as the self-hosted servers of issue 16 do (BEHAVIOURS).
`python tests/support/openai_stub.py` serves it for benchmarks.
"""

from __future__ import annotations

import ast
import contextlib
import json
import math
import random
import re
import socket
import struct
import sys
import threading
import time
from collections import Counter, deque
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import itertools

from faith_udfs.packed_prompts import (
    ONE_ITEM_SCHEMA,
    PACKED_CLAIMS,
    PACKED_REASONS,
    PACKED_SCHEMAS,
    PACKED_TRUTHS,
    PACKED_VERDICTS,
    packed_size,
)
from faith_udfs.prompts import (
    SCHEMAS,
    VERDICTS,
    claims_prompt,
    reason_prompt,
    schema_of,
    section,
    truths_prompt,
    verdicts_prompt,
)
from tests.support.echo import echo_text
from tests.support.seed_judge import pretend_judge

# "quota": OpenAI's 429 once an account's credit is spent (_QUOTA), which no retry ends.
STATUS_FAULTS = ("429", "500", "400", "401", "404", "408", "409", "quota")
REPLY_FAULTS = ("malformed", "truncated", "fewer_verdicts", "zero_based")
# 200 answers that are no chat completion, as a proxy or a broken server sends them.
NOT_COMPLETIONS = {
    "html": ("text/html", b"<html><body><h1>502 Bad Gateway</h1></body></html>"),
    "empty": ("application/json", b""),
    "wrong_shape": ("application/json", b'{"object": "error", "message": "overloaded"}'),
}
# Echoing servers: everything received (tests/support/echo.py) in a 500's error, a 200's error
# object, an HTML page, or as the reply's content (an unusable reply).
ECHOES = ("echo_500", "echo_200", "echo_html", "echo_reply")
FAULTS = (
    *STATUS_FAULTS,
    *REPLY_FAULTS,
    *NOT_COMPLETIONS,
    *ECHOES,
    "slow",
    "reset",
    "hang",
    "trickle",
    "huge",
)
# llama.cpp's server while it loads its model (`StubServer.load`): every request, 503.
LOADING = {"error": {"code": 503, "message": "Loading model", "type": "unavailable_error"}}
# A text the stop tests' answers hold where the stub is to hang (`StubServer.hang_on`).
HANG = "Parcel Z9"

# What "20% of calls fail at random" draws from: everything a healthy endpoint does now and then.
RANDOM_FAULTS = ("429", "500", "slow", "malformed", "truncated", "fewer_verdicts", "reset")
# Servers as they were met (issue 16), each switched on with `StubServer.behave(kind)`:
BEHAVIOURS = {
    # llama-cpp-python 0.3.x: json_schema answered 500 with pydantic's validation error.
    "schema_500": "json_schema refused with HTTP 500 and a literal_error body",
    # Servers without structured output: any response_format is a 400.
    "format_400": "any response_format refused with HTTP 400",
    # Gemma's chat template: two user turns in a row (or a system turn) raise, as a 500.
    "alternating": "two user turns in a row, or a system turn, refused with HTTP 500",
    # No max_tokens: the model loops on repeated keys until its context is full.
    "runaway": "without max_tokens, runs to finish_reason length",
    # A small model copies the prompt's format example.
    "example": "answers with the prompt's own format example",
    # JSON wrapped in a ```json fence after a line of chatter, whatever was asked.
    "fences": "every reply in a ```json fence",
    # No `usage` in the completion.
    "no_usage": "omits usage",
    # OpenRouter-like: json_schema refused by a 200 whose body is an error object.
    "error_200": "json_schema refused with HTTP 200 and an error body",
    # OpenAI's reasoning models: temperature 0 refused with a 400 that names the field.
    "temperature_400": "temperature 0 refused with HTTP 400 naming the field",
    # OpenAI's reasoning models: max_tokens refused, max_completion_tokens wanted.
    "completion_tokens": "max_tokens refused with HTTP 400; max_completion_tokens taken",
    # The message's content as a list of text parts.
    "content_parts": "content as [{type: text, text: ...}]",
}
_SCHEMA_500 = {
    "error": {
        "message": "[{'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), "
        "'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema', "
        "'ctx': {'expected': \"'text' or 'json_object'\"}}]",
        "type": "internal_server_error",
    }
}
_QUOTA = {
    "error": {
        "message": "You exceeded your current quota, please check your plan and billing "
        "details. For more information on this error, read the docs: "
        "https://platform.openai.com/docs/guides/error-codes/api-errors.",
        "type": "insufficient_quota",
        "param": None,
        "code": "insufficient_quota",
    }
}
# Azure OpenAI's answer to a prompt its content filter flags: a 400 naming no field.
_CONTENT_FILTER = {
    "error": {
        "code": "content_filter",
        "status": 400,
        "param": "prompt",
        "message": "The response was filtered due to the prompt triggering Azure OpenAI's "
        "content management policy.",
    }
}
# What a context "full" of looping keys looks like, in characters (n_ctx 8192 at ~4 a token).
_RUNAWAY_CHARS = 4 * 8192
_EXAMPLE = re.compile(r"Answer with JSON only[^{]*(\{.*\})\n", re.DOTALL)
_VERDICT_SCHEMAS = (VERDICTS, PACKED_VERDICTS)
# One prompt answered at a time: CPython 3.11.7's ast.literal_eval (which reads the prompts'
# claim lists) fails with "AST constructor recursion depth mismatch" in concurrent threads.
_ANSWERING = threading.Lock()
_VERDICT_FAULTS = ("fewer_verdicts", "zero_based")


@dataclass
class _Fault:
    kind: str
    remaining: int | None  # None: every matching request
    schema: str | None


def answer_prompt(prompt: str) -> dict[str, Any]:
    """The pretend judge's reply to a one-item or packed prompt."""
    schema = schema_of(prompt)
    if schema in SCHEMAS:
        return pretend_judge(prompt, schema)
    if schema not in PACKED_SCHEMAS:
        raise ValueError(f"not a faithpipe prompt: {schema!r}")
    one_item = ONE_ITEM_SCHEMA[schema]
    entries = [
        {"item": number, **pretend_judge(item_prompt, one_item)}
        for number, item_prompt in enumerate(_unpacked(prompt, schema), start=1)
    ]
    for entry in entries:  # a packed verdict names its claim, as the template asks
        for claim, verdict in enumerate(entry.get("verdicts") or [], start=1):
            verdict.setdefault("claim", claim)
    return {"items": entries}


def _unpacked(prompt: str, schema: str) -> list[str]:
    """Each item of a packed prompt as the one-item prompt asking the same question."""
    if schema == PACKED_TRUTHS:
        n = packed_size(prompt, "Text")
        return [truths_prompt(section(prompt, f"Text {i}") or "", None) for i in range(1, n + 1)]
    if schema == PACKED_CLAIMS:
        n = packed_size(prompt, "AI Output")
        return [claims_prompt(section(prompt, f"AI Output {i}") or "") for i in range(1, n + 1)]
    if schema == PACKED_VERDICTS:
        n = packed_size(prompt, "Claims")
        return [
            verdicts_prompt(
                ast.literal_eval(section(prompt, f"Claims {i}") or "[]"),
                [section(prompt, f"Retrieval Contexts {i}") or ""],
            )
            for i in range(1, n + 1)
        ]
    if schema == PACKED_REASONS:
        n = packed_size(prompt, "Score")
        return [
            reason_prompt(
                float(section(prompt, f"Score {i}") or 0),
                ast.literal_eval(section(prompt, f"Contradictions {i}") or "[]"),
            )
            for i in range(1, n + 1)
        ]
    raise ValueError(schema)


class StubServer:
    """The server, its counters and its fault switches; a context manager that shuts it down."""

    def __init__(
        self,
        *,
        api_key: str | None = None,
        seed: int = 0,
        slow_seconds: float = 0.5,
        retry_after: float | None = 0.02,
        delay: float = 0.0,
        trickle_seconds: float = 2.0,
        huge_bytes: int = 9 * 1024 * 1024,
    ) -> None:
        self.api_key = api_key
        self.huge_bytes = huge_bytes  # the body of a `huge` reply
        self.huge_sent = 0  # bytes of huge replies actually written
        self.huge_declared = True  # a huge reply's Content-Length is sent (else: until close)
        self.hang_on: str | None = None  # a prompt holding this text hangs (fault `hang`)
        # A prompt holding this text is refused with a content filter's 400, in every format.
        self.filter_on: str | None = None
        self.slow_seconds = slow_seconds
        self.trickle_seconds = trickle_seconds  # between two bytes of a trickled reply
        self.retry_after = retry_after
        self.delay = delay
        self.reverse_items = False
        self.loading_until = 0.0  # time.monotonic() before which every request is LOADING
        self.loading_answers = 0
        self._loading_least = 0
        self.lock = threading.Lock()
        self.requests = 0
        self.by_schema: Counter[str] = Counter()
        self.faults_served: Counter[str] = Counter()
        self.request_times: list[float] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self.errors: list[str] = []
        self._queue: deque[_Fault] = deque()
        self._fraction = 0.0
        self._random_kinds: tuple[str, ...] = RANDOM_FAULTS
        self._random = random.Random(seed)
        self._rejected: set[str] = set()
        self.behaviours: set[str] = set()
        self.bodies: list[dict[str, Any]] = []  # every request's JSON body, in order
        self._connections: set[socket.socket] = set()
        self.closing = threading.Event()  # ends every hang and trickle
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.stub = self
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def port(self) -> int:
        return self._server.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> StubServer:
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop serving, cut open connections, and wait for every handler thread."""
        self.closing.set()
        self._server.shutdown()
        with self.lock:
            for connection in list(self._connections):
                with contextlib.suppress(OSError):
                    connection.shutdown(socket.SHUT_RDWR)
        self._server.server_close()
        self._thread.join()

    def __enter__(self) -> StubServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- switches ---------------------------------------------------------------------------

    def fail(self, kind: str, times: int | None = 1, *, schema: str | None = None) -> None:
        """The next `times` requests (of `schema`, if given) fail with `kind`; None: all."""
        if kind not in FAULTS:
            raise ValueError(f"unknown fault {kind!r}; expected one of {FAULTS}")
        with self.lock:
            self._queue.append(_Fault(kind, times, schema))

    def fail_randomly(self, fraction: float, kinds: tuple[str, ...] = RANDOM_FAULTS) -> None:
        """Each request fails with probability `fraction`, with a kind drawn from `kinds`."""
        with self.lock:
            self._fraction = fraction
            self._random_kinds = kinds

    def load(self, seconds: float, *, answers: int = 0) -> None:
        """Answer every request as llama.cpp's server does while it loads its model (503
        `Loading model`) for the next `seconds` (inf: for ever), and at least `answers` times
        (a count a test can rely on whatever the machine's load)."""
        with self.lock:
            self.loading_until = time.monotonic() + seconds
            self.loading_answers, self._loading_least = 0, answers

    def _loading(self) -> bool:
        with self.lock:
            loading = (
                time.monotonic() < self.loading_until or self.loading_answers < self._loading_least
            )
            self.loading_answers += loading
            return loading

    def reject_formats(self, *kinds: str) -> None:
        """Answer 400 to requests asking for these `response_format` types."""
        with self.lock:
            self._rejected = set(kinds)

    def behave(self, *kinds: str) -> None:
        """Act as the servers of BEHAVIOURS named by `kinds` (in addition to any faults)."""
        unknown = set(kinds) - set(BEHAVIOURS)
        if unknown:
            raise ValueError(f"unknown behaviour {sorted(unknown)}; expected {sorted(BEHAVIOURS)}")
        with self.lock:
            self.behaviours |= set(kinds)

    def heal(self) -> None:
        """No more faults, refusals or behaviours."""
        with self.lock:
            self._queue.clear()
            self._fraction = 0.0
            self._rejected = set()
            self.behaviours = set()
            self.filter_on = None

    def rewrite(
        self, request: dict[str, Any], prompt: str, reply: dict[str, Any]
    ) -> tuple[str, str] | None:
        """(content, finish_reason) to send instead of the honest `reply`; None: send it.
        A hook for servers that misbehave on purpose (tests/support/sloppy_stub.py)."""
        return None

    def reset_counts(self) -> None:
        with self.lock:
            self.requests = 0
            self.by_schema.clear()
            self.faults_served.clear()
            self.request_times.clear()
            self.bodies.clear()
            self.max_in_flight = 0

    # --- serving ----------------------------------------------------------------------------

    def _admit(self, schema: str, response_format: str) -> str | None:
        """Count the request; the fault it gets, if any."""
        with self.lock:
            self.requests += 1
            self.by_schema[schema] += 1
            self.request_times.append(time.monotonic())
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
            if response_format in self._rejected:
                self.faults_served["response_format"] += 1
                return "response_format"
            for fault in self._queue:
                if fault.schema is not None and fault.schema != schema:
                    continue
                if fault.kind in _VERDICT_FAULTS and schema not in _VERDICT_SCHEMAS:
                    continue
                if fault.remaining is not None:
                    fault.remaining -= 1
                    if fault.remaining == 0:
                        self._queue.remove(fault)
                self.faults_served[fault.kind] += 1
                return fault.kind
            if self._fraction and self._random.random() < self._fraction:
                kinds = [
                    kind
                    for kind in self._random_kinds
                    if kind != "fewer_verdicts" or schema in _VERDICT_SCHEMAS
                ]
                kind = self._random.choice(kinds)
                self.faults_served[kind] += 1
                return kind
            return None

    def _done(self) -> None:
        with self.lock:
            self.in_flight -= 1


@contextlib.contextmanager
def serving(**options: Any) -> Iterator[StubServer]:
    """A running stub for one test; when it ends, no handler of the stub may have failed."""
    with StubServer(**options) as server:
        yield server
    assert server.errors == [], f"the stub itself failed: {server.errors}"


class _Server(ThreadingHTTPServer):
    stub: StubServer
    daemon_threads = False
    block_on_close = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went away is normal; anything else is a stub bug, kept for the tests."""
        error = sys.exception()
        if isinstance(error, OSError):
            return
        with self.stub.lock:
            self.stub.errors.append(f"{type(error).__name__}: {error}")
        super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in one write; with Nagle on, each reply waited 40 ms for an ACK.
    disable_nagle_algorithm = True
    server: _Server

    def setup(self) -> None:
        super().setup()
        with self.server.stub.lock:
            self.server.stub._connections.add(self.connection)

    def finish(self) -> None:
        with contextlib.suppress(OSError):
            super().finish()
        with self.server.stub.lock:
            self.server.stub._connections.discard(self.connection)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the tests read counters, not access logs."""

    def handle_one_request(self) -> None:
        try:
            super().handle_one_request()
        except OSError:  # the client went away (reset, timeout, shut down by close())
            self.close_connection = True

    def do_POST(self) -> None:
        stub = self.server.stub
        expected = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(expected)
        if len(body) < expected:  # the client went away mid-request (a stopped judge): normal
            self.close_connection = True
            return
        self.received = body
        if self.path.rstrip("/") != "/v1/chat/completions":
            self._send(404, {"error": {"message": f"no route {self.path}"}})
            return
        if stub._loading():  # before anything else, as llama.cpp's server answers then
            self._send(503, LOADING)
            return
        request = json.loads(body)
        with stub.lock:
            stub.bodies.append(request)
        prompt = request["messages"][0]["content"]
        response_format = (request.get("response_format") or {}).get("type", "text")
        fault = stub._admit(schema_of(prompt), response_format)
        if stub.hang_on is not None and stub.hang_on in prompt:
            fault = "hang"
        try:
            refusal = _refusal(stub.behaviours, request, response_format)
            if refusal is not None:
                self._send(*refusal)
                return
            self._serve(stub, request, prompt, response_format, fault)
        finally:
            stub._done()

    def _serve(
        self,
        stub: StubServer,
        request: dict[str, Any],
        prompt: str,
        response_format: str,
        fault: str | None,
    ) -> None:
        presented = self.headers.get("Authorization", "").removeprefix("Bearer ")
        if fault == "401" or (stub.api_key is not None and presented != stub.api_key):
            # As harsh as a real server can be: the refused key is echoed back in full.
            self._send(401, {"error": {"message": f"Incorrect API key provided: {presented}"}})
            return
        if fault == "reset":
            # SO_LINGER 0: close() sends RST, the client sees a reset connection.
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.close_connection = True
            return
        if stub.filter_on is not None and stub.filter_on in prompt:
            self._send(400, _CONTENT_FILTER)
            return
        if fault == "response_format":
            message = f"response_format type {response_format!r} is not supported"
            self._send(400, {"error": {"message": message, "param": "response_format"}})
            return
        if fault == "429":
            headers = {}
            if stub.retry_after is not None:
                headers["Retry-After"] = str(math.ceil(stub.retry_after))
                headers["retry-after-ms"] = str(int(stub.retry_after * 1000))
            self._send(429, {"error": {"message": "Rate limit reached"}}, headers)
            return
        if fault == "quota":
            self._send(429, _QUOTA)
            return
        if fault in ("500", "400", "404", "408", "409"):
            self._send(int(fault), {"error": {"message": f"stub fault {fault}"}})
            return
        if fault in ECHOES or fault == "huge":
            self._misbehave(stub, request, fault)
            return
        if fault == "hang":  # not a byte, until the client gives up or the server closes
            stub.closing.wait()
            self.close_connection = True
            return
        if fault in NOT_COMPLETIONS:
            content_type, body = NOT_COMPLETIONS[fault]
            self._send_bytes(200, body, content_type)
            return
        if fault == "slow":
            stub.closing.wait(stub.slow_seconds)  # a stub shutting down answers at once
        elif stub.delay:
            time.sleep(stub.delay)
        self._complete(stub, request, prompt, response_format, fault)

    def _complete(
        self,
        stub: StubServer,
        request: dict[str, Any],
        prompt: str,
        response_format: str,
        fault: str | None,
    ) -> None:
        behaviours = stub.behaviours
        with _ANSWERING:
            reply = _example_of(prompt) if "example" in behaviours else answer_prompt(prompt)
        if stub.reverse_items and "items" in reply:
            reply["items"].reverse()
        if fault == "fewer_verdicts":
            _drop_a_verdict(reply)
        elif fault == "zero_based":
            _number_from_zero(reply)
        override = stub.rewrite(request, prompt, reply)
        content, finish_reason = (json.dumps(reply), "stop") if override is None else override
        if fault == "malformed":
            content = "{'verdicts': [yes, no" if "verdicts" in reply else "{truths: oops"
        elif fault == "truncated":
            content, finish_reason = content[: max(1, len(content) // 2)], "length"
        if response_format == "text" or "fences" in behaviours:
            content = f"Sure! Here is the JSON you asked for:\n```json\n{content}\n```"
        max_tokens = request.get("max_tokens", request.get("max_completion_tokens"))
        if max_tokens is None and "runaway" in behaviours:
            # The JSON grammar keeps a small model inside its object, repeating a key.
            loop = ', "truths": ["Order A17 shipped."]'
            content = content[:-1] + loop * (_RUNAWAY_CHARS // len(loop))
            finish_reason = "length"
        elif max_tokens is not None and len(content) > 4 * max_tokens:
            content, finish_reason = content[: 4 * max_tokens], "length"
        prompt_chars = sum(len(m.get("content") or "") for m in request["messages"])
        completion = {
            "id": f"chatcmpl-stub-{stub.requests}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": request.get("model", "stub"),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "finish_reason": finish_reason,
                }
            ],
            "usage": {
                "prompt_tokens": prompt_chars // 4,
                "completion_tokens": len(content) // 4,
                "total_tokens": prompt_chars // 4 + len(content) // 4,
            },
        }
        if "no_usage" in behaviours:
            del completion["usage"]
        if "content_parts" in behaviours:
            message = completion["choices"][0]["message"]  # type: ignore[index]
            message["content"] = [{"type": "text", "text": content}]
        self._send(200, completion, trickle=fault == "trickle")

    def _misbehave(self, stub: StubServer, request: dict[str, Any], fault: str) -> None:
        """Echo everything received in the answer `fault` names, or send a huge reply."""
        echo = echo_text(self.headers, self.received, path=self.path)
        if fault == "echo_500":
            self._send(500, {"error": {"message": echo, "type": "server_error"}})
        elif fault == "echo_200":
            self._send(200, {"error": {"message": echo, "code": 500}})
        elif fault == "echo_html":
            page = f"<html><body><pre>{echo}</pre></body></html>".encode()
            self._send_bytes(200, page, "text/html")
        elif fault == "echo_reply":
            self._send(200, _completion(request, f"I cannot answer that. {echo}"))
        else:
            self._send_huge(stub)

    def _send_huge(self, stub: StubServer) -> None:
        """A 200 chat completion `huge_bytes` long, written in 64 KiB pieces until the client
        stops reading; `huge_sent` counts the bytes that went out."""
        head = b'{"choices": [{"index": 0, "message": {"role": "assistant", "content": "'
        filler = b"x" * (64 * 1024)
        lines = ["HTTP/1.1 200 OK", "Content-Type: application/json"]
        lines.append(
            f"Content-Length: {stub.huge_bytes}" if stub.huge_declared else "Connection: close"
        )
        try:
            self.wfile.write(("\r\n".join(lines) + "\r\n\r\n").encode() + head)
            left = stub.huge_bytes - len(head)
            while left > 0:
                piece = filler[: min(left, len(filler))]
                self.wfile.write(piece)
                left -= len(piece)
                with stub.lock:
                    stub.huge_sent += len(piece)
        except OSError:
            pass  # the client stopped reading: what a cap does
        self.close_connection = True

    def _send(
        self,
        status: int,
        payload: Any,
        headers: dict[str, str] | None = None,
        *,
        trickle: bool = False,
    ) -> None:
        self._send_bytes(status, json.dumps(payload).encode(), headers=headers, trickle=trickle)

    def _send_bytes(
        self,
        status: int,
        body: bytes,
        content_type: str = "application/json",
        *,
        headers: dict[str, str] | None = None,
        trickle: bool = False,
    ) -> None:
        """Send one answer at once, or (`trickle`) one byte every `trickle_seconds`, status
        line first, until it is all sent, the client goes away or the server closes."""
        lines = [f"HTTP/1.1 {status} {self.responses.get(status, ('',))[0]}"]
        lines += [f"Content-Type: {content_type}", f"Content-Length: {len(body)}"]
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        answer = ("\r\n".join(lines) + "\r\n\r\n").encode() + body
        stub = self.server.stub
        try:
            if not trickle:
                self.wfile.write(answer)
                return
            for index in range(len(answer)):
                self.wfile.write(answer[index : index + 1])
                self.wfile.flush()
                if stub.closing.wait(stub.trickle_seconds):
                    break
            self.close_connection = True
        except OSError:
            # The client gave up (timeout) before the answer was ready.
            self.close_connection = True


def _completion(request: dict[str, Any], content: str) -> dict[str, Any]:
    """A chat completion whose message is `content`."""
    return {
        "id": "chatcmpl-stub",
        "object": "chat.completion",
        "model": request.get("model", "stub"),
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": len(content) // 4, "total_tokens": 1},
    }


def _refusal(
    behaviours: set[str], request: dict[str, Any], response_format: str
) -> tuple[int, dict[str, Any]] | None:
    """(status, body) of a request the behaving server refuses, or None."""
    if "schema_500" in behaviours and response_format == "json_schema":
        return 500, _SCHEMA_500
    if "completion_tokens" in behaviours and "max_tokens" in request:
        message = (
            "Unsupported parameter: 'max_tokens' is not supported with this model. "
            "Use 'max_completion_tokens' instead."
        )
        return 400, {"error": {"message": message, "param": "max_tokens"}}
    if "error_200" in behaviours and response_format == "json_schema":
        message = "This provider does not support response_format json_schema"
        return 200, {"error": {"message": message, "code": 400}}
    if "temperature_400" in behaviours and request.get("temperature") == 0:
        message = "Unsupported value: 'temperature' does not support 0 with this model."
        return 400, {"error": {"message": message, "param": "temperature"}}
    if "format_400" in behaviours and response_format != "text":
        return 400, {"error": {"message": "Unrecognized request argument supplied"}}
    if "alternating" in behaviours:
        roles = [message.get("role") for message in request["messages"]]
        if "system" in roles:
            return 500, {"error": {"message": "System role not supported"}}
        if any(a == b for a, b in itertools.pairwise(roles)) or roles[0] != "user":
            message = "Conversation roles must alternate user/assistant/user/assistant/..."
            return 500, {"error": {"message": message}}
    return None


def _example_of(prompt: str) -> dict[str, Any]:
    """The format example a prompt shows after 'Answer with JSON only'."""
    found = _EXAMPLE.search(prompt)
    if found is None:
        raise ValueError("the prompt shows no JSON example")
    return json.loads(found.group(1))


def _drop_a_verdict(reply: dict[str, Any]) -> None:
    """Remove the last verdict of the first item that has one."""
    lists = [reply["verdicts"]] if "verdicts" in reply else [e["verdicts"] for e in reply["items"]]
    for verdicts in lists:
        if verdicts:
            verdicts.pop()
            return


def _number_from_zero(reply: dict[str, Any]) -> None:
    """Number every verdict (and packed item) from 0, listed in reverse: only a reader that
    follows the numbers puts them back in claim order."""
    packed = "items" in reply
    for number, entry in enumerate(reply["items"] if packed else [reply]):
        if packed:
            entry["item"] = number
        verdicts = entry.get("verdicts") or []
        for claim, verdict in enumerate(verdicts):
            verdict["claim"] = claim
        verdicts.reverse()
    if packed:
        reply["items"].reverse()


def main() -> None:
    """Serve until stdin closes; prints `PORT <n>` first (for bench/llm_calls.py)."""
    with StubServer() as stub:
        print(f"PORT {stub.port}", flush=True)
        sys.stdin.read()


if __name__ == "__main__":
    main()
