"""Stopping a Dask run with the LLM judge is clean (issue 22, item 5): on SIGINT or SIGTERM
the run ends with its documented code, its row says `interrupted`, and nothing of Dask's
reaches the terminal (no `distributed.semaphore - ERROR - Release failed ... ConnectionPool
is closed`, no traceback). Each trial starts a local cluster in a child process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from data.generate import generate_cases
from tests.support.db_reading import query
from tests.support.openai_stub import serving

ROOT = Path(__file__).resolve().parents[3]
KEY = "sk-dask-stops"
# Generous: the stop is shown by the run row and the exit code, not by wall time on a
# machine shared with other work (a quiet one stops within 5 s).
HARD_TIMEOUT = 60


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_stopped_dask_run_with_the_llm_judge_is_quiet_and_marked(
    tmp_path: Path, sig: signal.Signals
) -> None:
    source = tmp_path / "cases.parquet"
    generate_cases(200, seed=11).write_parquet(source)
    db = tmp_path / "f.duckdb"
    err = tmp_path / "stderr.txt"
    with serving(api_key=KEY, delay=0.05) as stub:
        command = [
            sys.executable, "-m", "flows", "score", str(source), "--db", str(db),
            "--engine", "dask", "--workers", "2", "--prefect", "no", "--batch-size", "20",
            "--judge", "openai", "--model", "stub", "--base-url", stub.base_url,
            "--judge-mode", "per-item", "--concurrency", "4",
        ]  # fmt: skip
        with err.open("w") as stderr:
            child = subprocess.Popen(
                command,
                cwd=ROOT,
                env={**os.environ, "OPENAI_API_KEY": KEY},
                stdout=subprocess.DEVNULL,
                stderr=stderr,
            )
            try:
                give_up = time.monotonic() + HARD_TIMEOUT * 2
                # Mid-run: workers inside judge calls, holding cluster-wide leases.
                while stub.requests < 30 and child.poll() is None:
                    assert time.monotonic() < give_up, "the run never reached the judge"
                    time.sleep(0.05)
                child.send_signal(sig)
                child.wait(timeout=HARD_TIMEOUT)
            finally:
                if child.poll() is None:
                    child.kill()
    text = err.read_text()
    assert child.returncode == 128 + sig, text
    assert "ERROR" not in text
    assert "Traceback" not in text
    said = [line for line in text.splitlines() if line.startswith("interrupted")]
    assert said == [f"interrupted ({sig.name}): committed batches are kept; run again to finish"]
    assert query(db, "SELECT status, error FROM runs") == [
        ("interrupted", f"interrupted by {sig.name}")
    ]
