"""The Prefect flow: a real flow run on the test harness writes a real DuckDB file."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from flows.run.settings import ScoreSettings
from tests.conftest import published_artifacts
from tests.support.builders import case_row, cases, many_cases, write

pytestmark = pytest.mark.usefixtures("prefect_harness")


def test_flow_run_scores_batches_and_publishes_its_summary(tmp_path: Path) -> None:

    from flows.orchestration.score_flow import score_flow

    source = write(many_cases(25), tmp_path / "cases.parquet")
    db = tmp_path / "f.duckdb"
    run = score_flow(ScoreSettings(source=str(source), db=str(db), batch_size=10))
    assert (run["status"], run["batches"], run["rows_newly_scored"]) == ("completed", 3, 25)
    con = duckdb.connect(str(db), read_only=True)
    try:
        assert con.sql("SELECT count(*) FROM case_scores").fetchall() == [(25,)]
        assert con.sql("SELECT status FROM runs").fetchall() == [("completed",)]
    finally:
        con.close()

    published = published_artifacts()
    assert "faithpipe-score-summary" in published
    assert run["run_id"] in published["faithpipe-score-summary"]
    assert "rows_in" in published["faithpipe-score-counts"]


def test_a_run_ending_in_an_alarm_still_publishes_its_summary(tmp_path: Path) -> None:
    """A run that kept everything but fails its flow run (here exit 11, 5 of 20 rows
    quarantined) is the one to read in the UI: it published no summary or counts."""
    from flows.errors import QuarantineShareExceeded
    from flows.orchestration.score_flow import score_flow

    rows = [case_row(f"q{i:03d}", input="" if i < 5 else "Where is order A17?") for i in range(20)]
    source = write(cases(rows), tmp_path / "cases.parquet")
    with pytest.raises(QuarantineShareExceeded) as alarm:
        score_flow(ScoreSettings(source=str(source), db=str(tmp_path / "f.duckdb")))
    run = alarm.value.run
    assert run is not None
    assert run["rows_quarantined"] == 5
    published = published_artifacts()
    assert run["run_id"] in published["faithpipe-score-summary"]
    assert "quarantined 5" in published["faithpipe-score-summary"]


def test_flow_run_over_a_missing_source_fails_before_writing(tmp_path: Path) -> None:
    from flows.errors import InputUnreadable
    from flows.orchestration.score_flow import score_flow

    with pytest.raises(InputUnreadable):
        score_flow(
            ScoreSettings(source=str(tmp_path / "missing.parquet"), db=str(tmp_path / "f.duckdb"))
        )
    assert not (tmp_path / "f.duckdb").exists()


@pytest.mark.parametrize("bar", [True, False])
def test_only_a_progress_bar_is_added_to_the_flow_log(bar: bool) -> None:
    from flows.orchestration.score_flow import _console, show_console_progress
    from flows.run.pipeline import LogProgress
    from flows.run.progress_bar import BarProgress

    given = BarProgress() if bar else LogProgress()
    show_console_progress(given)
    try:
        # Log lines would show twice: once from the flow's run log, once from `given`.
        assert _console["progress"] is (given if bar else None)
    finally:
        show_console_progress(None)


def test_artifacts_a_server_refuses_are_a_warning_and_the_alarm_stays_the_outcome(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A server that refuses the kept run's artifacts is a warning line beside the alarm (exit
    11 stays exit 11); a fault of ours while publishing is not hidden as one."""
    import httpx

    import flows.orchestration.score_flow as score_flow_module
    from flows.errors import QuarantineShareExceeded

    rows = [case_row(f"q{i:03d}", input="" if i < 5 else "Where is order A17?") for i in range(20)]
    source = write(cases(rows), tmp_path / "cases.parquet")

    def refused(**_: object) -> None:
        raise httpx.ConnectError("[Errno 111] Connection refused")

    monkeypatch.setattr(score_flow_module, "create_markdown_artifact", refused)
    with caplog.at_level("WARNING"), pytest.raises(QuarantineShareExceeded):
        score_flow_module.score_flow(ScoreSettings(source=str(source), db=str(tmp_path / "a")))
    assert "the run's artifacts were not published: ConnectError: [Errno 111]" in caplog.text

    def faulty(**_: object) -> None:
        raise KeyError("pass_rate")

    monkeypatch.setattr(score_flow_module, "create_markdown_artifact", faulty)
    with pytest.raises(KeyError):
        score_flow_module.score_flow(ScoreSettings(source=str(source), db=str(tmp_path / "b")))
