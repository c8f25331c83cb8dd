"""How a dashboard reads while a run writes (issue 11): `faith score --snapshot` leaves a copy
that `faith runs` reads while another run holds the database, saying so in one line; without
`--snapshot` no copy is made."""

from __future__ import annotations

from pathlib import Path

from flows.store.snapshot import snapshot_path
from tests.conftest import run_python
from tests.flows.store.test_store_readers import writer_holding
from tests.support.builders import many_cases, write


def test_faith_runs_reads_the_snapshot_of_the_last_run_while_a_run_writes(
    tmp_path: Path,
) -> None:
    source, db = write(many_cases(6), tmp_path / "a.parquet"), tmp_path / "f.duckdb"
    scored = run_python("-m", "flows.cli", "score", str(source), "--db", str(db),
                        "--prefect", "no", "--snapshot")  # fmt: skip
    assert scored.returncode == 0, scored.stderr
    assert snapshot_path(db).is_file()
    with writer_holding(db) as holder:
        listing = run_python("-m", "flows.cli", "runs", "--db", str(db), "--wait", "0")
    assert listing.returncode == 0, listing.stderr
    assert "completed" in listing.stdout
    (said,) = [line for line in listing.stderr.splitlines() if "being written" in line]
    assert f"process {holder.pid}" in said
    assert "reading its snapshot" in said


def test_without_snapshot_no_copy_is_made(tmp_path: Path) -> None:
    source, db = write(many_cases(3), tmp_path / "a.parquet"), tmp_path / "f.duckdb"
    scored = run_python("-m", "flows.cli", "score", str(source), "--db", str(db), "--prefect", "no")
    assert scored.returncode == 0, scored.stderr
    assert not snapshot_path(db).exists()
