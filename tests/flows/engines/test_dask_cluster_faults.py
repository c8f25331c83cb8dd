"""A Dask cluster that has no worker, loses its scheduler mid-run, or whose workers die
running a partition each time it is tried (their memory limit), ends the run with exit 10
and one line (a scheduler and a worker of their own, in child processes; the LLM judge
asks a real HTTP stub); a source Dask does not read is refused (exit 2) before the cluster is
asked, the database made or the judge paid. Split from test_dask_engine.py so both pytest
workers share the trials."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from flows.engines.dask_run import run_on_dask
from flows.engines.submitters import result_in_slices
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
def scheduler_process(scheduler_file: Path, repo: Path, env: dict[str, str]) -> subprocess.Popen:
    """A Dask scheduler of its own, on free ports, writing its address to `scheduler_file`."""
    return subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--port", "0",
         "--dashboard-address", ":0", "--scheduler-file", str(scheduler_file)],
        cwd=repo, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


@pytest.mark.timeout(600)
def test_no_worker_or_a_lost_scheduler_exit_10_with_one_line(
    llm_source: Path, api_key: str, tmp_path: Path
) -> None:
    repo = Path(__file__).resolve().parents[3]
    scheduler_file = tmp_path / "scheduler.json"
    env = {**os.environ, "OPENAI_API_KEY": api_key}
    cluster = scheduler_process(scheduler_file, repo, env)
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


@pytest.mark.timeout(600)
def test_a_source_dask_does_not_read_is_refused_before_the_cluster_the_database_or_the_judge(
    api_key: str, tmp_path: Path
) -> None:
    """dask.md: CSV, JSON and conversations are refused before anything is read (exit 2, one
    line). The refusal came only after the cluster was joined: at a scheduler with no worker
    yet, `faith score logs/ --engine dask` waited --task-timeout (an hour by default) and
    exited 10 'has no worker'; `faith nightly` also made the database and paid the LLM judge's
    preflight first."""
    repo = Path(__file__).resolve().parents[3]
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "a.csv").write_text(
        "case_id,input,actual_output,retrieval_context,logged_at\n"
        'c1,Q?,Order A17 shipped.,"[""Order A17 shipped.""]",2026-11-01\n'
    )
    chats = tmp_path / "chats.jsonl"
    messages = [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello."}]
    chats.write_text(json.dumps({"conversation_id": "c1", "messages": messages}) + "\n")
    scheduler_file = tmp_path / "scheduler.json"
    env = {**os.environ, "OPENAI_API_KEY": api_key}
    cluster = scheduler_process(scheduler_file, repo, env)
    try:
        wait_for(scheduler_file.exists, 120)  # a hang guard, as above
        wait_for(lambda: "address" in scheduler_file.read_text(), 60)
        address = json.loads(scheduler_file.read_text())["address"]
        with serving(api_key=api_key) as stub:
            for command, source in (("score", logs), ("nightly", chats)):
                db = tmp_path / f"{command}.duckdb"
                done = subprocess.run(
                    [sys.executable, "-m", "flows", command, str(source), "--db", str(db),
                     "--engine", "dask", "--scheduler", address, "--task-timeout", "20",
                     "--prefect", "no", "--judge", "openai", "--model", "stub",
                     "--base-url", stub.base_url],
                    cwd=repo, env=env, capture_output=True, text=True, timeout=300, check=False,
                )  # fmt: skip
                assert done.returncode == 2, (command, done.stderr)
                [line] = _lines(done.stderr)
                assert line.startswith(f"error: {source}: --engine dask reads one Parquet"), line
                assert not db.exists(), command
            assert stub.requests == 0
    finally:
        cluster.kill()
        cluster.wait(timeout=30)


def _lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


@pytest.mark.timeout(300)
def test_a_partition_that_kills_every_worker_running_it_is_exit_10_saying_what_to_do() -> None:
    """A worker's nanny kills it past its memory limit (`dask worker --memory-limit`); the
    scheduler tries the task on another, then gives up with KilledWorker, which ended the run
    with exit 1, as a bug ('Attempted to run task ... on 4 different workers')."""
    import dask
    from distributed import Client, LocalCluster

    # given up after the first death, not the fourth: each death restarts a worker process
    with (
        dask.config.set({"distributed.scheduler.allowed-failures": 0}),
        LocalCluster(
            n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster,
        Client(cluster) as client,
    ):
        dying = client.submit(os._exit, 1, key="score-partition-20261207T100000-0a1b2c3d-3")
        with pytest.raises(ClusterUnavailable) as raised:
            result_in_slices(dying, 240)
    assert raised.value.exit_code == 10
    assert str(raised.value) == (
        "partition 3's task ended the worker running it, 1 time in a row (a worker killed by "
        "its memory limit, most often): lower --batch-size or give the workers more memory; "
        "committed batches are kept"
    )


@pytest.mark.parametrize("stopping", [False, True], ids=["completed", "stopping"])
def test_a_close_past_its_deadline_is_one_warning_not_a_hang(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, stopping: bool
) -> None:
    """A stopping run closes its client and cluster with further stops deferred, and
    LocalCluster.close waits without a deadline: a worker that never answered would have held
    the process with no Ctrl-C to end it. Each close now has CLOSE_TIMEOUT; past it, one
    warning line and the run's own exit (a TimeoutError would have replaced it). Here the
    deadline is 0, which no real client of a local cluster can close within (one of 15
    closed within 0.1 ms, the deadline this test had: a flaky test)."""
    import distributed

    from flows.engines import cluster as clusters

    monkeypatch.setattr(clusters, "CLOSE_TIMEOUT", 0)
    local = distributed.LocalCluster(
        n_workers=1, processes=False, dashboard_address=None, silence_logs=50
    )
    try:
        clusters.closed_within(distributed.Client(local), stopping)
    finally:
        local.close(timeout=60)
    assert "the Dask Client did not close within 0 s" in caplog.text


@pytest.mark.timeout(300)
@pytest.mark.parametrize(
    "batch_size",
    [
        pytest.param(LLM_BATCH, id="refused-asking-what-partitions-share-before-they-start"),
        pytest.param(60, id="refused-on-the-worker-of-a-single-partition"),
    ],
)
def test_a_refused_api_key_is_told_once_with_its_time_as_the_local_engine_does(
    llm_source: Path, tmp_path: Path, batch_size: int
) -> None:
    # Each worker's judge printed the endpoint's refusal itself, untimestamped and unscrubbed
    # (a worker process has no handler: logging's last resort), once a partition. Partitions
    # sharing items: the flow process asks those first, and is refused itself.
    repo = Path(__file__).resolve().parents[3]
    env = {**os.environ, "OPENAI_API_KEY": "sk-wrong"}
    with serving(api_key=KEY) as stub:
        command = [
            sys.executable, "-m", "flows", "score", str(llm_source), "--db",
            str(tmp_path / "faith.duckdb"), "--engine", "dask", "--workers", "2", "--prefect",
            "no", "--batch-size", str(batch_size), "--judge", "openai", "--model", "stub",
            "--base-url", stub.base_url,
        ]  # fmt: skip
        done = subprocess.run(
            command, cwd=repo, env=env, capture_output=True, text=True, timeout=240, check=False
        )
    assert done.returncode == 6, done.stderr
    assert stub.requests > 0  # the judge asked, and was refused
    refusal = "the endpoint refused the API key read from $OPENAI_API_KEY (HTTP 401)"
    told = [line for line in _lines(done.stderr) if refusal in line]
    assert len(told) == 2, done.stderr  # the refusal, then the run's error
    assert re.fullmatch(r"\d\d:\d\d:\d\d judge endpoint: .*; no further calls are made", told[0])
    assert told[1].startswith("error: "), done.stderr
    assert "sk-wrong" not in done.stdout + done.stderr


@pytest.mark.timeout(300)
def test_a_breaker_opened_on_a_worker_is_told_once_as_the_local_engine_does(
    llm_source: Path, tmp_path: Path
) -> None:
    """An endpoint no call reaches (a name that never resolves) opens a partition's breaker:
    the local engine says so in the run's error line alone. The flow process said it twice,
    first as an endpoint's refusal (`judge endpoint: the judge endpoint ... run again; no
    further calls are made`), its end said twice over, then as the error."""
    repo = Path(__file__).resolve().parents[3]
    command = [
        sys.executable, "-m", "flows", "score", str(llm_source), "--db",
        str(tmp_path / "faith.duckdb"), "--engine", "dask", "--workers", "2", "--prefect", "no",
        "--batch-size", "60", "--judge", "openai", "--model", "stub", "--base-url",
        "http://judge.invalid:8000/v1",
    ]  # fmt: skip
    done = subprocess.run(
        command, cwd=repo, env={**os.environ, "OPENAI_API_KEY": KEY}, capture_output=True,
        text=True, timeout=240, check=False,
    )  # fmt: skip
    assert done.returncode == 6, done.stderr
    told = [line for line in _lines(done.stderr) if "does not resolve" in line]
    assert len(told) == 1, done.stderr
    assert told[0].startswith("error: the judge endpoint judge.invalid:8000 has a host name")


@pytest.mark.timeout(600)
def test_a_worker_that_dies_mid_task_is_said_once_and_its_answered_calls_are_not_paid_again(
    llm_source: Path, tmp_path: Path
) -> None:
    # A worker killed mid-partition (the kernel's OOM killer, a kill -9) is replaced by its
    # nanny and its task run again: the run ended 0 and said nothing of it (Dask's own lines
    # stay off the console). The replies the dead worker had got lived in its memory: the
    # retry asked every one of those calls again, and paid. Each reply is journalled as it
    # arrives now; only the calls in flight at the kill (two at most: a cap of 2) are asked
    # again. One partition: the test counts one task's retry, with no shared items asked
    # by the flow process before it (docs/dask.md).
    import psutil

    repo = Path(__file__).resolve().parents[3]
    # The dead worker's cluster-wide leases expire after Dask's 30 s (lease-timeout) before
    # the retry may ask: shortened here, as the run reads Dask's config from the environment.
    env = {
        **os.environ,
        "OPENAI_API_KEY": KEY,
        "DASK_DISTRIBUTED__SCHEDULER__LOCKS__LEASE_TIMEOUT": "3s",
        "DASK_DISTRIBUTED__SCHEDULER__LOCKS__LEASE_VALIDATION_INTERVAL": "500ms",
    }
    db = tmp_path / "faith.duckdb"
    with serving(api_key=KEY, delay=0.05) as stub:
        command = [
            sys.executable, "-m", "flows", "score", str(llm_source), "--db", str(db),
            "--engine", "dask", "--workers", "1", "--prefect", "no", "--batch-size", "60",
            "--judge", "openai", "--model", "stub", "--base-url", stub.base_url,
            "--judge-mode", "per-item", "--concurrency", "2", "--timeout", "30",
        ]  # fmt: skip
        run = subprocess.Popen(
            command, cwd=repo, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        try:
            wait_for(lambda: stub.requests >= 12 or run.poll() is not None, 240)
            workers = [
                child
                for child in psutil.Process(run.pid).children()
                if "spawn_main" in " ".join(child.cmdline())
            ]
            assert workers, "no worker process found"
            workers[0].kill()
            stub.delay = 0.0  # the kill is done: the rest of the run need not crawl
            out, err = run.communicate(timeout=480)  # a hang guard: ~1 min on a quiet machine
        finally:
            if run.poll() is None:
                run.kill()
                run.communicate()
        asked = [json.dumps(body["messages"], sort_keys=True) for body in stub.bodies]
    assert run.returncode == 0, err
    told = [line for line in _lines(err) if "Dask worker" in line]
    assert len(told) == 1, err
    assert re.fullmatch(
        r"\d\d:\d\d:\d\d a Dask worker \(tcp://127\.0\.0\.1:\d+\) ended mid-run, with "
        r"partition 1 to score: the scheduler gives it to another worker \(up to \d+ tries\), "
        r"which asks again only the LLM judge calls left unanswered there",
        told[0],
    ), err
    assert "completed" in out
    assert len(asked) - len(set(asked)) <= 2
    assert query(db, "SELECT count(*) FROM case_scores") == [(60,)]
    assert not Path(f"{db}.shards").exists() or not any(Path(f"{db}.shards").iterdir())


# A warning a task logs on a worker of the run's local cluster (its judge's cache unreadable,
# its HTTP connections not closed in time), with a key-like text a server echoed in it.
_WORKER_WARNING = """
import logging, sys
from flows.cli.output import configure_logging
from flows.engines.cluster import dask_client
from flows.run.settings import ScoreSettings

def warn():
    logging.getLogger("flows.judges.live.judge").warning(
        "judge cache unreadable (OSError: server said sk-echoedkey1234567890); asking the endpoint"
    )
    return 1

configure_logging()
with dask_client(ScoreSettings(source="-", engine="dask", workers=1)) as client:
    assert client.submit(warn, pure=False).result(timeout=120) == 1
print("done", flush=True)
"""


@pytest.mark.timeout(300)
def test_a_warning_logged_on_a_worker_is_printed_by_the_flow_process_timestamped_scrubbed() -> None:
    # A worker process has no handler: logging's last resort printed its warnings on the
    # terminal itself, with no time and no scrubbing filter (an echoed key went out whole).
    repo = Path(__file__).resolve().parents[3]
    done = subprocess.run(
        [sys.executable, "-c", _WORKER_WARNING], cwd=repo, capture_output=True, text=True,
        timeout=240, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    told = [line for line in _lines(done.stderr) if "judge cache unreadable" in line]
    assert len(told) == 1, done.stderr
    assert re.fullmatch(
        r"\d\d:\d\d:\d\d judge cache unreadable \(OSError: server said \[redacted\]\); "
        r"asking the endpoint",
        told[0],
    ), done.stderr
    assert "sk-echoedkey" not in done.stdout + done.stderr
