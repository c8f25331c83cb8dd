"""A log re-sent with its times or segments corrected: the stored cases read the log as it is
now, without judging their unchanged content again."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import duckdb

from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.builders import case_row, cases, write
from tests.support.seed_judge import CountingJudge


def night(source: Path, db: Path, judge: CountingJudge) -> dict:
    return run_score(ScoreSettings(source=str(source), db=str(db)), judge=judge)


def test_a_corrected_time_and_segment_move_a_case_to_its_day_without_a_judge_call(
    tmp_path: Path,
) -> None:
    log, db = tmp_path / "logs" / "day.parquet", tmp_path / "f.duckdb"
    late = dt.datetime(2026, 11, 1, 23, 40)  # logged in local time by mistake
    write(cases([case_row("c1", "Order A17 was cancelled.", logged_at=late)]), log)
    first_run = night(log.parent, db, CountingJudge())["run_id"]
    # The export is fixed and re-sent: the time in UTC, the app version it really ran.
    fixed = case_row(
        "c1",
        "Order A17 was cancelled.",
        logged_at=dt.datetime(2026, 11, 2, 1, 40),
        app_version="2.5.0",
    )
    write(cases([fixed]), log)
    judge = CountingJudge()
    run = night(log.parent, db, judge)
    assert (run["rows_already_scored"], run["rows_newly_scored"], sum(judge.calls.values())) == (
        1,
        0,
        0,
    )
    con = duckdb.connect(str(db), read_only=True)
    try:
        stored = con.sql(
            "SELECT logged_at, segments ->> 'app_version', score, run_id FROM case_scores"
        ).fetchall()
        days = con.sql("SELECT period, scored, passed FROM pass_rates()").fetchall()
        versions = con.sql(
            "SELECT segment_value, scored FROM pass_rates_by_segment('app_version', grain := NULL)"
        ).fetchall()
    finally:
        con.close()
    # Still the first run's score (nothing judged again), now on the corrected day and version.
    assert stored == [(dt.datetime(2026, 11, 2, 1, 40), "2.5.0", 0.0, first_run)]
    assert days == [(dt.date(2026, 11, 2), 1, 0)]
    assert versions == [("2.5.0", 1)]
