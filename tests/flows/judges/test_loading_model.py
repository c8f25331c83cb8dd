"""A server still loading its model is waited for, within a bound (llama.cpp's server answers
`503 {"error": {"code": 503, "message": "Loading model", ...}}` for its first seconds to
minutes after a start).

It was counted as any 5xx: `faith score` stopped with exit 6 after 13 of them (~7 s), the
cases pending, its line never naming what the server said, and `faith judge-check` (so the
check `faith nightly` starts with) stopped in under a second: a nightly run started right
after a server restart failed without saying why. Now the run waits for the model while the
server says it is loading, up to CallPolicy.max_loading_wait (300 s; never past
--run-timeout), and past that ends with exit 6 and a line quoting the server's words.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import duckdb
import pytest

from flows.judges.endpoint.call_policy import CallPolicy
from tests.support.builders import case_row, cases, write
from tests.support.cli_run import Done, faith_here
from tests.support.llm_judge import SHORT_BACKOFF, shorten_backoff
from tests.support.openai_stub import serving

KEY = "sk-loading-test-key"
ROWS, CONCURRENCY, BREAKER = 12, 4, 5
# What opened the breaker before: 5xx past the breaker's count and the calls in flight.
BREAKER_5XX = BREAKER + CONCURRENCY
LOADING_SECONDS = 2.0  # the stub's load, and at least 3 times the answers that opened the breaker


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    shorten_backoff(monkeypatch)


def wait_for_loading_at_most(monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    """The judges this process builds wait `seconds` at most for a model to load."""
    from flows.judges import check
    from flows.judges.live import judge

    policy = partial(CallPolicy, max_loading_wait=seconds, **SHORT_BACKOFF)
    monkeypatch.setattr(judge, "CallPolicy", policy)
    monkeypatch.setattr(check, "CHECK_POLICY", policy(max_retries=1))


@pytest.fixture
def source(tmp_path: Path) -> Path:
    return write(
        cases(
            [
                case_row(
                    f"c{i:03d}", f"Order L{i} shipped.", retrieval_context=[f"Order L{i} shipped."]
                )
                for i in range(ROWS)
            ]
        ),
        tmp_path / "cases.parquet",
    )


def score(capsys: pytest.CaptureFixture[str], source: Path, db: Path, base_url: str) -> Done:
    return faith_here(
        capsys, "score", str(source), "--db", str(db), "--prefect", "no",
        "--judge", "openai", "--model", "stub-model", "--base-url", base_url,
        "--concurrency", str(CONCURRENCY), "--breaker-failures", str(BREAKER),
    )  # fmt: skip


def statuses(db: Path) -> dict[str, int]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        rows = con.sql("SELECT status, count(*) FROM case_scores GROUP BY status").fetchall()
    finally:
        con.close()
    return dict(rows)


def error_line(done: Done) -> str:
    (line,) = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    return line


def test_a_run_waits_for_a_server_loading_its_model(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "loaded.duckdb"
    with serving() as stub:
        stub.load(LOADING_SECONDS, answers=3 * BREAKER_5XX)
        done = score(capsys, source, db, stub.base_url)
    assert stub.loading_answers > BREAKER_5XX  # what ended the run before
    assert done.returncode == 0, done.stderr
    assert statuses(db) == {"scored": ROWS}
    # the wait says what it waits for, once, with the server's words (a quiet minute is not)
    said = [line for line in done.stderr.splitlines() if "is loading its model" in line]
    assert len(said) == 1, done.stderr
    assert "(HTTP 503: Loading model): asking again every few seconds, for 300 s at most" in said[0]


def test_a_model_still_loading_past_the_bound_is_exit_6_quoting_the_server(
    source: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    wait_for_loading_at_most(monkeypatch, 0.5)
    db = tmp_path / "loading.duckdb"
    with serving() as stub:
        stub.load(float("inf"))
        done = score(capsys, source, db, stub.base_url)
    assert done.returncode == 6, done.stderr
    line = error_line(done)
    assert "was still loading its model after" in line, line
    assert "Loading model" in line  # the server's own words
    assert "the cases left stay pending" in line
    assert KEY not in done.stderr
    assert statuses(db) == {"pending": ROWS}


def test_judge_check_waits_for_a_server_loading_its_model(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with serving() as stub:
        stub.load(LOADING_SECONDS, answers=3 * 2)
        done = faith_here(
            capsys, "judge-check", "--model", "stub-model", "--base-url", stub.base_url
        )
    assert stub.loading_answers > 2  # judge-check's breaker opened at 2 before
    assert done.returncode == 0, done.stderr + done.stdout


def test_judge_check_past_the_bound_is_exit_6_quoting_the_server(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    wait_for_loading_at_most(monkeypatch, 0.5)
    with serving() as stub:
        stub.load(float("inf"))
        done = faith_here(
            capsys, "judge-check", "--model", "stub-model", "--base-url", stub.base_url
        )
    assert done.returncode == 6, done.stderr
    line = error_line(done)
    assert "was still loading its model after" in line, line
    assert "Loading model" in line
