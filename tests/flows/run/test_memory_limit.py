"""The writer's DuckDB memory limit keeps room for the PRIMARY KEY indexes a run adds to, and a
commit that still runs out of memory ends the run with exit 7, not a crash."""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl
import pytest

from flows.errors import DatabaseWriteFailed
from flows.run.pipeline import Steps, run_score
from flows.run.settings import ScoreSettings
from flows.store import db
from flows.store.batch_writes import write_batch
from tests.support.builders import many_cases, write

# 40,000 rows of null answers (all quarantined) in batches of 8,000.
_ROWS = 40_000
_BATCH = 8_000
# A base limit so small that the quarantine's index outgrows it within the run when no room
# is kept for its keys (measured: fails up to 24 MB).
_SMALL_BASE_MB = 12


@pytest.fixture(scope="module")
def all_bad(tmp_path_factory: pytest.TempPathFactory) -> Path:
    bad = many_cases(10).with_columns(actual_output=pl.lit(None, dtype=pl.String))
    rows = pl.concat([bad] * (_ROWS // 10)).with_columns(
        case_id=pl.format("c{}", pl.int_range(pl.len()))
    )
    return write(rows, tmp_path_factory.mktemp("bad") / "bad.parquet")


def _settings(source: Path, tmp_path: Path) -> ScoreSettings:
    return ScoreSettings(
        source=str(source),
        db=str(tmp_path / "f.duckdb"),
        batch_size=_BATCH,
        max_invalid_share=1.0,
        max_quarantine_share=None,  # every row quarantined is this test's subject
    )


def test_the_memory_limit_grows_with_the_keys_stored() -> None:
    assert db.memory_limit_mb(0) == db._STORE_MEMORY_MB
    assert db.memory_limit_mb(4_000_000) >= db._STORE_MEMORY_MB + 1000


def test_a_run_quarantining_many_rows_raises_the_limit_as_it_adds_keys(
    all_bad: Path, tmp_path: Path
) -> None:
    limits: list[float] = []

    def write_noting_the_limit(con: duckdb.DuckDBPyConnection, scored, **options) -> float:
        query = "SELECT value FROM duckdb_settings() WHERE name = 'memory_limit'"
        ((limit,),) = con.execute(query).fetchall()
        number, unit = limit.split()
        limits.append(float(number) * {"MiB": 1, "GiB": 1024}[unit] * 2**20 / 10**6)
        return write_batch(con, scored, **options)

    run = run_score(_settings(all_bad, tmp_path), steps=Steps(write=write_noting_the_limit))
    assert (run["status"], run["batches"], run["rows_quarantined"]) == ("completed", 5, _ROWS)
    # Before each commit: room for the keys stored and the batch's own, ~256 bytes a key.
    assert limits == sorted(limits)
    assert limits[-1] - limits[0] >= (_ROWS - _BATCH) * 256 / 10**6 - 1


def test_a_commit_out_of_memory_fails_the_run_with_exit_7_and_keeps_earlier_batches(
    all_bad: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(db, "_STORE_MEMORY_MB", _SMALL_BASE_MB)
    monkeypatch.setattr(db, "_INDEX_BYTES_PER_ROW", 0)  # no room for keys: a commit fails
    with pytest.raises(DatabaseWriteFailed, match=r"ran out of memory.*lower --batch-size") as err:
        run_score(_settings(all_bad, tmp_path))
    assert err.value.exit_code == 7
    con = duckdb.connect(str(tmp_path / "f.duckdb"), read_only=True)
    try:
        status, rows_in = con.execute("SELECT status, rows_in FROM runs").fetchone()
        (kept,) = con.execute("SELECT count(DISTINCT row_key) FROM quarantine").fetchone()
    finally:
        con.close()
    assert status == "failed"
    assert rows_in == kept
    assert rows_in % _BATCH == 0


def test_a_file_too_wide_for_the_readers_memory_is_exit_7_with_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A CSV of 5,000 columns ran DuckDB's reader out of its memory: exit 3, "cannot read its
    data", as if the file were broken; the file is fine, and lowering --batch-size does not
    help. Here the reader's limit is made small enough for 400 columns to outgrow it."""
    from flows.cli.commands import main
    from flows.read import formats

    monkeypatch.setattr(formats, "_READER_MEMORY", "4MB")
    columns = ["case_id", "logged_at", "input", "actual_output", "retrieval_context"]
    columns += [f"flag_{j}" for j in range(400)]
    row = ["c{i}", "2026-10-01", "q", "It shipped.", '"[""It shipped.""]"'] + ["on"] * 400
    lines = [",".join(columns)] + [",".join(row).replace("{i}", str(i)) for i in range(400)]
    source = tmp_path / "wide.csv"
    source.write_text("\n".join(lines) + "\n")
    code = main(["score", str(source), "--db", str(tmp_path / "f.duckdb"), "--prefect", "no"])
    error = capsys.readouterr().err
    assert code == 7, error
    assert "Out of Memory" in error
    assert "write it as Parquet, or leave out columns you do not need" in error
