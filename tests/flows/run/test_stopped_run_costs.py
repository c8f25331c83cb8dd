"""A run stopped mid-batch counts the judge calls that batch paid for: its answers are in the
reply cache and the next run reports them as cached, so a row that left them out (as runs did
before) showed no one the spend. Found by a QA pass: a nightly stopped at its deadline could
report $0 for hours of calls."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.builders import case_row, cases, write
from tests.support.db_reading import query
from tests.support.openai_stub import HANG, StubServer

FAITH = Path(sys.executable).with_name("faith")
PRICES = ["--price-input", "2.5", "--price-output", "10"]


@pytest.mark.slow
@pytest.mark.timeout(150)
def test_a_run_stopped_mid_batch_counts_the_calls_that_batch_paid_for(
    hanging_stub: StubServer, tmp_path: Path
) -> None:
    # Batch 1 is committed; batch 2's first three answers are answered, its last two hang.
    rows = [case_row(f"a{i}", f"Order A17 shipped on day {i}.") for i in range(5)]
    rows += [case_row(f"b{i}", f"Order A17 left the depot on day {i}.") for i in range(3)]
    rows += [case_row(f"c{i}", f"{HANG} left on day {i}.") for i in range(2)]
    source = write(cases(rows), tmp_path / "cases.parquet")
    db = tmp_path / "stopped.duckdb"
    argv = [str(FAITH), "score", str(source), "--db", str(db), "--prefect", "no",
            "--judge", "openai", "--model", "stub-model", "--base-url", hanging_stub.base_url,
            "--judge-mode", "per-item", "--batch-size", "5", "--timeout", "300",
            *PRICES]  # fmt: skip
    child = subprocess.Popen(
        argv,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=os.environ.copy(),
    )
    try:
        guard = time.monotonic() + 100
        # batch 2 is asked: its hanging answers, and (answered at once) the other three
        while (
            sum(HANG in str(body) for body in hanging_stub.bodies) < 1
            or sum("left the depot" in str(body) for body in hanging_stub.bodies) < 3
        ) and child.poll() is None:
            assert time.monotonic() < guard, "the second batch was never asked"
            time.sleep(0.05)
        time.sleep(0.5)  # the stub answers at once: the three answers are back
        child.send_signal(signal.SIGTERM)
        _, stderr = child.communicate(timeout=90)
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    assert child.returncode == 143, stderr
    ((status, calls, prompt, completion, cost),) = query(
        db, "SELECT status, judge_calls, prompt_tokens, completion_tokens, cost_usd FROM runs"
    )
    ((committed_calls, committed_cases),) = query(
        db, "SELECT sum(judge_calls), count(*) FROM case_scores"
    )
    assert (status, committed_cases) == ("interrupted", 5)
    # batch 2's calls were sent and three of them answered and paid for: counted, though no
    # case of it was stored (a call is counted when it is sent, so the hanging ones too)
    assert committed_calls < calls <= len(hanging_stub.bodies)
    assert cost == pytest.approx((prompt * 2.5 + completion * 10) / 1e6)

    hanging_stub.hang_on = None  # the endpoint mended: the next run finishes, asking nothing twice
    env = os.environ.copy()
    done = subprocess.run(argv, check=False, capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    ((cached,),) = query(db, "SELECT judge_cached FROM runs WHERE status = 'completed'")
    assert cached >= calls - committed_calls  # what the stopped run paid for, cached now
