"""`--run-timeout`: past its deadline a run stops as on SIGTERM, keeps its committed batches,
and exits 14 (issue 22, item 3); a Retry-After beyond the time left is not waited for.

The deadline test's endpoint answers the first batch and hangs on every call of the second,
for longer than the subprocess may live: only the deadline can end the run. The test makes the
deadline arrive once the second batch is asked (SIGALRM, the signal `--run-timeout`'s timer
sends): on a loaded machine a 10 s timer could pass before the first batch was committed.
That the timer sends it on time: test_the_deadline_raises_run_deadline_in_the_main_thread.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import duckdb
import pytest

from flows.cli.commands import build_parser
from flows.clock import remaining, set_deadline
from flows.judges.endpoint.breaker import WaitTooLong
from flows.run.deadline import NIGHTLY_RUN_TIMEOUT, run_deadline
from flows.run.stop_signals import RunDeadline
from tests.support.builders import case_row, cases, write
from tests.support.llm_judge import openai_judge
from tests.support.openai_stub import HANG, StubServer

FAITH = Path(sys.executable).with_name("faith")


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_the_run_stops_at_its_deadline_keeping_committed_batches(
    hanging_stub: StubServer, tmp_path: Path
) -> None:
    rows = [case_row(f"a{i}") for i in range(5)]
    rows += [case_row(f"b{i}", f"{HANG} left on day {i}.") for i in range(5)]
    source = write(cases(rows), tmp_path / "cases.parquet")
    db = tmp_path / "deadline.duckdb"
    argv = [str(FAITH), "score", str(source), "--db", str(db), "--prefect", "no",
            "--judge", "openai", "--model", "stub-model", "--base-url", hanging_stub.base_url,
            "--batch-size", "5", "--timeout", "300", "--run-timeout", "600"]  # fmt: skip
    child = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=os.environ.copy(),
    )  # fmt: skip
    try:
        hang_guard = time.monotonic() + 90
        # The second batch is asked (its calls hang): the first was committed before it.
        while not any(HANG in str(body) for body in hanging_stub.bodies) and child.poll() is None:
            assert time.monotonic() < hang_guard, "the second batch was never asked"
            time.sleep(0.05)
        child.send_signal(signal.SIGALRM)  # the deadline's timer, now
        _, stderr = child.communicate(timeout=90)
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    assert child.returncode == 14, stderr
    assert "interrupted (the run deadline, --run-timeout 600 s)" in stderr
    con = duckdb.connect(str(db), read_only=True)
    try:
        run = con.sql(
            "SELECT status, error, rows_in, rows_scored, rows_invalid, rows_pending, "
            "rows_quarantined FROM runs"
        ).pl()
        kept = con.sql("SELECT case_id, status FROM case_scores ORDER BY case_id").fetchall()
    finally:
        con.close()
    status, error, rows_in, *parts = run.row(0)
    assert status == "interrupted"
    assert error == "interrupted by the run deadline, --run-timeout 600 s"
    # The first batch was committed and is kept; the second never was.
    assert kept == [(f"a{i}", "scored") for i in range(5)]
    assert rows_in == sum(parts) == 5


def test_faith_nightly_has_a_deadline_by_default_and_score_none() -> None:
    parser = build_parser()
    assert parser.parse_args(["nightly", "logs"]).run_timeout == NIGHTLY_RUN_TIMEOUT == 21600
    assert parser.parse_args(["score", "logs"]).run_timeout is None
    assert parser.parse_args(["nightly", "logs", "--run-timeout", "0"]).run_timeout == 0


@pytest.mark.timeout(30)
def test_the_deadline_raises_run_deadline_in_the_main_thread() -> None:
    armed: list[float | None] = []

    def wait_under_deadline() -> None:
        with run_deadline(0.2):
            armed.append(remaining())
            threading.Event().wait(20)

    with pytest.raises(RunDeadline, match=r"--run-timeout 0\.2 s") as stopped:
        wait_under_deadline()
    assert armed[0] is not None
    assert stopped.value.exit_code == 14
    assert remaining() is None  # disarmed on the way out


@pytest.mark.timeout(30)
def test_a_retry_after_beyond_the_time_left_is_not_waited_for(hanging_stub: StubServer) -> None:
    hanging_stub.retry_after = 30.0  # within the judge's own 60 s, beyond the run's 5 s left
    hanging_stub.fail("429", times=None)
    url = hanging_stub.base_url
    judge = openai_judge("stub-model", base_url=url, mode="per-item", concurrency=1)
    set_deadline(5.0)
    try:
        with pytest.raises(WaitTooLong, match=r"asked to wait 30 s.*can wait \(5 s\)"):
            judge.answer_claims("Order A17 shipped.")
    finally:
        set_deadline(None)
        judge.close()
    assert hanging_stub.requests == 1
