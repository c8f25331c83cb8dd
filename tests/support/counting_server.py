"""A chat-completions server on 127.0.0.1 that counts requests and tokens as a provider does.

It answers faithpipe's prompts with the seed's pretend judge (openai_stub.answer_prompt) and
counts tokens with its own tokenizer: a word, a number or one punctuation mark is a token
(about what BPE tokenizers give for English; unlike openai_stub, not characters / 4, so a
client estimating 4 characters a token is not simply matching the server's own rule). Every
request's arrival time and tokens are kept, so a test can check any window of time.

`serving_elsewhere()` runs it in a process of its own, as a provider is: in the client's
process, the client's work delays the server's threads and bunches arrival times. There,
GET /v1/requests-log returns the log (monotonic seconds; the clock is the machine's).
"""

from __future__ import annotations

import contextlib
import json
import re
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.support.loopback import LoopbackServer
from tests.support.openai_stub import answer_prompt

_TOKEN = re.compile(r"\w+|[^\w\s]")


def count_tokens(text: str) -> int:
    """Words, numbers and punctuation marks: the server's tokenizer."""
    return len(_TOKEN.findall(text))


@dataclass(frozen=True)
class Request:
    at: float
    prompt_tokens: int
    completion_tokens: int

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


class CountingServer(LoopbackServer):
    """The server and its request log; a context manager that shuts it down."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.requests: list[Request] = []
        self.errors: list[str] = []
        self._listen(_Handler, ThreadingHTTPServer, counting=self)

    def log(self) -> list[Request]:
        with self.lock:
            return list(self.requests)


class RemoteServer:
    """A CountingServer in another process: its URL and its request log."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url

    def log(self) -> list[Request]:
        with urllib.request.urlopen(f"{self.base_url}/requests-log", timeout=10) as answer:
            return [Request(*row) for row in json.loads(answer.read())]


@contextlib.contextmanager
def serving_elsewhere() -> Iterator[RemoteServer]:
    """A CountingServer in a child process, ended (stdin closed, then killed) afterwards."""
    child = subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve())],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        line = child.stdout.readline()  # the child prints PORT first, or dies (EOF)
        if not line.startswith("PORT "):
            raise RuntimeError(f"the counting server did not start: {line!r}")
        yield RemoteServer(f"http://127.0.0.1:{int(line.split()[1])}/v1")
    finally:
        if child.stdin is not None:
            child.stdin.close()
        try:
            child.wait(timeout=5)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait(timeout=5)
        if child.stdout is not None:
            child.stdout.close()


def totals(requests: list[Request]) -> tuple[int, int, int]:
    """(requests, prompt tokens, completion tokens) served."""
    return (
        len(requests),
        sum(r.prompt_tokens for r in requests),
        sum(r.completion_tokens for r in requests),
    )


def busiest_window(requests: list[Request], seconds: float) -> tuple[int, int]:
    """The most requests, and the most tokens, that arrived within any `seconds` window
    (every window starting at an arrival, which is where the maxima are)."""
    times = sorted(requests, key=lambda r: r.at)
    most_requests = most_tokens = 0
    for first, start in enumerate(times):
        inside = [r for r in times[first:] if r.at < start.at + seconds]
        most_requests = max(most_requests, len(inside))
        most_tokens = max(most_tokens, sum(r.tokens for r in inside))
    return most_requests, most_tokens


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: tests read the request log."""

    def do_GET(self) -> None:
        counting: CountingServer = self.server.counting  # type: ignore[attr-defined]
        rows = [[r.at, r.prompt_tokens, r.completion_tokens] for r in counting.log()]
        body = json.dumps(rows).encode()
        self.send_response(200 if self.path.rstrip("/") == "/v1/requests-log" else 404)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:
        counting: CountingServer = self.server.counting  # type: ignore[attr-defined]
        arrived = time.monotonic()
        request = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
        try:
            prompt = "\n".join(m.get("content") or "" for m in request["messages"])
            content = json.dumps(answer_prompt(request["messages"][0]["content"]))
        except Exception as exc:  # a stub bug: kept for the test to see
            with counting.lock:
                counting.errors.append(f"{type(exc).__name__}: {exc}")
            raise
        usage = {"prompt_tokens": count_tokens(prompt), "completion_tokens": count_tokens(content)}
        with counting.lock:
            counting.requests.append(Request(arrived, **usage))
        body = json.dumps(
            {
                "id": f"chatcmpl-counting-{len(counting.requests)}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": request.get("model", "counting"),
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": content},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {**usage, "total_tokens": sum(usage.values())},
            }
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def main() -> None:
    """Serve until stdin closes; prints `PORT <n>` first."""
    with CountingServer() as server:
        print(f"PORT {server.base_url.rsplit(':', 1)[1].split('/')[0]}", flush=True)
        sys.stdin.read()


if __name__ == "__main__":
    main()
