"""Answers a hostile or broken server sends that Python's own readers choke on (QA).

A real HTTP server on 127.0.0.1 answers faithpipe's prompts honestly, except for one thing:
JSON nested past the interpreter's depth or holding a 5,000-digit number, a `usage` of 10**30
tokens, or a gzip body (never asked for) that expands to 64 MiB. Each once crashed the run
(exit 1, nothing stored) or held the bomb whole; now each is a reply error or an estimate, the
run completes, and every row is accounted for.
"""

from __future__ import annotations

import gzip
import json
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import duckdb
import pytest

from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.builders import many_cases, write
from tests.support.llm_judge import openai_judge
from tests.support.loopback import LoopbackServer
from tests.support.openai_stub import _ANSWERING, answer_prompt

KEY = "sk-hostile-5f0c2e9a7b1d4c3e8f6a"
BOMB = gzip.compress(b" " * (64 * 1024 * 1024))  # 64 KiB that expand to 64 MiB


class HostileServer(LoopbackServer):
    """Honest answers, spoilt as `mode` says; counts the requests."""

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.requests = 0
        self._listen(_Handler, ThreadingHTTPServer, hostile=self)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: Any

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""

    def do_POST(self) -> None:
        hostile: HostileServer = self.server.hostile
        hostile.requests += 1
        request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        with _ANSWERING:
            honest = answer_prompt(request["messages"][0]["content"])
        content = json.dumps(honest)
        if hostile.mode == "deep":
            content = '{"truths": ' + "[" * 100_000 + "]" * 100_000 + "}"
        elif hostile.mode == "long_number":
            content = content.replace('"item": 1', '"item": 1' + "0" * 5000, 1)
        elif hostile.mode == "half_pair":  # a statement ending in half an emoji's escape
            content = content.replace('"]', ' \\ud83d"]', 1)
        elif hostile.mode == "cut_half_pair":  # cut inside an emoji: its first half, then end
            content = content[: len(content) // 2] + "\ud83d"  # the body's JSON escapes it
        completion = {
            "object": "chat.completion",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "finish_reason": "stop",
                }
            ],
            "usage": {"prompt_tokens": 10, "completion_tokens": 10},
        }
        if hostile.mode == "usage":
            completion["usage"] = {"prompt_tokens": 10**30, "completion_tokens": 10**30}
        body, headers = json.dumps(completion).encode(), {}
        if hostile.mode == "deep_body":
            body = b'{"a":' * 100_000 + b"1" + b"}" * 100_000
        elif hostile.mode == "bomb":
            body, headers = BOMB, {"Content-Encoding": "gzip"}
        elif hostile.mode == "key_in_content_type":  # a debugging proxy's page, echoing the key
            sent = self.headers["Authorization"].removeprefix("Bearer ")
            body = b"<html>upstream error</html>"
            headers = {"Content-Type": f"text/html; echo={sent}; pad={'p' * 4000}"}
        elif hostile.mode == "key_in_encoding":  # an answer past the cap, coded "x-<key>"
            sent = self.headers["Authorization"].removeprefix("Bearer ")
            body, headers = b" " * (2 * 1024 * 1024), {"Content-Encoding": f"x-{sent}"}
        self.send_response(200)
        self.send_header("Content-Type", headers.pop("Content-Type", "application/json"))
        if hostile.mode != "key_in_encoding":  # its size known only once read
            self.send_header("Content-Length", str(len(body)))
        else:
            self.close_connection = True
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)


def _score(fault: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **options: Any) -> dict:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    source = write(many_cases(4), tmp_path / "cases.parquet")
    db = tmp_path / "h.duckdb"
    with HostileServer(fault) as server:
        judge = openai_judge(
            "m", base_url=server.base_url, timeout=20.0, max_retries=0,
            backoff_base=0.01, backoff_max=0.05, **options,
        )  # fmt: skip
        try:
            run_score(
                ScoreSettings(source=str(source), db=str(db), max_invalid_share=1.0), judge=judge
            )
        finally:
            judge.close()
    con = duckdb.connect(str(db), read_only=True)
    try:
        run = con.sql(
            "SELECT status, rows_in, rows_scored, rows_invalid, rows_pending, rows_quarantined,"
            " prompt_tokens FROM runs"
        ).fetchall()
        errors = [row[0] for row in con.sql("SELECT error FROM case_scores").fetchall()]
    finally:
        con.close()
    assert len(run) == 1
    status, rows_in, *parts, prompt_tokens = run[0]
    assert status == "completed"
    assert rows_in == 4 == sum(parts)
    return {"errors": errors, "prompt_tokens": prompt_tokens}


@pytest.mark.parametrize(
    ("mode", "judge_mode"), [("deep", "packed"), ("deep", "per-item"), ("long_number", "packed")]
)
def test_reply_json_python_cannot_read_is_a_reply_error(
    mode: str, judge_mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before: RecursionError / ValueError ("Exceeds the limit (4300 digits)") out of the JSON
    # reader, "judge openai/m crashed (a bug, not a judge error)", exit 1, nothing stored.
    found = _score(mode, tmp_path, monkeypatch, mode=judge_mode)
    if mode == "deep":  # every reply is the deep one: every case invalid, saying why
        assert all("too deep or with too long a number" in (e or "") for e in found["errors"])


@pytest.mark.parametrize("judge_mode", ["packed", "per-item"])
def test_a_reply_holding_half_a_utf16_pair_is_a_reply_error(
    judge_mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A small model escaping an emoji writes its first half alone ("\\ud83d"): JSON decodes
    # it to a character UTF-8 cannot carry. Before: polars and DuckDB refused it, "judge
    # openai/m crashed (a bug, not a judge error)", exit 1, and the batch's paid answers were
    # not cached. Now the reply is refused as the broken text it is, for its items alone.
    found = _score("half_pair", tmp_path, monkeypatch, mode=judge_mode)
    assert all("half of a UTF-16 pair" in (e or "") for e in found["errors"]), found["errors"]


@pytest.mark.parametrize("judge_mode", ["packed", "per-item"])
def test_a_reply_cut_after_half_a_utf16_pair_is_a_reply_error_stored_as_text(
    judge_mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The half pair in the message's content itself (the body's JSON holds "\\ud83d"), in a
    # reply cut there: no JSON object, so the reply error quoted the reply, half pair and
    # all, and that error could be stored in no table ("judge openai/m crashed ...", exit 1).
    found = _score("cut_half_pair", tmp_path, monkeypatch, mode=judge_mode)
    assert all("not one complete JSON object" in (e or "") for e in found["errors"]), found
    assert all("\N{REPLACEMENT CHARACTER}" in (e or "") for e in found["errors"]), found


def test_a_body_nested_past_the_interpreters_depth_is_no_chat_completion(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every answer is one: the breaker (off here) would end the run at the 5th in a row
    # (tests/flows/judges/test_endpoint_breaker.py); here each call runs its course.
    found = _score("deep_body", tmp_path, monkeypatch, mode="per-item", breaker_failures=10_000)
    assert all("not a chat completion" in (e or "") for e in found["errors"])


def test_an_absurd_usage_is_no_count(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Before: polars could not put 10**30 in a token column; the run crashed with exit 1.
    found = _score("usage", tmp_path, monkeypatch)
    assert found["errors"] == [None] * 4
    assert 0 < found["prompt_tokens"] < 10**6  # the estimate, 4 characters a token


def test_a_compressed_answer_is_capped_at_what_it_expands_to(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Asked `Accept-Encoding: identity`, the server gzips all the same: 64 KiB on the wire,
    # 64 MiB decompressed. Before: the client decoded it whole (a 2 MB bomb of 2 GiB took
    # 6.6 GB of memory and passed --timeout); now the cap counts the decompressed bytes.
    started = time.monotonic()
    found = _score("bomb", tmp_path, monkeypatch, max_reply_bytes=1024 * 1024)
    assert time.monotonic() - started < 120
    assert all(
        "larger than 1,048,576 bytes once decompressed (Content-Encoding gzip" in (e or "")
        for e in found["errors"]
    ), found["errors"]


@pytest.mark.parametrize("mode", ["key_in_content_type", "key_in_encoding"])
def test_a_key_echoed_in_an_answers_headers_is_neither_stored_nor_kept_whole(
    mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The body of every answer is scrubbed, but two of its headers went into the cases'
    errors as the server sent them: the Content-Type of a 200 that is no chat completion
    (4 KB of it, every case), and the Content-Encoding of an answer past the cap (lower-cased,
    so no scrub of the stored text could find the key in it)."""
    found = _score(mode, tmp_path, monkeypatch, max_reply_bytes=1024 * 1024)
    errors = [e or "" for e in found["errors"]]
    assert all(e.startswith(("JudgeTransientError", "JudgeReplyError")) for e in errors), errors
    assert not any(KEY.lower() in e.lower() for e in errors), errors
    assert all(len(e) < 600 for e in errors), errors
