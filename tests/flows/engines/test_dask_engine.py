"""The Dask engine on one real 2-process cluster, under the Prefect test harness: equal to
the local engine through Prefect's DaskTaskRunner (same rows in every output table, same run
counts) and a re-run skips everything; a task that keeps failing fails the run and keeps what
was committed; without the extra, `--engine dask` says what to install; a call cap is refused
on Dask; a cluster that finishes nothing in time ends the wait with exit 10.

The LLM judge on Dask (a cap held cluster-wide while a worker is killed, a killed flow process,
an interrupted run): test_dask_llm_faults.py; no worker or a lost scheduler:
test_dask_cluster_faults.py (split so the two pytest workers share the trials)."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from data.generate import generate_cases
from flows.engines.dask_run import run_on_dask
from flows.engines.submitters import result_in_slices
from flows.errors import ClusterUnavailable, InputUnreadable
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.dask_cluster import local_cluster, write_llm_source
from tests.support.db_reading import query
from tests.support.engine_sources import mixed_source, output_tables, run_counts

ROWS = 3_000
BATCH = 700  # five partitions, some spanning two files
# Prices and cost of the runs (an offline judge's: zero, not unknown).
COSTS = "SELECT price_input_usd, price_output_usd, cost_usd FROM runs ORDER BY started_at"


@pytest.fixture(scope="module")
def dask_client(prefect_harness: None) -> Iterator[object]:
    """One real LocalCluster of two worker processes for this module (started once, ~4 s),
    reporting to the harness's API."""
    with local_cluster() as client:
        yield client


@pytest.fixture
def scheduler(dask_client: object) -> str:
    return dask_client.scheduler.address  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def llm_source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_llm_source(tmp_path_factory.mktemp("llm") / "cases.parquet")


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
        timeout=300,  # a hang guard: at load 30 this child's imports outlasted 60 s
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


def test_a_call_cap_on_dask_is_refused_with_exit_2(llm_source: Path, tmp_path: Path) -> None:
    from flows.cli import main

    for cap in ("--max-calls", "--max-tokens"):
        argv = ["score", str(llm_source), "--db", str(tmp_path / "x.duckdb"), "--engine", "dask"]
        assert main([*argv, "--judge", "openai", "--model", "m", cap, "5"]) == 2
    assert not (tmp_path / "x.duckdb").exists()


def test_a_result_that_takes_longer_than_a_slice_to_fetch_arrives_whole(
    dask_client: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Slices far shorter than fetching 20 MB from a worker takes: asking `result(timeout=)`
    # slice after slice failed here every time with UnboundLocalError from distributed.
    monkeypatch.setattr("flows.engines.submitters._POLL_SECONDS", 0.005)
    for size in (20_000_000, 20_000_001):
        large = dask_client.submit("x".__mul__, size, pure=False)  # type: ignore[attr-defined]
        assert len(result_in_slices(large, 60)) == size
        del large


class FinishedButUnreachable:
    """A finished task whose fetch raises `error` (by default a timeout: its worker gone,
    nobody to rerun it): a stand-in, since a real cluster would need a worker killed at that
    very moment."""

    def __init__(self, error: Exception | None = None) -> None:
        self.error = error
        self.fetch_timeouts: list[float] = []

    def done(self) -> bool:
        return True

    def result(self, timeout: float) -> str:
        self.fetch_timeouts.append(timeout)
        raise self.error or TimeoutError(f"timed out after {timeout} s.")


def test_a_finished_result_that_cannot_be_fetched_ends_the_wait_with_exit_10() -> None:
    handle = FinishedButUnreachable()
    with pytest.raises(ClusterUnavailable, match="could not be fetched within 30 s") as raised:
        result_in_slices(handle, 0.3)
    assert raised.value.exit_code == 10
    # fetched once, and given time to arrive though --task-timeout is nearly spent
    assert [timeout >= 30 for timeout in handle.fetch_timeouts] == [True]


def test_a_cancelled_task_is_a_lost_cluster_and_a_task_error_stays_itself() -> None:
    from concurrent.futures import CancelledError

    with pytest.raises(ClusterUnavailable, match="scheduler was lost"):
        result_in_slices(FinishedButUnreachable(CancelledError("score-partition-x-1")), 5)
    with pytest.raises(ValueError, match="a bug in the partition"):
        result_in_slices(FinishedButUnreachable(ValueError("a bug in the partition")), 5)


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
