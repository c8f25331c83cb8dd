"""Batch mode's own requests run under the circuit breaker too (issue 22, item 3).

`faith score --judge-mode batch` against a refused port, a host name that does not resolve,
a black hole, a Batch API answering 500 to everything and one answering 429 with
`Retry-After: 86400`: the upload, create, state and download requests stop after
`--breaker-failures` failures of one kind in a row (a Retry-After the run cannot wait: at
once), the run exits 6 with one line, every row is accounted for and the judged ones are
`pending`; the batches a run waits for stay for the next. Bounds are what the servers saw
(requests, connections), never the clock.

One trial runs `faith` in a process of its own with a hard timeout (the exit code and the
one line as the shell sees them); the others call the same entry point in this process
(`main(argv)`, its code and stderr), with the Batch API's retry backoff shortened by the
test: what they count is attempts, not the waits between them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from tests.support.black_hole import BlackHole, free_port
from tests.support.builders import many_cases, write
from tests.support.cli_run import Done, faith_here
from tests.support.openai_batch_stub import BatchStub

FAITH = Path(sys.executable).with_name("faith")
ROWS, BREAKER = 40, 5
KEY = "sk-batch-breaker-key"


@pytest.fixture(autouse=True)
def short_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    """The key in the environment, and the Batch API's backoff between attempts at 10 ms
    (0.5 s doubling to 8 s in the product): the breaker counts attempts, not waits."""
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setattr("flows.judges.batch.api._BACKOFF_BASE", 0.01)


@pytest.fixture
def source(tmp_path: Path) -> Path:
    return write(many_cases(ROWS), tmp_path / "cases.parquet")


def batch_argv(source: Path, db: Path, base_url: str, *options: str) -> list[str]:
    return ["score", str(source), "--db", str(db), "--prefect", "no", "--judge", "openai",
            "--model", "stub-model", "--judge-mode", "batch", "--base-url", base_url,
            "--breaker-failures", str(BREAKER), *options]  # fmt: skip


def faith_batch(
    capsys: pytest.CaptureFixture[str], source: Path, db: Path, base_url: str, *options: str
) -> Done:
    return faith_here(capsys, *batch_argv(source, db, base_url, *options))


def read(db: Path) -> dict:
    """The last run's row (its parts add up to rows_in), its cases' statuses, the batches."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        row = (
            con.sql(
                "SELECT status, error, rows_in, rows_scored, rows_invalid, rows_pending, "
                "rows_quarantined FROM runs ORDER BY started_at DESC LIMIT 1"
            )
            .pl()
            .row(0, named=True)
        )
        statuses = {s for (s,) in con.execute("SELECT DISTINCT status FROM case_scores").fetchall()}
        batches = con.execute(
            "SELECT batch_id, state, collected_at IS NULL FROM judge_batches ORDER BY batch_id"
        ).fetchall()
    finally:
        con.close()
    parts = ("rows_scored", "rows_invalid", "rows_pending", "rows_quarantined")
    assert row["rows_in"] == ROWS == sum(row[part] for part in parts), row
    return {**row, "case_statuses": statuses, "batches": batches}


def assert_ended_by_the_breaker(done: Done, db: Path, what: str) -> dict:
    """Exit 6, one error line saying why, every judged case pending."""
    assert done.returncode == 6, done.stderr
    (error,) = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert what in error, done.stderr
    assert "no further calls are made this run" in error
    assert "Traceback" not in done.stderr
    row = read(db)
    assert row["status"] == "failed"
    assert what in row["error"]
    assert row["rows_pending"] == ROWS, row
    assert row["case_statuses"] == {"pending"}
    return row


def test_a_refused_port_opens_the_breaker(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "refused.duckdb"
    done = faith_batch(capsys, source, db, f"http://127.0.0.1:{free_port()}/v1")
    row = assert_ended_by_the_breaker(done, db, f"refused the connection {BREAKER} times in a row")
    assert row["batches"] == []  # no upload got through: nothing recorded


def test_a_host_that_does_not_resolve_opens_the_breaker(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "dns.duckdb"
    done = faith_batch(capsys, source, db, "http://faithpipe-no-such-host.invalid/v1")
    assert_ended_by_the_breaker(done, db, "does not resolve")


def test_a_black_hole_opens_the_breaker_after_a_few_deadlines(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A transfer is ended by --timeout of silence too, not by its whole-file deadline."""
    db = tmp_path / "hole.duckdb"
    with BlackHole() as hole:
        done = faith_batch(capsys, source, db, hole.base_url, "--timeout", "0.2")
    assert_ended_by_the_breaker(done, db, "did not answer within the call deadline")
    assert hole.connections <= BREAKER


def test_5xx_forever_opens_the_breaker(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "500.duckdb"
    with BatchStub() as stub:
        stub.fail_all(500)
        done = faith_batch(capsys, source, db, stub.base_url)
    assert_ended_by_the_breaker(done, db, "server error (5xx)")
    assert stub.requests["failed"] == BREAKER
    assert stub.requests["batch_create"] == 0


def test_408_forever_opens_the_breaker(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Batch API (or a proxy before it) answering 408 to everything counted for no kind:
    each upload gave up after its 5 attempts, and the run ended 0 with every case pending,
    night after night, nothing submitted."""
    db = tmp_path / "408.duckdb"
    with BatchStub() as stub:
        stub.fail_all(408)
        done = faith_batch(capsys, source, db, stub.base_url)
    assert_ended_by_the_breaker(done, db, "answered HTTP 408 (request timeout")
    assert f"answers?) {BREAKER} times in a row" in done.stderr
    assert stub.requests["failed"] == BREAKER
    assert stub.requests["batch_create"] == 0


@pytest.mark.parametrize("status", [413, 409, 400], ids=["413", "409", "400"])
def test_every_upload_refused_is_no_silent_night(
    status: int, source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A server (or a proxy before it: nginx's 1 MB client_max_body_size is a 413) refusing
    every upload left the cases `pending` as for a passing fault, and the run ended 0 with
    nothing asked, night after night. A refused upload is the batch's refusal: its cases are
    `invalid` with it, and past --max-invalid-share the run ends 8."""
    for night in (1, 2):
        db = tmp_path / "refused.duckdb"
        with BatchStub() as stub:
            stub.fail_all(status)
            done = faith_batch(capsys, source, db, stub.base_url)
        assert done.returncode == 8, (night, done.stderr)
        (error,) = [line for line in done.stderr.splitlines() if line.startswith("error:")]
        assert "ended invalid" in error
        row = read(db)
        assert (row["rows_invalid"], row["case_statuses"]) == (ROWS, {"invalid"})
        con = duckdb.connect(str(db), read_only=True)
        try:
            errors = con.execute("SELECT DISTINCT error FROM case_scores").fetchall()
        finally:
            con.close()
        assert all(f"refused the batch (HTTP {status} from the batch" in e for (e,) in errors)
        assert stub.requests["batch_create"] == 0


def test_a_refused_create_makes_its_cases_invalid(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every create answered 400 (a model the Batch API does not take): exit 8, not 0."""
    db = tmp_path / "create.duckdb"
    with BatchStub() as stub:
        stub.create = lambda request, echo="": (400, {"error": {"message": "no batch model"}})  # type: ignore[method-assign]
        done = faith_batch(capsys, source, db, stub.base_url)
    assert done.returncode == 8, done.stderr
    row = read(db)
    assert (row["rows_invalid"], row["case_statuses"]) == (ROWS, {"invalid"})
    assert row["batches"]
    assert all(state == "refused" for _, state, _ in row["batches"])


@pytest.mark.slow  # faith in a process of its own (~10 s under load)
def test_a_retry_after_of_a_day_is_not_waited_for_and_opens_the_breaker_at_once(
    source: Path, tmp_path: Path
) -> None:
    """One request: the server asked for none before the run is over. In a process of its
    own: exit 6 and the one line are what the shell gets."""
    db = tmp_path / "429.duckdb"
    with BatchStub() as stub:
        stub.fail_all(429, retry_after=86400)
        argv = [str(FAITH), *batch_argv(source, db, stub.base_url)]
        env = {**os.environ, "OPENAI_API_KEY": KEY}
        ran = subprocess.run(argv, capture_output=True, text=True, timeout=90, env=env, check=False)
    done = Done.of(ran)  # the process's own exit code and stderr
    assert_ended_by_the_breaker(
        done, db, "asked to wait longer than the run can (Retry-After) once"
    )
    assert stub.requests["failed"] == 1


def test_a_retry_after_past_the_run_deadline_is_not_waited_for(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """30 s is within the judge's most (60 s) but past --run-timeout's time left: exit 6, not
    a wait that the deadline ends (exit 14)."""
    db = tmp_path / "deadline.duckdb"
    with BatchStub() as stub:
        stub.fail_all(429, retry_after=30)
        done = faith_batch(capsys, source, db, stub.base_url, "--run-timeout", "25")
    assert_ended_by_the_breaker(done, db, "asked to wait longer than the run can")
    assert stub.requests["failed"] == 1


def test_a_retry_after_the_run_can_wait_is_waited_for(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two 429s asking for 1 s: waited for (never counted), then the batches go out."""
    db = tmp_path / "waited.duckdb"
    with BatchStub() as stub:
        stub.fail_all(429, retry_after=1, times=2)
        done = faith_batch(capsys, source, db, stub.base_url)
    assert done.returncode == 0, done.stderr
    first, second = stub.failed_at
    assert second - first >= 0.9  # the server's 1 s, not the 10 ms backoff
    assert stub.requests["batch_create"] == 2  # truths and claims
    row = read(db)
    assert row["rows_pending"] == ROWS
    assert len(row["batches"]) == 2


def test_a_server_down_at_collection_leaves_its_batches_for_the_next_run(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Run 1 submits; run 2 meets a server answering 500: at most BREAKER state requests, exit
    6, the batches still waited for; run 3 (healed) collects them and goes on."""
    db = tmp_path / "collect.duckdb"
    with BatchStub() as stub:
        stub.then("hold", "hold")
        assert faith_batch(capsys, source, db, stub.base_url).returncode == 0
        submitted = read(db)["batches"]
        assert [waiting for _, _, waiting in submitted] == [True, True]
        stub.fail_all(500)
        done = faith_batch(capsys, source, db, stub.base_url)
        row = assert_ended_by_the_breaker(done, db, "server error (5xx)")
        assert stub.requests["failed"] == BREAKER
        assert row["batches"] == submitted  # nothing given up, nothing collected
        refresh = faith_here(
            capsys, "batches", "--db", str(db), "--refresh", "--base-url", stub.base_url
        )
        assert refresh.returncode == 6, refresh.stderr
        assert refresh.stderr.splitlines()[-1].startswith("error: the judge endpoint")
        assert stub.requests["failed"] == 2 * BREAKER
        stub.heal()
        stub.release()
        assert faith_batch(capsys, source, db, stub.base_url).returncode == 0
    after = read(db)
    assert all(not waiting for _, _, waiting in after["batches"][:2])  # collected
    assert after["rows_pending"] == ROWS  # their verdicts are asked in the next round


def test_429_to_every_attempt_opens_the_breaker_by_request(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Batch API answering 429 (no Retry-After, or one the run can wait) to everything: a
    request gives up after its 5 attempts, and N requests given up so in a row open the
    breaker (kind `rate`, as the live judge's): exit 6, the cases pending. It used to go on
    with every stage of every batch of rows, each given up the same way, and end 0 with
    every case pending, night after night (with a Retry-After of 30 s: hours of requests)."""
    db = tmp_path / "429.duckdb"
    with BatchStub() as stub:
        stub.fail_all(429)
        # two requests given up (the truths' upload and the claims'): the breaker's N is 2
        done = faith_batch(capsys, source, db, stub.base_url, "--breaker-failures", "2")
    assert_ended_by_the_breaker(
        done, db, "answered HTTP 429 (rate limited) to every retry of a request, 2 requests"
    )
    assert "Batch API limits" in done.stderr
    assert stub.requests["failed"] == 2 * 5  # each request's 5 attempts, then none
    assert stub.requests["batch_create"] == 0
