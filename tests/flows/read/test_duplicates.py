"""Duplicated case_ids are resolved as rows stream by (issue 11): batches stay within
--batch-size and commit one by one, exact copies keep the first copy read, copies that differ
are all quarantined, wherever in the source they sit."""

from __future__ import annotations

import logging
from pathlib import Path

import polars as pl
import pytest

from flows.run.pipeline import Steps, run_score
from flows.run.settings import ScoreSettings
from flows.store.batch_writes import write_batch
from tests.support.builders import many_cases, write
from tests.support.db_reading import query


def test_overlapping_exports_commit_in_batches_of_the_batch_size(tmp_path: Path) -> None:
    day = many_cases(30)
    write(day, tmp_path / "logs" / "monday.parquet")
    write(day, tmp_path / "logs" / "tuesday.parquet")  # re-exported: the same 30 cases again
    written: list[int] = []

    def counting_write(con, scored, **options) -> float:
        written.append(scored.cases.height)
        return write_batch(con, scored, **options)

    db = tmp_path / "f.duckdb"
    settings = ScoreSettings(
        source=str(tmp_path / "logs"), db=str(db), batch_size=5, max_quarantine_share=None
    )
    run = run_score(settings, steps=Steps(write=counting_write))
    assert max(written) <= 5
    assert sum(written) == 30
    assert run["batches"] == len(written) >= 6
    assert (run["rows_in"], run["rows_newly_scored"], run["rows_quarantined"]) == (60, 30, 30)
    copies = query(db, 'SELECT "check", count(*) FROM quarantine GROUP BY ALL')
    assert copies == [("duplicate_case_id_exact_copy", 30)]
    # The copy kept is the first read: monday's.
    kept_from = query(db, "SELECT DISTINCT source_file FROM quarantine")
    assert [Path(path).name for (path,) in kept_from] == ["tuesday.parquet"]


def test_a_copy_that_differs_in_a_later_file_quarantines_every_copy(tmp_path: Path) -> None:
    write(many_cases(12), tmp_path / "logs" / "a.parquet")
    changed = (
        many_cases(12)
        .filter(pl.col("case_id") == "c00003")
        .with_columns(actual_output=pl.lit("Order A17 was lost."))
    )
    write(changed, tmp_path / "logs" / "b.parquet")
    db = tmp_path / "f.duckdb"
    settings = ScoreSettings(
        source=str(tmp_path / "logs"), db=str(db), batch_size=4, max_quarantine_share=None
    )
    run = run_score(settings)
    assert (run["rows_in"], run["rows_newly_scored"], run["rows_quarantined"]) == (13, 11, 2)
    assert query(db, "SELECT count(*) FROM case_scores WHERE case_id = 'c00003'") == [(0,)]
    assert query(db, 'SELECT DISTINCT "check" FROM quarantine') == [("duplicate_case_id_conflict",)]
    again = run_score(settings)
    assert again["rows_already_scored"] == 11
    assert query(db, "SELECT count(*) FROM quarantine") == [(2,)]  # nothing added


def test_an_export_that_gained_a_column_holds_the_same_copies(tmp_path: Path) -> None:
    """Overlapping daily exports, the later one with a new segment column (null in the rows
    it re-exports): the re-exported rows are exact copies, not conflicts that lose them."""
    day = many_cases(6)
    write(day.slice(0, 4), tmp_path / "logs" / "monday.parquet")
    tuesday = day.slice(2).with_columns(
        channel=pl.when(pl.col("case_id").is_in(["c00002", "c00003"]))
        .then(None)
        .otherwise(pl.lit("web"))
    )
    write(tuesday, tmp_path / "logs" / "tuesday.parquet")
    db = tmp_path / "f.duckdb"
    settings = ScoreSettings(source=str(tmp_path / "logs"), db=str(db), max_quarantine_share=None)
    run = run_score(settings)
    assert (run["rows_in"], run["rows_newly_scored"], run["rows_quarantined"]) == (8, 6, 2)
    assert query(db, 'SELECT "check", count(*) FROM quarantine GROUP BY ALL') == [
        ("duplicate_case_id_exact_copy", 2)
    ]
    # A copy whose new column holds a value does differ from the one without it.
    write(
        day.slice(0, 1).with_columns(channel=pl.lit("app")), tmp_path / "logs" / "wednesday.parquet"
    )
    again = run_score(
        ScoreSettings(
            source=str(tmp_path / "logs"), db=str(tmp_path / "g.duckdb"), max_quarantine_share=None
        )
    )
    assert again["rows_quarantined"] == 2 + 2  # c00000's two copies conflict now


def test_on_dask_an_export_that_gained_a_column_holds_the_same_copies(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The same rule across Dask partitions: the re-exported rows with the new column null are
    exact copies there too (they were conflicts, all quarantined, where local scored them).
    Each run says how many ids repeat (a Dask run said nothing)."""
    from flows.engines.dask_run import run_score_on_dask
    from tests.flows.run.test_calibrate import InlineSubmitter

    day = many_cases(6)
    write(day.slice(0, 4), tmp_path / "logs" / "monday.parquet")
    write(
        day.slice(2).with_columns(channel=pl.lit(None, pl.String)), tmp_path / "logs" / "t.parquet"
    )
    settings = ScoreSettings(source=str(tmp_path / "logs"), batch_size=3, max_quarantine_share=None)
    said = "2 case_ids occur more than once: 0 with differing copies, quarantined"
    with caplog.at_level(logging.INFO, logger="faithpipe"):
        local = run_score(settings.model_copy(update={"db": str(tmp_path / "local.duckdb")}))
        assert [r.getMessage() for r in caplog.records].count(said) == 1
        caplog.clear()
        dask_db = tmp_path / "dask.duckdb"
        on_dask = run_score_on_dask(
            settings.model_copy(update={"db": str(dask_db), "engine": "dask", "workers": 1}),
            InlineSubmitter(),
        )
        assert [r.getMessage() for r in caplog.records].count(said) == 1
    counts = ("rows_in", "rows_newly_scored", "rows_quarantined")
    assert [on_dask[c] for c in counts] == [local[c] for c in counts] == [8, 6, 2]
    assert query(dask_db, 'SELECT "check", count(*) FROM quarantine GROUP BY ALL') == [
        ("duplicate_case_id_exact_copy", 2)
    ]
