"""Odd inputs and a failing disk end in a documented exit code and one line, never a traceback
or a panic, and lose nothing (issue 10): corrupt data pages, columns of types the contract
cannot read, and a database file that cannot grow."""

from __future__ import annotations

import json
import resource
import signal
import subprocess
import sys
from pathlib import Path

import duckdb
import polars as pl
import pyarrow.parquet as pq
import pytest

from flows.cli import main
from tests.support.builders import many_cases, write
from tests.support.db_reading import query

ROOT = Path(__file__).resolve().parents[3]


def faith(*args: str, limit_file_size: int | None = None) -> subprocess.CompletedProcess:
    """`faith ARGS` in a child process, 2 min at most; optionally unable to write files past
    `limit_file_size` bytes (the disk is 'full': writes fail with EFBIG)."""

    def limit() -> None:
        if limit_file_size is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_file_size, limit_file_size))

    return subprocess.run(
        [sys.executable, "-m", "flows.cli", *args, "--prefect", "no", "--judge", "lexical"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        preexec_fn=limit,  # the child only sets a limit before exec
    )


def corrupt_page(source: Path, column: str, target: Path) -> Path:
    """A copy of `source` whose `column` data page is overwritten; the footer stays valid."""
    meta = pq.ParquetFile(source).metadata.row_group(0)
    chunk = next(
        meta.column(i) for i in range(meta.num_columns) if meta.column(i).path_in_schema == column
    )
    data = bytearray(source.read_bytes())
    start = chunk.data_page_offset
    data[start : start + chunk.total_compressed_size] = b"\xab" * chunk.total_compressed_size
    target.write_bytes(bytes(data))
    return target


def one_error_line(stderr: str) -> str:
    errors = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, stderr
    assert "Traceback" not in stderr
    assert "panicked" not in stderr
    return errors[0]


@pytest.mark.slow
# A text column and a timestamp column: two decoders (actual_output decodes as case_id does).
@pytest.mark.parametrize("column", ["case_id", "logged_at"])
def test_a_corrupt_data_page_fails_with_exit_3_naming_the_file(tmp_path: Path, column: str) -> None:
    good = write(many_cases(2000), tmp_path / "good.parquet")
    bad = corrupt_page(good, column, tmp_path / "bad.parquet")
    done = faith("score", str(bad), "--db", str(tmp_path / "f.duckdb"))
    assert done.returncode == 3, done.stderr
    assert str(bad) in one_error_line(done.stderr)


def in_process(*args: str) -> int:
    """`faith ARGS` in this process (the subject is what is stored, not the process)."""
    return main([*args, "--prefect", "no", "--judge", "lexical"])


def test_an_answer_column_of_bytes_is_quarantined_row_by_row(tmp_path: Path, capsys) -> None:
    frame = many_cases(20).with_columns(pl.col("actual_output").cast(pl.Binary))
    source, db = write(frame, tmp_path / "bytes.parquet"), tmp_path / "f.duckdb"
    code = in_process("score", str(source), "--db", str(db))
    err = capsys.readouterr().err
    # Every row is quarantined: the run keeps them all and says so (issue 22: exit 11).
    assert code == 11, err
    assert "panicked" not in err
    assert "top checks: actual_output_wrong_type 20" in err
    ((rows_in, scored, invalid, quarantined),) = query(
        db, "SELECT rows_in, rows_scored, rows_invalid, rows_quarantined FROM runs"
    )
    assert (rows_in, scored + invalid + quarantined) == (20, 20)
    assert query(db, "SELECT count(DISTINCT row_key) FROM quarantine") == [(quarantined,)]


def test_extra_columns_of_any_arrow_type_are_carried_as_text_segments(tmp_path: Path) -> None:
    frame = many_cases(6).with_columns(
        waited=pl.duration(seconds=pl.int_range(6)),
        blob=pl.lit(b"\x00\xff"),
        amount=pl.lit(3).cast(pl.Decimal(10, 2)),
        nothing=pl.lit(None),
    )
    source, db = write(frame, tmp_path / "odd.parquet"), tmp_path / "f.duckdb"
    assert in_process("score", str(source), "--db", str(db)) == 0
    (segments,) = query(db, "SELECT segments FROM case_scores WHERE case_id = 'c00001'")[0]
    carried = json.loads(segments)
    assert {"waited", "blob", "amount", "app_version"} <= set(carried)
    assert all(isinstance(value, str) for value in carried.values() if value is not None)


@pytest.mark.slow
def test_a_full_disk_fails_the_run_with_exit_7_and_keeps_what_was_committed(
    tmp_path: Path,
) -> None:
    source, db = write(many_cases(10_000), tmp_path / "cases.parquet"), tmp_path / "f.duckdb"
    options = ["--db", str(db), "--batch-size", "1000"]
    full = faith("score", str(source), *options, limit_file_size=3_000_000)
    assert full.returncode == 7, full.stderr
    line = one_error_line(full.stderr)
    assert "free disk space" in line
    ((status, batches, newly, error),) = query(
        db, "SELECT status, batches, rows_newly_scored, error FROM runs"
    )
    assert status == "failed"
    assert error.startswith("DatabaseWriteFailed")
    assert 0 < newly == batches * 1000 < 10_000
    assert query(db, "SELECT count(*) FROM case_scores") == [(newly,)]  # consistent

    # the resume's process is not the point: it runs here (its exit code all the same)
    assert in_process("score", str(source), *options) == 0
    assert query(db, "SELECT count(*), count(DISTINCT case_id) FROM case_scores") == [
        (10_000, 10_000)
    ]


def test_a_corrupt_later_file_stops_a_run_with_batches_queued(tmp_path: Path) -> None:
    write(many_cases(4000), tmp_path / "logs" / "a.parquet")  # 16 batches before b's rows
    good = write(many_cases(2000).with_columns(pl.col("case_id") + "-b"), tmp_path / "b.parquet")
    corrupt_page(good, "actual_output", tmp_path / "logs" / "b.parquet")
    db = tmp_path / "f.duckdb"
    done = faith("score", str(tmp_path / "logs"), "--db", str(db), "--batch-size", "250")
    assert done.returncode == 3, done.stderr
    assert "b.parquet: cannot read its data" in one_error_line(done.stderr)
    ((status, batches, newly, error),) = query(
        db, "SELECT status, batches, rows_newly_scored, error FROM runs"
    )
    assert status == "failed"
    assert error.startswith("InputUnreadable")
    assert newly == batches * 250 <= 4000
    assert query(db, "SELECT count(*) FROM case_scores") == [(newly,)]
    duckdb.connect(str(db)).close()  # the lock was released
