"""The LLM judge on the Dask engine, on one real 2-process cluster under the Prefect test
harness: the cluster-wide cap on calls in flight holds (counted at a real HTTP stub) while a
worker is SIGKILLed mid-task and replaced (no case invalid); a flow process killed mid-run
resumes with nothing lost, counted or paid for twice; an interrupted run keeps the replies of
shards it had not loaded. Split from test_dask_engine.py so both pytest workers share them."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from flows.engines.dask_run import run_on_dask, run_score_on_dask, shard_root
from flows.engines.partition_task import PartitionJob
from flows.engines.submitters import ClientSubmitter
from tests.support.dask_cluster import (
    CAP,
    CASES,
    KEY,
    LLM_BATCH,
    llm_settings,
    local_cluster,
    wait_for,
    write_llm_source,
)
from tests.support.db_reading import query
from tests.support.openai_stub import StubServer, serving


@pytest.fixture(scope="module")
def dask_client(prefect_harness: None) -> Iterator[object]:
    """One real LocalCluster of two worker processes for this module (started once, ~4 s),
    reporting to the harness's API."""
    with local_cluster() as client:
        yield client


@pytest.fixture
def scheduler(dask_client: object) -> str:
    return dask_client.scheduler.address  # type: ignore[attr-defined]


@pytest.fixture
def api_key(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    return KEY


@pytest.fixture(scope="module")
def llm_source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_llm_source(tmp_path_factory.mktemp("llm") / "cases.parquet")


@pytest.fixture(scope="module")
def one_run_requests(
    llm_source: Path, dask_client: object, tmp_path_factory: pytest.TempPathFactory
) -> int:
    """Judge requests one uninterrupted Dask run of the LLM cases makes (a local run's: the
    items partitions share are asked once, before they start)."""
    db = tmp_path_factory.mktemp("baseline") / "faith.duckdb"
    address = dask_client.scheduler.address  # type: ignore[attr-defined]
    with serving(api_key=KEY) as stub, pytest.MonkeyPatch.context() as patch:
        patch.setenv("OPENAI_API_KEY", KEY)
        run_on_dask(llm_settings(llm_source, db, address, stub.base_url))
        return stub.requests


@pytest.mark.slow
def test_the_cap_holds_cluster_wide_and_a_killed_worker_is_replaced(
    llm_source: Path, dask_client: object, scheduler: str, api_key: str, tmp_path: Path
) -> None:
    db = tmp_path / "faith.duckdb"
    outcome: dict[str, object] = {}
    # not `serving`: the killed worker's request in flight reaches the stub cut short
    with StubServer(api_key=api_key, delay=0.005) as stub:
        settings = llm_settings(llm_source, db, scheduler, stub.base_url)

        def run() -> None:
            try:
                outcome["run"] = run_on_dask(settings)
            except BaseException as exc:  # reported by the assertion below
                outcome["error"] = exc

        runner = threading.Thread(target=run, daemon=True)
        runner.start()
        wait_for(lambda: stub.requests >= 30, 300)
        victim = next(iter(dask_client.run(os.getpid).values()))  # type: ignore[attr-defined]
        os.kill(victim, signal.SIGKILL)
        runner.join(90)
        assert not runner.is_alive()

    assert all(error.startswith("JSONDecodeError") for error in stub.errors), stub.errors
    assert "error" not in outcome, outcome.get("error")
    run = outcome["run"]
    assert run["status"] == "completed"  # type: ignore[index]
    assert run["rows_newly_scored"] == CASES  # type: ignore[index]
    assert run["rows_invalid"] == 0  # type: ignore[index]
    assert query(db, "SELECT count(*), count(DISTINCT case_id) FROM case_scores") == [
        (CASES, CASES)
    ]
    # both workers asked at once, yet never more than --concurrency calls were in flight
    assert 1 < stub.max_in_flight <= CAP


@pytest.mark.slow
def test_a_killed_flow_process_resumes_without_loss_or_double_counting(
    llm_source: Path, scheduler: str, api_key: str, one_run_requests: int, tmp_path: Path
) -> None:
    db = tmp_path / "faith.duckdb"
    with serving(api_key=api_key, delay=0.005) as stub:
        command = [
            sys.executable, "-m", "flows", "score", str(llm_source), "--db", str(db),
            "--engine", "dask", "--scheduler", scheduler, "--prefect", "no",
            "--batch-size", str(LLM_BATCH), "--judge", "openai", "--model", "stub",
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
            wait_for(lambda: stub.requests >= 90 or child.poll() is not None, 300)
            child.kill()
        finally:
            child.wait(timeout=30)
        assert child.returncode == -signal.SIGKILL
        # Its tasks running on the cluster finish their partitions (the next run salvages
        # their shards): wait until the stub has been quiet a while.
        _wait_until_quiet(stub)
        rerun = run_on_dask(llm_settings(llm_source, db, scheduler, stub.base_url))
        # nothing paid twice beyond the calls cut short by the kill
        assert stub.requests <= one_run_requests + CAP

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


class InterruptedOnFirstLoad(ClientSubmitter):
    """The module's cluster, with Ctrl-C arriving while the flow process waits for the first
    partition and every partition has finished: all shards on disk, none loaded."""

    def __init__(self, client: object) -> None:
        super().__init__(client)
        self.handles: list[object] = []

    def submit(self, job: PartitionJob) -> object:
        handle = super().submit(job)
        self.handles.append(handle)
        return handle

    def result(self, handle: object, task_timeout: float) -> str:
        from distributed import wait

        wait(self.handles, timeout=60)
        raise KeyboardInterrupt


@pytest.mark.slow
def test_an_interrupted_run_keeps_the_replies_its_finished_shards_paid_for(
    llm_source: Path,
    dask_client: object,
    scheduler: str,
    api_key: str,
    one_run_requests: int,
    tmp_path: Path,
) -> None:
    db = tmp_path / "faith.duckdb"
    with serving(api_key=api_key) as stub:
        settings = llm_settings(llm_source, db, scheduler, stub.base_url)
        with pytest.raises(KeyboardInterrupt):
            run_score_on_dask(settings, InterruptedOnFirstLoad(dask_client))
        assert stub.requests == one_run_requests  # every partition asked
        assert query(db, "SELECT status FROM runs") == [("interrupted",)]
        assert query(db, "SELECT count(*) > 0 FROM judge_cache") == [(True,)]
        assert not any(shard_root(str(db)).iterdir())

        rerun = run_on_dask(settings)

    assert stub.requests == one_run_requests  # the resume paid for nothing twice
    assert rerun["rows_newly_scored"] == CASES
    assert rerun["rows_invalid"] == 0


def _wait_until_quiet(stub: StubServer, quiet: float = 1.0, seconds: float = 30) -> None:
    """Until `stub` has had no request for `quiet` seconds (at most `seconds`)."""
    deadline = time.monotonic() + seconds
    seen, since = stub.requests, time.monotonic()
    while time.monotonic() - since < quiet:
        assert time.monotonic() < deadline, "the stub never went quiet"
        time.sleep(0.1)
        if stub.requests != seen:
            seen, since = stub.requests, time.monotonic()
