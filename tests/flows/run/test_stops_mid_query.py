"""Stops inside a commit or a query (issue 10): a signal while the second batch's transaction
is kept busy is rolled back within the grace and the re-run completes it; a signal while the
main thread waits in its own DuckDB query acts when the query ends; a second Ctrl-C while
stopping changes nothing. Shared machinery: tests/support/stops.py."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import duckdb
import pytest

from tests.flows.run.test_crash_resume import runs
from tests.support.stops import (
    BATCH,
    EXIT_WITHIN,
    exit_within,
    faith_score,
    first_line,
    hang_guard,
    moment_id,
    release,
    score_uninterrupted,
    stop_and_resume,
    write_source,
)


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_source(tmp_path_factory.mktemp("stops"))


@pytest.fixture(scope="module")
def uninterrupted(source: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple:
    return score_uninterrupted(source, tmp_path_factory.mktemp("baseline") / "f.duckdb")


# (signal, child mode, progress line to wait for, seconds after it)
# Inside batch 2's transaction: cued by the child's own line, not by a delay after batch 1
# (at load 30, 0.3 s after "batch 1:" the second batch had not reached its commit).
MOMENTS = [
    (signal.SIGINT, "slow-commit", "dawdling inside", 0.0),
    (signal.SIGTERM, "slow-commit", "dawdling inside", 0.5),
    # DuckDB rewords a signal that lands in a query as RuntimeError('Query interrupted').
    (signal.SIGINT, "slow-classify", "batch 3:", 0.2),
]


@pytest.mark.slow
@pytest.mark.parametrize("moment", MOMENTS, ids=moment_id)
def test_a_signal_stops_the_run_promptly_and_a_rerun_completes_it(
    source: Path, uninterrupted: tuple, tmp_path: Path, moment: tuple
) -> None:
    stop_and_resume(source, uninterrupted, tmp_path / "f.duckdb", moment)


@pytest.mark.slow
def test_a_second_ctrl_c_while_stopping_changes_nothing(source: Path, tmp_path: Path) -> None:
    db = tmp_path / "f.duckdb"
    child = faith_score("slow-commit", source, db)
    assert child.stdout is not None
    for out in child.stdout:
        if "batch 1:" in first_line(child, out):
            break
    time.sleep(0.3)
    sent = time.monotonic()
    for _ in range(5):  # Ctrl-C, then four more while the run stops
        child.send_signal(signal.SIGINT)
        time.sleep(0.2)
    release(child)  # (it stopped inside batch 2, long before its hold)
    child.wait(timeout=hang_guard(child))
    output = child.stdout.read()
    child.stdout.close()
    assert time.monotonic() - sent < exit_within(child, EXIT_WITHIN + 1.0)
    assert child.returncode == 130, output
    assert "Traceback" not in output
    ((_, stopped),) = runs(db).items()
    assert stopped["status"] == "interrupted"
    con = duckdb.connect(str(db))  # consistent, and not locked
    try:
        scored = con.execute("SELECT count(*) FROM case_scores").fetchall()[0][0]
    finally:
        con.close()
    assert scored == stopped["rows_newly_scored"] == stopped["batches"] * BATCH
