"""How a dashboard reads while a run writes (issue 11): `faith score --snapshot` leaves a copy
that `faith runs` reads while another run holds the database, saying so in one line; without
`--snapshot` no copy is made. The commands run in this process (`main`); the writer holding
the database is another."""

from __future__ import annotations

from pathlib import Path

import pytest

from flows.cli import main
from flows.store.snapshot import snapshot_path
from tests.flows.store.test_store_readers import writer_holding
from tests.support.builders import many_cases, write


def test_faith_runs_reads_the_snapshot_of_the_last_run_while_a_run_writes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, db = write(many_cases(6), tmp_path / "a.parquet"), tmp_path / "f.duckdb"
    assert main(["score", str(source), "--db", str(db), "--prefect", "no", "--snapshot"]) == 0
    assert snapshot_path(db).is_file()
    capsys.readouterr()
    with writer_holding(db) as holder:
        code = main(["runs", "--db", str(db), "--wait", "0"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "completed" in out
    (said,) = [line for line in err.splitlines() if "being written" in line]
    assert f"process {holder.pid}" in said
    assert "reading its snapshot" in said


def test_without_snapshot_no_copy_is_made(tmp_path: Path) -> None:
    source, db = write(many_cases(3), tmp_path / "a.parquet"), tmp_path / "f.duckdb"
    assert main(["score", str(source), "--db", str(db), "--prefect", "no"]) == 0
    assert not snapshot_path(db).exists()
