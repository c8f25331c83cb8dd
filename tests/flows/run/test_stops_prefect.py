"""SIGTERM stops a `faith score --prefect yes` flow run cleanly (issue 10): inside a flow run
Prefect's own SIGTERM handler raises its TerminationSignal, and the run still ends with exit
143, one line, and its row marked. The child reports to the session's Prefect test server
(PREFECT_API_URL), so it starts no temporary server of its own: that start took 27-39 s on a
quiet machine and minutes under load, and is Prefect's, not the stop under test."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from flows.store.db import open_store
from tests.flows.run.test_crash_resume import runs
from tests.support.stops import (
    EXIT_WITHIN,
    PREFECT,
    exit_within,
    faith_score,
    signal_at,
    write_source,
)


@pytest.mark.slow
@pytest.mark.usefixtures("prefect_harness")
def test_sigterm_stops_a_prefect_flow_run_cleanly(tmp_path: Path) -> None:
    from prefect.settings import PREFECT_API_URL

    source, db = write_source(tmp_path), tmp_path / "f.duckdb"
    env = {**os.environ, "PREFECT_API_URL": str(PREFECT_API_URL.value())}
    child = faith_score("plain", source, db, PREFECT, env)
    said = {"interrupted (SIGTERM)": float("inf")}
    took, output = signal_at(child, "batch 3:", 0.0, signal.SIGTERM, said)
    assert child.returncode == 143, output
    assert "Starting temporary server" not in output  # the harness's server, not its own
    # Our stop ends within the promise; Prefect then reports the flow run's end to its server.
    assert said["interrupted (SIGTERM)"] < exit_within(child), output
    assert took < exit_within(child, EXIT_WITHIN + 5.0), output
    ((_, stopped),) = runs(db).items()
    assert (stopped["status"], stopped["error"]) == ("interrupted", "interrupted by SIGTERM")
    open_store(db).close()
