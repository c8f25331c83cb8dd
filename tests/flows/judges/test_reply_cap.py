"""A judge answer larger than `--max-reply-bytes` is a reply error, never read whole (issue 22,
item 9). The stub sends a 9 MiB chat completion, with or without its Content-Length; the judge
caps replies at 1 MiB and stops reading there: the stub counts what it managed to write.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from faith_udfs.errors import JudgeReplyError
from flows.cli.commands import build_parser
from flows.judges.endpoint.capped_http import DEFAULT_MAX_REPLY_BYTES
from flows.run.pipeline import run_score
from flows.run.settings import JudgeSettings, ScoreSettings
from tests.support.builders import many_cases, write
from tests.support.llm_judge import openai_judge
from tests.support.openai_stub import StubServer, serving

CAP = 1024 * 1024
FAST = {"timeout": 10.0, "max_retries": 1, "backoff_base": 0.01, "backoff_max": 0.05}


@pytest.fixture
def stub(monkeypatch: pytest.MonkeyPatch) -> Iterator[StubServer]:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-cap-test-key")
    with serving(huge_bytes=64 * CAP) as server:
        server.fail("huge", times=None)
        yield server


@pytest.mark.timeout(60)
@pytest.mark.parametrize("declared", [True, False], ids=["content-length", "until-close"])
def test_a_reply_over_the_cap_is_a_reply_error_never_read_whole(
    stub: StubServer, declared: bool
) -> None:
    stub.huge_declared = declared
    with (
        openai_judge(
            "stub-model", base_url=stub.base_url, mode="per-item", max_reply_bytes=CAP, **FAST
        ) as judge,
        pytest.raises(JudgeReplyError, match=r"larger than 1,048,576 bytes"),
    ):
        judge.answer_claims("Order A17 shipped.")
    # A reply error is not retried: one request; of its 64 MiB, at most the cap plus what
    # the sockets' buffers took went out before the judge hung up.
    assert stub.requests == 1
    assert stub.huge_sent < 16 * CAP


@pytest.mark.timeout(60)
def test_a_run_of_huge_replies_ends_invalid_with_the_reason(
    stub: StubServer, tmp_path: Path
) -> None:
    source = write(many_cases(4), tmp_path / "cases.parquet")
    db = tmp_path / "cap.duckdb"
    settings = ScoreSettings(
        source=str(source),
        db=str(db),
        max_invalid_share=1.0,
        judge=JudgeSettings(
            kind="openai", model="stub-model", base_url=stub.base_url, timeout=10,
            max_reply_bytes=CAP,
        ),
    )  # fmt: skip
    run = run_score(settings)
    assert run["rows_invalid"] == run["rows_in"] == 4
    con = duckdb.connect(str(db), read_only=True)
    try:
        errors = {error for (error,) in con.execute("SELECT error FROM case_scores").fetchall()}
    finally:
        con.close()
    assert all("larger than 1,048,576 bytes (Content-Length" in error for error in errors), errors
    assert all("--max-reply-bytes" in error for error in errors)


def test_the_cap_is_an_option_with_a_default_well_below_100_mb() -> None:
    parser = build_parser()
    assert parser.parse_args(["score", "x"]).max_reply_bytes == DEFAULT_MAX_REPLY_BYTES == 8 << 20
    assert (
        parser.parse_args(["score", "x", "--max-reply-bytes", "512K"]).max_reply_bytes == 512 << 10
    )
    assert parser.parse_args(["nightly", "x", "--max-reply-bytes", "2M"]).max_reply_bytes == 2 << 20
