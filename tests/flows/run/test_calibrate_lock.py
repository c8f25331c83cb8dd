"""`faith calibrate` holds the database only to read the labelled cases and to store what it
fitted, not while it fits: a fit of thousands of labels takes minutes, and the runs and readers
of a busy database (a nightly run, `faith report`) must not wait for it all along."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import duckdb
import pytest

import flows.run.calibrate as calibrate_module
from faith_udfs.errors import ConfigError
from flows.run.calibrate import calibrate
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.builders import write
from tests.support.cli_run import faith_process as faith
from tests.support.planted import planted_cases

ROOT = Path(__file__).resolve().parents[3]
CASES = planted_cases(40)


@pytest.fixture
def scored(tmp_path: Path) -> tuple[Path, Path]:
    """The planted cases scored into a database, and their labels as CSV."""
    source = write(CASES.drop("label"), tmp_path / "cases.parquet")
    db = tmp_path / "f.duckdb"
    run_score(ScoreSettings(source=str(source), db=str(db)))
    labels = tmp_path / "labels.csv"
    CASES.select("case_id", "label").write_csv(labels)
    return db, labels


def test_other_processes_use_the_database_while_calibrate_fits(
    scored: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    db, labels = scored
    seen: list[subprocess.CompletedProcess] = []
    fit = calibrate_module.cross_validate

    def fit_while_others_read(*args: Any, **kwargs: Any) -> Any:
        if not seen:  # a reader that does not wait, while the fit is under way
            seen.append(faith("runs", "--db", str(db), "--wait", "0"))
        return fit(*args, **kwargs)

    monkeypatch.setattr(calibrate_module, "cross_validate", fit_while_others_read)
    calibrate(labels, db, "planted", resamples=20)
    (reader,) = seen
    assert reader.returncode == 0, reader.stderr
    con = duckdb.connect(str(db), read_only=True)
    try:
        assert con.sql("SELECT name FROM calibrations").fetchall() == [("planted",)]
    finally:
        con.close()


def test_a_name_stored_by_another_calibrate_during_the_fit_is_not_overwritten(
    scored: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    db, labels = scored
    fit = calibrate_module.cross_validate
    others: list[subprocess.CompletedProcess] = []

    def fit_while_another_stores(*args: Any, **kwargs: Any) -> Any:
        if not others:  # a colleague stores the same name meanwhile
            others.append(
                faith(
                    "calibrate",
                    str(labels),
                    "--db",
                    str(db),
                    "--name",
                    "planted",
                    "--resamples",
                    "20",
                    "--cutoffs-only",
                )
            )
        return fit(*args, **kwargs)

    monkeypatch.setattr(calibrate_module, "cross_validate", fit_while_another_stores)
    with pytest.raises(ConfigError, match="a calibration named 'planted' is stored in"):
        calibrate(labels, db, "planted", resamples=20)
    (other,) = others
    assert other.returncode == 0, other.stderr


# `faith calibrate` whose fit is stopped by a signal, as Ctrl-C would stop it.
STOPPED_FIT = """
import signal, sys
import flows.run.calibrate as calibrate
from flows.cli import main
fit = calibrate.cross_validate
def stopped(*args, **kwargs):
    signal.raise_signal(signal.SIGINT)
    return fit(*args, **kwargs)
calibrate.cross_validate = stopped
sys.argv = ["faith", *sys.argv[1:]]
sys.exit(main())
"""


def test_a_calibrate_stopped_during_the_fit_stores_nothing_and_names_no_batches(
    scored: tuple[Path, Path],
) -> None:
    """It said `committed batches are kept; run again to finish`, a scoring run's line, for a
    command that commits no batches."""
    db, labels = scored
    argv = ["calibrate", str(labels), "--db", str(db), "--name", "planted", "--resamples", "20"]
    done = subprocess.run(
        [sys.executable, "-c", STOPPED_FIT, *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 130, done.stderr
    assert done.stderr.splitlines()[-1] == "interrupted (SIGINT): run it again"
    con = duckdb.connect(str(db), read_only=True)
    try:
        assert con.execute("SELECT count(*) FROM calibrations").fetchall() == [(0,)]
    finally:
        con.close()
