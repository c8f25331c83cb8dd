"""The Dask engine with the LLM judge, under faults: the cluster-wide cap on calls in flight
holds across workers (counted at a real HTTP stub), a worker SIGKILLed mid-task is replaced
and its task run again, and a flow process killed mid-run resumes with nothing lost or
counted twice."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from data.generate import generate_cases
from flows.engines.dask_run import run_on_dask
from flows.run.settings import JudgeSettings, ScoreSettings
from tests.support.db_reading import query
from tests.support.openai_stub import StubServer, serving

CASES = 80
BATCH = 20  # four partitions: both workers busy at once
CAP = 3


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("llm") / "cases.parquet"
    generate_cases(CASES, seed=11).write_parquet(path)
    return path


def llm_settings(source: Path, db: Path, scheduler: str, base_url: str) -> ScoreSettings:
    return ScoreSettings(
        source=str(source),
        db=str(db),
        batch_size=BATCH,
        engine="dask",
        scheduler=scheduler,
        judge=JudgeSettings(
            kind="openai", model="stub", base_url=base_url, mode="per-item", concurrency=CAP
        ),
    )


def wait_for(condition: object, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_the_cap_holds_cluster_wide_and_a_killed_worker_is_replaced(
    source: Path, dask_client: object, scheduler: str, api_key: str, tmp_path: Path
) -> None:
    db = tmp_path / "faith.duckdb"
    outcome: dict[str, object] = {}
    # not `serving`: the killed worker's request in flight reaches the stub cut short
    with StubServer(api_key=api_key, delay=0.005) as stub:
        settings = llm_settings(source, db, scheduler, stub.base_url)

        def run() -> None:
            try:
                outcome["run"] = run_on_dask(settings)
            except BaseException as exc:  # reported by the assertion below
                outcome["error"] = exc

        runner = threading.Thread(target=run, daemon=True)
        runner.start()
        wait_for(lambda: stub.requests >= 40, 60)
        victim = next(iter(dask_client.run(os.getpid).values()))  # type: ignore[attr-defined]
        os.kill(victim, signal.SIGKILL)
        runner.join(90)
        assert not runner.is_alive()

    assert all(error.startswith("JSONDecodeError") for error in stub.errors), stub.errors
    assert "error" not in outcome, outcome.get("error")
    run = outcome["run"]
    assert run["status"] == "completed"  # type: ignore[index]
    assert run["rows_newly_scored"] + run["rows_invalid"] == CASES  # type: ignore[index]
    assert query(db, "SELECT count(*), count(DISTINCT case_id) FROM case_scores") == [
        (CASES, CASES)
    ]
    # both workers asked at once, yet never more than --concurrency calls were in flight
    assert 1 < stub.max_in_flight <= CAP


def test_a_killed_flow_process_resumes_without_loss_or_double_counting(
    source: Path, scheduler: str, api_key: str, tmp_path: Path
) -> None:
    db = tmp_path / "faith.duckdb"
    with serving(api_key=api_key, delay=0.005) as stub:
        command = [
            sys.executable, "-m", "flows", "score", str(source), "--db", str(db),
            "--engine", "dask", "--scheduler", scheduler, "--prefect", "no",
            "--batch-size", str(BATCH), "--judge", "openai", "--model", "stub",
            "--base-url", stub.base_url, "--judge-mode", "per-item", "--concurrency", str(CAP),
        ]  # fmt: skip
        child = subprocess.Popen(
            command,
            cwd=Path(__file__).resolve().parents[3],
            env={**os.environ, "OPENAI_API_KEY": api_key},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            wait_for(lambda: stub.requests >= 120 or child.poll() is not None, 90)
            child.kill()
        finally:
            child.wait(timeout=30)
        assert child.returncode == -signal.SIGKILL
        rerun = run_on_dask(llm_settings(source, db, scheduler, stub.base_url))

    runs = query(db, "SELECT status, rows_newly_scored, rows_invalid FROM runs ORDER BY started_at")
    assert [status for status, *_ in runs] == ["superseded", "completed"]
    assert sum(new + invalid for _, new, invalid in runs) == CASES
    assert rerun["rows_in"] == CASES
    assert query(db, "SELECT count(*), count(DISTINCT case_id) FROM case_scores") == [
        (CASES, CASES)
    ]
    duplicates = (
        "SELECT count(*) FROM (SELECT case_id, claim_index FROM claim_verdicts "
        "GROUP BY ALL HAVING count(*) > 1)"
    )
    assert query(db, duplicates) == [(0,)]
