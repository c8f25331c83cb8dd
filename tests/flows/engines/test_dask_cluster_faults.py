"""A Dask cluster that has no worker, or loses its scheduler mid-run, ends the run with
exit 10 and one line (a scheduler and a worker of their own, in child processes; the LLM judge
asks a real HTTP stub). Split from test_dask_engine.py so both pytest workers share the
trials."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from flows.engines.dask_run import run_on_dask
from flows.errors import ClusterUnavailable
from tests.support.dask_cluster import KEY, LLM_BATCH, llm_settings, wait_for, write_llm_source
from tests.support.db_reading import query
from tests.support.openai_stub import serving


@pytest.fixture
def api_key(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    return KEY


@pytest.fixture
def llm_source(tmp_path: Path) -> Path:
    return write_llm_source(tmp_path / "cases.parquet")


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_no_worker_or_a_lost_scheduler_exit_10_with_one_line(
    llm_source: Path, api_key: str, tmp_path: Path
) -> None:
    repo = Path(__file__).resolve().parents[3]
    scheduler_file = tmp_path / "scheduler.json"
    env = {**os.environ, "OPENAI_API_KEY": api_key}
    cluster = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--port", "0",
         "--dashboard-address", ":0", "--scheduler-file", str(scheduler_file)],
        cwd=repo, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    worker = None
    try:
        # Bounds against a hang, not promises: at load 20 a scheduler took longer than 30 s.
        wait_for(scheduler_file.exists, 120)
        wait_for(lambda: "address" in scheduler_file.read_text(), 60)
        address = json.loads(scheduler_file.read_text())["address"]
        db = tmp_path / "faith.duckdb"
        with serving(api_key=api_key, delay=0.05) as stub:
            command = [
                sys.executable, "-m", "flows", "score", str(llm_source), "--db", str(db),
                "--engine", "dask", "--scheduler", address, "--prefect", "no",
                "--batch-size", str(LLM_BATCH), "--judge", "openai", "--model", "stub",
                "--base-url", stub.base_url, "--judge-mode", "per-item",
            ]  # fmt: skip
            lonely = llm_settings(llm_source, db, address, stub.base_url)
            with pytest.raises(ClusterUnavailable, match="has no worker") as raised:
                run_on_dask(lonely.model_copy(update={"task_timeout": 1.0}))
            assert str(raised.value) == (
                f"the Dask scheduler at {address} has no worker (none joined within "
                "--task-timeout 1 s): start workers, or use --workers N"
            )
            worker = subprocess.Popen(
                [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
                 "--no-nanny", "--dashboard-address", ":0"],
                cwd=repo, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )  # fmt: skip
            child = subprocess.Popen(
                command, cwd=repo, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                text=True,
            )  # fmt: skip
            wait_for(lambda: stub.requests >= 3 or child.poll() is not None, 300)
            cluster.kill()
            _, stderr = child.communicate(timeout=90)
        assert child.returncode == 10, stderr
        [line] = [line for line in _lines(stderr) if not line[:2].isdigit()]  # not progress
        assert line.startswith("error: the Dask scheduler was lost"), stderr
        assert query(db, "SELECT status FROM runs ORDER BY started_at DESC LIMIT 1") == [
            ("failed",)
        ]
    finally:
        for process in (worker, cluster):
            if process is not None:
                process.kill()
                process.wait(timeout=30)


def _lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]
