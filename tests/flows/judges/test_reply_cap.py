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
from tests.support.cli_run import Done, faith_here
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


@pytest.mark.parametrize(
    "given",
    ["0", "-5", "1023", "1000000000000000", "99999999999999999999999M", "2048M"],
    ids=["zero", "negative", "below-1K", "a-petabyte", "absurd", "past-1024M"],
)
def test_a_cap_out_of_range_is_refused_at_start_with_the_range(
    given: str,
    stub: StubServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """0 and 1023 were refused in pydantic's words (`Input should be greater than or equal to
    1024`), a negative one as no byte count, and a petabyte, or 10**29 bytes, was taken: no
    cap at all on what a hostile server sends. Each is a bad option: exit 2, one line naming
    the range, before the database is made or the endpoint asked."""
    db = tmp_path / "f.duckdb"
    source = write(many_cases(3), tmp_path / "cases.parquet")
    try:
        done = faith_here(capsys, "score", str(source), "--db", str(db), "--prefect", "no",
                          "--judge", "openai", "--model", "m", "--base-url", stub.base_url,
                          f"--max-reply-bytes={given}")  # fmt: skip
    except SystemExit as refused:  # an option's type: the line, exit 2
        done = Done(int(str(refused.code)), "", capsys.readouterr().err)
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("error: faith score: argument --max-reply-bytes: must be a byte count")
    assert "from 1K (1,024) to 1024M (1,073,741,824)" in line, line
    assert f"got {given!r}" in line, line
    assert stub.requests == 0
    assert not db.exists()


def test_a_python_caller_or_a_stored_deployment_past_the_most_runs_at_the_most(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Below 1K is refused; past 1024M (a deployment's parameters stored before the bound)
    runs at 1024M with one warning line, as a timeout past a day does: refused, each of its
    runs would fail Prefect's parameter validation."""
    with pytest.raises(ValueError, match="max_reply_bytes"):
        JudgeSettings(kind="openai", model="m", max_reply_bytes=1023)
    for past in (1024**3 + 1, 10**15):
        caplog.clear()
        settings = JudgeSettings(kind="openai", model="m", max_reply_bytes=past)
        assert settings.max_reply_bytes == 1024**3
        (warning,) = [r.getMessage() for r in caplog.records if "max_reply_bytes" in r.getMessage()]
        assert f"max_reply_bytes {past:,} is past the most" in warning
    assert (
        JudgeSettings(kind="openai", model="m", max_reply_bytes=1024**3).max_reply_bytes == 1024**3
    )
