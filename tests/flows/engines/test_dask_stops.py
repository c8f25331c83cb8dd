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
from typing import IO

import pytest

from data.generate import generate_cases
from flows.judges.settings import JudgeSettings
from tests.support.db_reading import query
from tests.support.openai_stub import StubServer, serving

ROOT = Path(__file__).resolve().parents[3]
KEY = "sk-dask-stops"
# Generous: the stop is shown by the run row and the exit code, not by wall time on a
# machine shared with other work (a quiet one stops within 5 s).
HARD_TIMEOUT = 60


def stopped_mid_judge(
    stub: StubServer,
    sig: signal.Signals,
    source: Path,
    db: Path,
    *,
    batch_size: int,
    stderr: IO[str] | int = subprocess.DEVNULL,
    tasks_asking: bool = False,
) -> subprocess.Popen:
    """`faith score --engine dask` with the LLM judge on the stub, sent `sig` mid-run (its
    workers inside judge calls, holding cluster-wide leases); the ended process.
    `tasks_asking`: once the partitions' tasks have paid for replies (their journals beside
    the shards), not the flow process asking the items they share before they start."""
    command = [
        sys.executable, "-m", "flows", "score", str(source), "--db", str(db),
        "--engine", "dask", "--workers", "2", "--prefect", "no", "--batch-size", str(batch_size),
        "--judge", "openai", "--model", "stub", "--base-url", stub.base_url,
        "--judge-mode", "per-item", "--concurrency", "4",
    ]  # fmt: skip
    child = subprocess.Popen(
        command,
        cwd=ROOT,
        env={**os.environ, "OPENAI_API_KEY": KEY},
        stdout=subprocess.DEVNULL,
        stderr=stderr,
    )
    try:
        give_up = time.monotonic() + HARD_TIMEOUT * 2  # a hang guard, not a speed promise
        while child.poll() is None and (
            stub.requests < 30 or (tasks_asking and _journaled(db) < 30)
        ):
            assert time.monotonic() < give_up, "the run never reached the judge"
            time.sleep(0.05)
        child.send_signal(sig)
        child.wait(timeout=HARD_TIMEOUT)
    finally:
        if child.poll() is None:
            child.kill()
    return child


def _journaled(db: Path) -> int:
    """Replies the running tasks' journals beside the shards of `db` hold (a journal a task
    removes between the listing and its read holds none)."""
    held = 0
    for path in Path(f"{db}.shards").glob("*/part-*.replies-*.jsonl"):
        try:
            held += path.read_bytes().count(b"\n")
        except FileNotFoundError:
            continue
    return held


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_stopped_dask_run_with_the_llm_judge_is_quiet_and_marked(
    tmp_path: Path, sig: signal.Signals
) -> None:
    source = tmp_path / "cases.parquet"
    generate_cases(200, seed=11).write_parquet(source)
    db = tmp_path / "f.duckdb"
    err = tmp_path / "stderr.txt"
    with serving(api_key=KEY, delay=0.05) as stub, err.open("w") as stderr:
        child = stopped_mid_judge(stub, sig, source, db, batch_size=20, stderr=stderr)
    text = err.read_text()
    assert child.returncode == 128 + sig, text
    assert "ERROR" not in text
    assert "Traceback" not in text
    said = [line for line in text.splitlines() if line.startswith("interrupted")]
    assert said == [f"interrupted ({sig.name}): committed batches are kept; run again to finish"]
    assert query(db, "SELECT status, error FROM runs") == [
        ("interrupted", f"interrupted by {sig.name}")
    ]


@pytest.mark.slow
def test_the_replies_a_stopped_dask_runs_tasks_paid_for_are_not_paid_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGTERM while both workers' partitions are asking the judge: the closing workers stop
    their tasks' judges, and each task leaves the replies it had paid for beside the shards;
    the next run keeps them and asks none of them again. The tasks raised with their judges
    stopped and wrote nothing: every call made before the stop was paid twice."""
    from flows.run.pipeline import run_score
    from flows.run.settings import ScoreSettings
    from flows.store.stale_shards import shard_root, stale_replies

    source = tmp_path / "cases.parquet"
    generate_cases(200, seed=11).write_parquet(source)
    db = tmp_path / "f.duckdb"
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    with serving(api_key=KEY, delay=0.05) as stub:
        # both partitions at work: 100 cases each
        child = stopped_mid_judge(
            stub, signal.SIGTERM, source, db, batch_size=100, tasks_asking=True
        )
        assert child.returncode == 128 + signal.SIGTERM
        left = stale_replies(shard_root(str(db)))
        paid = {key for replies in left for key in replies["cache_key"]}
        assert paid, "the stopped tasks left no reply"
        # and the items the partitions share, asked before they started, are stored already
        paid |= {key for (key,) in query(db, "SELECT cache_key FROM judge_cache")}
        before = len(stub.bodies)
        judge = JudgeSettings(kind="openai", model="stub", base_url=stub.base_url, mode="per-item")
        run_score(ScoreSettings(source=str(source), db=str(db), judge=judge))
        asked_again = stub.bodies[before:]
    stored = {key for (key,) in query(db, "SELECT cache_key FROM judge_cache")}
    assert paid <= stored
    # every call of the next run was one the stopped run had not paid for
    assert len(asked_again) == len(stored) - len(paid)


@pytest.mark.slow
def test_a_dask_run_stopped_asking_what_its_partitions_share_keeps_and_counts_those_calls(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGTERM while the flow process asks the items both partitions share, before they
    start: the run is `interrupted`, counts the calls it made, and the replies they brought
    are in judge_cache, so the next run asks none of them again."""
    from flows.run.pipeline import run_score
    from flows.run.settings import ScoreSettings

    source = tmp_path / "cases.parquet"
    generate_cases(200, seed=11).write_parquet(source)
    db = tmp_path / "f.duckdb"
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    with serving(api_key=KEY, delay=0.05) as stub:
        child = stopped_mid_judge(stub, signal.SIGTERM, source, db, batch_size=100)
        assert child.returncode == 128 + signal.SIGTERM
        assert not _journaled(db)  # no partition had started
        [(status, calls)] = query(db, "SELECT status, judge_calls FROM runs")
        paid = {key for (key,) in query(db, "SELECT cache_key FROM judge_cache")}
        before = len(stub.bodies)
        judge = JudgeSettings(kind="openai", model="stub", base_url=stub.base_url, mode="per-item")
        run_score(ScoreSettings(source=str(source), db=str(db), judge=judge))
        asked_again = stub.bodies[before:]
    assert status == "interrupted"
    assert paid
    assert calls >= len(paid)
    stored = {key for (key,) in query(db, "SELECT cache_key FROM judge_cache")}
    assert len(asked_again) == len(stored) - len(paid)


# A worker told to close does not wait for its task's calls, nor for its interpreter's
# teardown (its nanny would kill it after 4 s): the two parts, each bounded by what the test
# holds (a server that never answers, a thread that sleeps far longer than the hard timeout).
HELD_SECONDS = 600


EXITING_WORKER = f"""
import atexit, threading, time
from flows.engines.worker_preload import dask_teardown
atexit.register(lambda: print("exit hooks ran", flush=True))
threading.Thread(target=time.sleep, args=({HELD_SECONDS},)).start()  # not a daemon
dask_teardown(None)  # the worker starts closing
print("worker closed", flush=True)
"""


def test_a_closed_worker_process_ends_after_its_exit_hooks_without_joining_threads() -> None:
    done = subprocess.run(
        [sys.executable, "-c", EXITING_WORKER],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=HARD_TIMEOUT,  # far less than the thread's sleep
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["worker closed", "exit hooks ran"]


@pytest.mark.timeout(HARD_TIMEOUT * 2)
def test_a_closing_worker_stops_the_judge_of_its_running_task(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The task's calls hang (the server never answers within --timeout 600): only the stop
    that the closing worker sends its judges can end the task."""
    import threading

    import polars as pl

    from flows.engines.worker_judge import ShardReplies, running_judge, stop_running_judges
    from flows.judges.settings import JudgeSettings

    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    answers = pl.DataFrame(
        {"key": [1, 2], "text": ["Parcel Z9 left.", "Parcel Z9 came."]},
        schema={"key": pl.UInt64, "text": pl.String},
    )
    with serving(api_key=KEY) as stub:
        stub.hang_on = "Parcel Z9"
        settings = JudgeSettings(
            kind="openai", model="stub", base_url=stub.base_url, mode="per-item",
            timeout=HELD_SECONDS, concurrency=2,
        )  # fmt: skip
        outcome: dict[str, pl.DataFrame] = {}

        def task() -> None:
            with running_judge(settings, ShardReplies(None), None) as judge:
                outcome["claims"] = judge.claims(answers)

        thread = threading.Thread(target=task, daemon=True)
        thread.start()
        give_up = time.monotonic() + HARD_TIMEOUT
        while stub.requests < 1:
            assert time.monotonic() < give_up, "the task never called the judge"
            time.sleep(0.02)
        assert stop_running_judges() == 1
        thread.join(HARD_TIMEOUT)
        assert not thread.is_alive()
        stub.hang_on = None  # the handlers still holding a hung request may end
    assert stop_running_judges() == 0  # the task's judge is no longer known
    claims = outcome["claims"]
    assert claims["error"].null_count() == 0  # both unjudged, each with its error


# `faith score --engine dask` whose local cluster starts slowly: each nanny says so, then
# waits 3 s before starting its worker, so the test's signal lands inside LocalCluster().
SLOW_CLUSTER_START = """
import asyncio, sys
from distributed import nanny
start = nanny.Nanny.start_unsafe
async def slow_start(self):
    print("nanny starting", flush=True)
    await asyncio.sleep(3)
    return await start(self)
nanny.Nanny.start_unsafe = slow_start
from flows.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_stop_while_the_local_cluster_starts_is_one_line(
    tmp_path: Path, sig: signal.Signals
) -> None:
    """Stopped inside LocalCluster(), the run printed its one line and then distributed's exit
    hook's traceback (`Exception ignored in atexit callback ... AssertionError: Status.init`)
    or asyncio's `Task exception was never retrieved ... Nanny failed to start`."""
    source = tmp_path / "cases.parquet"
    generate_cases(20, seed=11).write_parquet(source)
    command = [
        sys.executable, "-c", SLOW_CLUSTER_START, "score", str(source),
        "--db", str(tmp_path / "f.duckdb"), "--engine", "dask", "--workers", "2",
        "--prefect", "no",
    ]  # fmt: skip
    child = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None
        for line in child.stdout:  # ends if the child exits first
            if line.startswith("nanny starting"):
                child.send_signal(sig)
                break
        _, stderr = child.communicate(timeout=HARD_TIMEOUT)
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    assert child.returncode == 128 + sig, stderr
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith(f"interrupted ({sig.name})"), stderr


# `faith score --engine dask` that says when it waits for a partition, when its stop ends
# the progress and when it closes its local cluster, each of which then takes 2 s (a loaded
# machine's), so the test's signals land while the run is under way, then while it stops.
SLOW_STOP = """
import sys, threading, time
import distributed
from flows.engines.submitters import ClientSubmitter
from flows.run.progress import LogProgress
close, result, stop = distributed.LocalCluster.close, ClientSubmitter.result, LogProgress.stop
def slow_close(self, *args, **options):
    if threading.current_thread() is threading.main_thread():  # not Dask's own, in its loop
        print("cluster closing", flush=True)
        time.sleep(2)
    return close(self, *args, **options)
def slow_stop(self):
    print("progress stopping", flush=True)
    time.sleep(2)
    return stop(self)
LogProgress.stop = slow_stop
def said_result(self, handle, task_timeout):
    print("waiting for a partition", flush=True)
    return result(self, handle, task_timeout)
distributed.LocalCluster.close = slow_close
ClientSubmitter.result = said_result
from flows.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("moment", ["progress stopping", "cluster closing"])
def test_a_second_stop_while_a_stopped_run_cleans_up_changes_nothing(
    tmp_path: Path, moment: str
) -> None:
    """Ctrl-C, then SIGTERM (a service manager's) while the stop cleaned up (its progress,
    shard folder and store; the local cluster): the SIGTERM was raised there, so the run
    exited 143 saying `interrupted (SIGTERM)` while its row said `interrupted by SIGINT`.
    scoring.md: a second stop while stopping is noted and changes nothing."""
    source = tmp_path / "cases.parquet"
    generate_cases(200, seed=11).write_parquet(source)
    db = tmp_path / "f.duckdb"
    command = [
        sys.executable, "-c", SLOW_STOP, "score", str(source), "--db", str(db),
        "--engine", "dask", "--workers", "1", "--batch-size", "20", "--prefect", "no",
    ]  # fmt: skip
    child = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None
        for line in child.stdout:  # ends if the child exits first
            if line.startswith("waiting for a partition"):
                child.send_signal(signal.SIGINT)
            if line.startswith(moment):
                child.send_signal(signal.SIGTERM)
                break
        _, stderr = child.communicate(timeout=HARD_TIMEOUT)
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    assert child.returncode == 130, stderr
    assert stderr.splitlines()[-1].startswith("interrupted (SIGINT)"), stderr
    assert "SIGTERM: already stopping" in stderr
    assert "Traceback" not in stderr
    assert query(db, "SELECT status, error FROM runs") == [("interrupted", "interrupted by SIGINT")]
