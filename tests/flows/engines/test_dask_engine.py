"""The Dask engine on one real 2-process cluster, under the Prefect test harness: equal to
the local engine through Prefect's DaskTaskRunner (same rows in every output table, same run
counts) and a re-run skips everything; a task that keeps failing fails the run and keeps what
was committed; without the extra, `--engine dask` says what to install; with the LLM judge,
the cluster-wide cap on calls in flight holds (counted at a real HTTP stub) while a worker is
SIGKILLed mid-task and replaced (no case invalid); a flow process killed mid-run resumes with
nothing lost, counted or paid for twice; an interrupted run keeps the replies of shards it had
not loaded; a call cap is refused on Dask; and a cluster that has no worker, finishes nothing
in time or loses its scheduler ends the run with exit 10 and one line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from data.generate import generate_cases
from flows.engines.dask_run import run_on_dask, run_score_on_dask, shard_root
from flows.engines.partition_task import PartitionJob
from flows.engines.submitters import ClientSubmitter, result_in_slices
from flows.errors import ClusterUnavailable, InputUnreadable
from flows.judges.settings import JudgeSettings
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.db_reading import query
from tests.support.engine_sources import mixed_source, output_tables, run_counts
from tests.support.openai_stub import StubServer, serving

ROWS = 3_000
BATCH = 700  # five partitions, some spanning two files
# The LLM judge's cases: four partitions, both workers asking at once, at most CAP in flight.
CASES = 60
LLM_BATCH = 15
CAP = 3
# The key the LLM tests' stub expects; workers read it from their environment, as they
# would on a real cluster (it is never shipped with a task).
KEY = "sk-engine-test"
# Prices and cost of the runs (an offline judge's: zero, not unknown).
COSTS = "SELECT price_input_usd, price_output_usd, cost_usd FROM runs ORDER BY started_at"


@pytest.fixture(scope="module")
def dask_client(prefect_harness: None) -> Iterator[object]:
    """One real LocalCluster of two worker processes for this module (started once, ~4 s),
    reporting to the harness's API."""
    import dask
    from distributed import Client, LocalCluster

    from flows.engines.cluster import worker_environment
    from flows.orchestration.dask_flow import prefect_api_url

    # A killed worker's semaphore leases come back after 3 s, not 30 (scheduler and workers).
    locks = {"lease-timeout": "3s", "lease-validation-interval": "1s"}
    env = {
        **worker_environment(prefect_api_url()),
        "OPENAI_API_KEY": KEY,
        **{
            f"DASK_DISTRIBUTED__SCHEDULER__LOCKS__{k.upper().replace('-', '_')}": v
            for k, v in locks.items()
        },
    }
    with (
        dask.config.set({f"distributed.scheduler.locks.{k}": v for k, v in locks.items()}),
        LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            env=env,
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client


@pytest.fixture
def scheduler(dask_client: object) -> str:
    return dask_client.scheduler.address  # type: ignore[attr-defined]


@pytest.fixture
def api_key(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    return KEY


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return mixed_source(tmp_path_factory.mktemp("engines") / "logs", ROWS)


@pytest.fixture(scope="module")
def local_db(source: Path) -> Path:
    db = source.parent / "local.duckdb"
    run_score(ScoreSettings(source=str(source), db=str(db), batch_size=BATCH))
    return db


def test_dask_equals_local_through_prefect_and_a_plain_rerun_skips_everything(
    source: Path, local_db: Path, scheduler: str, tmp_path: Path
) -> None:
    from flows.orchestration.score_flow import score_flow_on_dask

    db = tmp_path / "dask.duckdb"
    settings = ScoreSettings(
        source=str(source),
        db=str(db),
        batch_size=BATCH,
        engine="dask",
        scheduler=scheduler,
    )
    run = score_flow_on_dask(settings)

    assert run["status"] == "completed"
    assert run["batches"] == 5
    expected, got = output_tables(local_db), output_tables(db)
    for table, frame in expected.items():
        assert got[table].equals(frame), table
    assert run_counts(db) == run_counts(local_db)
    assert query(db, COSTS) == query(local_db, COSTS) == [(0.0, 0.0, 0.0)]
    assert not Path(f"{db}.shards").exists() or not any(Path(f"{db}.shards").iterdir())

    again = run_on_dask(settings)  # the plain route: the same engine without Prefect
    assert again["rows_already_scored"] == run["rows_scored"]
    assert again["rows_newly_scored"] == 0
    assert output_tables(db)["case_scores"].equals(expected["case_scores"])
    # each partition ran as a task run of its flow run, reported by a worker to the flow's API
    assert _partition_task_runs_by_flow_run() == [5]


@pytest.mark.slow
def test_a_task_that_keeps_failing_fails_the_run_and_keeps_what_was_committed(
    source: Path, scheduler: str, tmp_path: Path
) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    cases = generate_cases(2_000, seed=3)
    cases.slice(0, 1_000).write_parquet(logs / "part-0.parquet")
    cases.slice(1_000).write_parquet(tmp_path / "whole.parquet")
    _corrupt_column(tmp_path / "whole.parquet", "actual_output", logs / "part-1.parquet")
    db = tmp_path / "faith.duckdb"
    settings = ScoreSettings(
        source=str(logs), db=str(db), batch_size=1_000, engine="dask", scheduler=scheduler
    )

    with pytest.raises(InputUnreadable, match=r"part-1\.parquet: cannot read its data"):
        run_on_dask(settings)

    [(status, error, batches, rows_in)] = query(
        db, "SELECT status, error, batches, rows_in FROM runs"
    )
    assert status == "failed"
    assert "InputUnreadable" in error
    # the first file's partition was committed (loaded in order, before the failing one)
    assert batches == 1
    assert rows_in == 1_000
    assert (
        query(db, "SELECT count(*) FROM case_scores")[0][0]
        + query(db, "SELECT count(DISTINCT row_key) FROM quarantine")[0][0]
        == rows_in
    )


def test_without_the_extra_dask_exits_2_saying_what_to_install(
    source: Path, tmp_path: Path
) -> None:
    code = (
        "import sys; sys.modules['distributed'] = None; sys.modules['prefect_dask'] = None\n"
        "from flows.cli import main\n"
        f"sys.exit(main(['score', {str(source)!r}, '--db', {str(tmp_path / 'x.duckdb')!r}, "
        "'--engine', 'dask', '--prefect', 'no']))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=Path(__file__).resolve().parents[3],
    )
    assert done.returncode == 2, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    assert "pip install 'faithpipe[dask]'" in lines[0]
    assert not (tmp_path / "x.duckdb").exists()


def _partition_task_runs_by_flow_run() -> list[int]:
    """Completed `score-partition` task runs on the harness, counted by flow run (None: a
    task run that did not reach its flow run)."""
    import asyncio
    from collections import Counter

    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import TaskRunFilter, TaskRunFilterName

    async def read() -> Counter:
        async with get_client() as client:
            runs = await client.read_task_runs(
                task_run_filter=TaskRunFilter(name=TaskRunFilterName(like_="score-partition"))
            )
        return Counter(r.flow_run_id for r in runs if r.state_name == "Completed")

    counts = asyncio.run(read())
    assert None not in counts
    return sorted(counts.values())


def _corrupt_column(source: Path, column: str, target: Path) -> Path:
    """A copy of `source` whose `column` pages of its last row group are overwritten; the
    footer stays valid, so planning succeeds and only the task reading it fails."""
    metadata = pq.ParquetFile(source).metadata
    group = metadata.row_group(metadata.num_row_groups - 1)
    chunk = next(
        group.column(i)
        for i in range(group.num_columns)
        if group.column(i).path_in_schema == column
    )
    data = bytearray(source.read_bytes())
    start = chunk.data_page_offset
    data[start : start + chunk.total_compressed_size] = b"\xab" * chunk.total_compressed_size
    target.write_bytes(bytes(data))
    return target


@pytest.fixture(scope="module")
def llm_source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("llm") / "cases.parquet"
    generate_cases(CASES, seed=11).write_parquet(path)
    return path


def llm_settings(source: Path, db: Path, scheduler: str, base_url: str) -> ScoreSettings:
    return ScoreSettings(
        source=str(source),
        db=str(db),
        batch_size=LLM_BATCH,
        engine="dask",
        scheduler=scheduler,
        judge=JudgeSettings(
            kind="openai", model="stub", base_url=base_url, mode="per-item", concurrency=CAP
        ),
    )


@pytest.fixture(scope="module")
def one_run_requests(
    llm_source: Path, dask_client: object, tmp_path_factory: pytest.TempPathFactory
) -> int:
    """Judge requests one uninterrupted Dask run of the LLM cases makes (a few more than a
    local run's: partitions share passages and run at once)."""
    db = tmp_path_factory.mktemp("baseline") / "faith.duckdb"
    address = dask_client.scheduler.address  # type: ignore[attr-defined]
    with serving(api_key=KEY) as stub, pytest.MonkeyPatch.context() as patch:
        patch.setenv("OPENAI_API_KEY", KEY)
        run_on_dask(llm_settings(llm_source, db, address, stub.base_url))
        return stub.requests


def wait_for(condition: object, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


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
        wait_for(lambda: stub.requests >= 30, 60)
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
            wait_for(lambda: stub.requests >= 90 or child.poll() is not None, 90)
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


def test_a_call_cap_on_dask_is_refused_with_exit_2(llm_source: Path, tmp_path: Path) -> None:
    from flows.cli import main

    for cap in ("--max-calls", "--max-tokens"):
        argv = ["score", str(llm_source), "--db", str(tmp_path / "x.duckdb"), "--engine", "dask"]
        assert main([*argv, "--judge", "openai", "--model", "m", cap, "5"]) == 2
    assert not (tmp_path / "x.duckdb").exists()


def test_a_cluster_that_finishes_nothing_ends_the_wait_with_exit_10(dask_client: object) -> None:
    # The task outlasts the 0.3 s timeout by far: the wait must end before the task does.
    task_seconds = 6.0
    sleeping = dask_client.submit(time.sleep, task_seconds, pure=False)  # type: ignore[attr-defined]
    started = time.monotonic()
    with pytest.raises(ClusterUnavailable, match=r"--task-timeout 0\.3 s") as raised:
        result_in_slices(sleeping, 0.3)
    assert time.monotonic() - started < task_seconds
    assert raised.value.exit_code == 10
    dask_client.cancel([sleeping])  # type: ignore[attr-defined]


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
            wait_for(lambda: stub.requests >= 3 or child.poll() is not None, 180)
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


def _wait_until_quiet(stub: StubServer, quiet: float = 1.0, seconds: float = 30) -> None:
    """Until `stub` has had no request for `quiet` seconds (at most `seconds`)."""
    deadline = time.monotonic() + seconds
    seen, since = stub.requests, time.monotonic()
    while time.monotonic() - since < quiet:
        assert time.monotonic() < deadline, "the stub never went quiet"
        time.sleep(0.1)
        if stub.requests != seen:
            seen, since = stub.requests, time.monotonic()


def _lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]
