"""Crash safety (issue 6): a nightly run killed with SIGKILL at any moment is resumed by the
next run with no case lost or duplicated, and the dead run is marked `superseded`: killed as it
starts, inside a batch's transaction, and between two commits."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from flows.nightly.nightly_run import run_nightly
from flows.run.settings import ScoreSettings
from flows.store.db import open_store, sql
from flows.store.run_registry import process_alive, supersede_dead_runs
from tests.support.builders import many_cases, write

ROOT = Path(__file__).resolve().parents[3]
# Eight batches (commits) of ten rows: the child holds still at the moment chosen,
# so the kill lands there however slow the machine, and a small source is enough.
N_CASES, BATCH = 80, 10
BATCHES = N_CASES // BATCH
# The child logs a line when the run starts and after each committed batch; `inside k` holds it
# inside batch k's transaction (its rows inserted, not committed), `after k` between batch k's
# commit and the next batch's write. The test SIGKILLs it on its "holding" line.
CHILD = """
import logging, sys, time
logging.basicConfig(level=logging.INFO, stream=sys.stdout, format="%(message)s")
from flows.nightly.nightly_run import run_nightly
from flows.run.progress import LogProgress
from flows.run.settings import ScoreSettings
from flows.store import batch_writes
where, hold_at = sys.argv[4], int(sys.argv[5])
def hold(what):
    print(f"holding {what}", flush=True)  # the test's cue
    time.sleep(600)
inserts, advances = [], []
insert, advance = batch_writes.run_sql_file, LogProgress.advance
def insert_then_hold(con, name, params=None):
    insert(con, name, params)
    if name == "insert_results":
        inserts.append(name)
        if where == "inside" and len(inserts) == hold_at:
            hold(f"inside batch {hold_at}'s transaction")
def advance_then_hold(self, *args):
    advance(self, *args)
    advances.append(1)
    if where == "after" and len(advances) == hold_at:
        hold(f"after batch {hold_at}'s commit")
batch_writes.run_sql_file = insert_then_hold
LogProgress.advance = advance_then_hold
run_nightly(ScoreSettings(source=sys.argv[1], db=sys.argv[2], batch_size=int(sys.argv[3])))
"""
# (the child's line the kill follows at once, where it holds, at which batch). The first is a
# moment nobody chose (as the run starts; the hold near the end only keeps the run from ending
# first); the others are inside a batch's transaction and between two commits.
MOMENTS = [
    ("rows to read", "after", BATCHES - 1),
    ("holding", "inside", BATCHES // 2),
    ("holding", "after", BATCHES - 2),
]


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_source(tmp_path_factory)


@pytest.fixture(scope="module")
def uninterrupted(source: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple:
    return score_uninterrupted(source, tmp_path_factory)


def write_source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write(many_cases(N_CASES), tmp_path_factory.mktemp("crash") / "cases.parquet")


def score_uninterrupted(source: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple:
    """The tables a run that nobody killed leaves: what every resumed run must equal."""
    db = tmp_path_factory.mktemp("baseline") / "f.duckdb"
    run = run_nightly(settings(source, db))
    assert (run["status"], run["rows_newly_scored"]) == ("completed", N_CASES)
    return snapshot(db)


def settings(source: Path, db: Path) -> ScoreSettings:
    return ScoreSettings(source=str(source), db=str(db), batch_size=BATCH)


def snapshot(db: Path) -> tuple[pl.DataFrame, pl.DataFrame]:
    """case_scores and claim_verdicts in a stable order, without run ids and timestamps."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        scores = con.sql(
            "SELECT * EXCLUDE (run_id, scored_at) FROM case_scores ORDER BY config_id, case_id"
        ).pl()
        verdicts = con.sql(
            "SELECT * FROM claim_verdicts ORDER BY config_id, case_id, claim_index"
        ).pl()
    finally:
        con.close()
    return scores, verdicts


def runs(db: Path) -> dict[str, dict]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        frame = con.sql("SELECT * FROM runs ORDER BY started_at").pl()
    finally:
        con.close()
    return {row["run_id"]: row for row in frame.iter_rows(named=True)}


def kill_at(source: Path, db: Path, wanted: str, where: str, hold_at: int) -> int:
    """Start the nightly job in a child process that holds `where` (inside, after) batch
    `hold_at` and SIGKILL it on its line saying `wanted`; returns the child's pid."""
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(source), str(db), str(BATCH), where, str(hold_at)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    seen = []
    assert child.stdout is not None
    for line in child.stdout:  # ends when the child exits
        seen.append(line)
        if wanted in line:
            child.send_signal(signal.SIGKILL)
            break
    child.wait(timeout=60)  # a hang guard, never reached: SIGKILL cannot be ignored
    child.stdout.close()
    assert child.returncode == -signal.SIGKILL, "".join(seen[-20:])
    return child.pid


@pytest.mark.slow
@pytest.mark.parametrize(("wanted", "where", "hold_at"), MOMENTS)
def test_killed_run_resumes_to_the_same_tables(
    source: Path, uninterrupted: tuple, tmp_path: Path, wanted: str, where: str, hold_at: int
) -> None:
    kill_and_resume(source, uninterrupted, tmp_path / "f.duckdb", (wanted, where, hold_at))


def kill_and_resume(
    source: Path, uninterrupted: tuple, db: Path, moment: tuple[str, str, int]
) -> None:
    """SIGKILL the nightly job at the moment given, resume it, and compare with `uninterrupted`:
    no case lost or scored twice, the dead run `superseded`."""
    wanted, where, hold_at = moment
    pid = kill_at(source, db, wanted, where, hold_at)

    ((killed_id, killed),) = runs(db).items()
    assert (killed["status"], killed["pid"]) == ("running", pid)
    if wanted == "holding":  # killed where it held: exactly the batches committed before
        assert killed["batches"] == (hold_at - 1 if where == "inside" else hold_at)
    assert killed["rows_newly_scored"] == killed["batches"] * BATCH < N_CASES

    resumed = run_nightly(settings(source, db))
    assert resumed["status"] == "completed"
    # Every case scored exactly once over the two runs: none lost, none twice.
    assert resumed["rows_newly_scored"] == N_CASES - killed["rows_newly_scored"]
    assert resumed["rows_already_scored"] == killed["rows_newly_scored"]

    after = runs(db)[killed_id]
    assert after["status"] == "superseded"
    assert f"process {pid}" in after["error"]

    scores, verdicts = snapshot(db)
    assert scores["case_id"].n_unique() == scores.height == N_CASES
    assert verdicts.select("config_id", "case_id", "claim_index").is_duplicated().sum() == 0
    expected_scores, expected_verdicts = uninterrupted
    assert_frame_equal(scores, expected_scores)
    assert_frame_equal(verdicts, expected_verdicts)


def _insert_run(con: duckdb.DuckDBPyConnection, run_id: str, **fields: object) -> None:
    now = datetime.now(UTC).replace(tzinfo=None)
    params = {
        "run_id": run_id,
        "flow": "nightly",
        "config_id": "faith-test",
        "config": "{}",
        "source": "logs",
        "now": now,
        "pid": os.getpid(),
        "host": socket.gethostname(),
    }
    params.update(fields)
    con.execute(sql("start_run"), params)


def _wait_until_zombie(pid: int) -> None:
    for _ in range(200):  # bounded: 10 s at most
        if not process_alive(pid):
            return
        time.sleep(0.05)
    pytest.fail(f"process {pid} did not end")


@pytest.mark.skipif(
    not Path("/proc/self/stat").exists(), reason="zombies and pid reuse are read from /proc"
)
def test_only_runs_of_dead_processes_are_superseded(tmp_path: Path) -> None:
    here = socket.gethostname()
    now = datetime.now(UTC).replace(tzinfo=None)
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    zombie = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    zombie.kill()  # not reaped until wait(): a zombie meanwhile
    _wait_until_zombie(zombie.pid)
    con = open_store(tmp_path / "f.duckdb")
    try:
        _insert_run(con, "ended", pid=ended.pid, host=here)
        _insert_run(con, "zombie", pid=zombie.pid, host=here)
        _insert_run(con, "this-process", pid=os.getpid(), host=here)
        _insert_run(con, "parent-alive", pid=os.getppid(), host=here)
        # The parent process started after this run did: its pid was reused.
        _insert_run(con, "pid-reused", pid=os.getppid(), host=here, now=datetime(2000, 1, 1))
        _insert_run(con, "remote-fresh", host="elsewhere", now=now - timedelta(minutes=5))
        _insert_run(con, "remote-stale", host="elsewhere", now=now - timedelta(hours=2))
        _insert_run(con, "unknown-stale", pid=None, host=None, now=now - timedelta(hours=2))
        _insert_run(con, "done", pid=ended.pid, host=here)
        con.execute("UPDATE runs SET status = 'completed' WHERE run_id = 'done'")

        superseded = supersede_dead_runs(con)
        assert sorted(superseded) == [
            "ended",
            "pid-reused",
            "remote-stale",
            "unknown-stale",
            "zombie",
        ]
        status = dict(con.execute("SELECT run_id, status FROM runs").fetchall())
        assert {k for k, v in status.items() if v == "running"} == {
            "this-process",
            "parent-alive",
            "remote-fresh",
        }
        assert status["done"] == "completed"
        notes = dict(con.execute("SELECT run_id, error FROM runs").fetchall())
        assert f"process {ended.pid} on {here} ended" in notes["ended"]
        assert "no heartbeat from process" in notes["remote-stale"]
        assert supersede_dead_runs(con) == []  # nothing left to do
        assert supersede_dead_runs(con, stale_after=60) == ["remote-fresh"]
    finally:
        con.close()
        zombie.wait()
