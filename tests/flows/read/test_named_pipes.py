"""A labels file or a golden set that is no regular file: a named pipe no program writes to
was opened and waited on for ever (SIGTERM did not end the wait: polars held the thread), and
a folder was read as a Parquet data set of whatever files it held. Each is exit 3, one line,
before any database is touched."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import run_python


@pytest.mark.parametrize("name", ["labels.csv", "labels.parquet"])
def test_labels_in_a_named_pipe_are_refused_not_waited_on(tmp_path: Path, name: str) -> None:
    fifo = tmp_path / name
    os.mkfifo(fifo)
    db = tmp_path / "faith.duckdb"
    done = run_python("-m", "flows.cli", "calibrate", str(fifo), "--db", str(db))
    assert done.returncode == 3, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"error: labels {fifo}: not a file but a named pipe, a device or a socket; give the "
        "labels as a Parquet or CSV file"
    ]
    assert not db.exists()


def test_a_folder_of_labels_is_refused_as_no_file(tmp_path: Path) -> None:
    folder = tmp_path / "labels"
    folder.mkdir()
    db = tmp_path / "faith.duckdb"
    done = run_python("-m", "flows.cli", "calibrate", str(folder), "--db", str(db), "--name", "x")
    assert done.returncode == 3, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"error: labels {folder}: not a file but a folder; give the labels as a Parquet or CSV file"
    ]


def test_a_golden_set_in_a_named_pipe_is_refused_before_the_night(tmp_path: Path) -> None:
    fifo = tmp_path / "golden.parquet"
    os.mkfifo(fifo)
    source = Path(__file__).resolve().parents[3] / "data" / "sample" / "cases.parquet"
    db = tmp_path / "faith.duckdb"
    args = ["nightly", str(source), "--golden", str(fifo), "--db", str(db), "--prefect", "no"]
    done = run_python("-m", "flows.cli", *args)
    assert done.returncode == 3, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"error: golden set {fifo}: not a file but a named pipe, a device or a socket; a "
        "golden set is a Parquet file"
    ]
    assert not db.exists()
