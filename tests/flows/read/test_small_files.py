"""A folder of many small files is read and validated in batches of files, not file by file
(issue 22, item 11: 5,000 one-row files took 96 s), and the batched read keeps every row, its
file, its quarantine row and key exactly as the file-by-file read did. The speed is a bench
figure: bench/small_files.py."""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from flows.read import source as reading
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.builders import case_row, cases, many_cases, write

N_FILES = 240


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One-row files under two hive folders; some rows break the contract, two copies of an
    identical bad row sit in different files, and a run of files has an extra column."""
    root = tmp_path_factory.mktemp("small") / "logs"
    frame = many_cases(N_FILES)
    for i in range(N_FILES):
        row = frame.slice(i, 1)
        if i % 17 == 0:
            row = row.with_columns(input=pl.lit(" "))  # input_not_blank
        if i in (100, 101):
            row = cases([case_row("same", input=" ")])  # identical bad rows, two files
        if 150 <= i < 160:
            row = row.with_columns(channel=pl.lit("web"))  # another schema for a while
        write(row, root / f"region={'eu' if i % 2 else 'us'}" / f"part-{i:04d}.parquet")
    write(many_cases(500).with_columns(case_id="big" + pl.col("case_id")), root / "zz.parquet")
    return root


def stored(db: Path) -> tuple[pl.DataFrame, pl.DataFrame]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        scores = con.sql(
            "SELECT * EXCLUDE (run_id, scored_at) FROM case_scores ORDER BY case_id"
        ).pl()
        quarantine = con.sql(
            'SELECT * EXCLUDE (run_id, quarantined_at) FROM quarantine ORDER BY row_key, "check"'
        ).pl()
    finally:
        con.close()
    return scores, quarantine


def score(folder: Path, db: Path) -> dict:
    run = run_score(
        ScoreSettings(source=str(folder), db=str(db), batch_size=64, max_quarantine_share=1.0)
    )
    counted = run["rows_scored"] + run["rows_invalid"] + run["rows_pending"]
    assert run["rows_in"] == counted + run["rows_quarantined"] == N_FILES + 500
    return run


def test_files_read_together_keep_every_row_file_and_quarantine_key(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    batched = score(folder, tmp_path / "batched.duckdb")
    with monkeypatch.context() as patch:
        patch.setattr(reading, "_SMALL_FILE_ROWS", 0)  # every file alone, as before
        one_by_one = score(folder, tmp_path / "files.duckdb")
    bad = len([i for i in range(N_FILES) if i % 17 == 0 or i in (100, 101)])
    assert batched["rows_quarantined"] == one_by_one["rows_quarantined"] == bad
    scores, quarantine = stored(tmp_path / "batched.duckdb")
    scores_before, quarantine_before = stored(tmp_path / "files.duckdb")
    assert_frame_equal(scores, scores_before)
    assert_frame_equal(quarantine, quarantine_before)
    assert quarantine.filter(pl.col("case_id") == "same")["row_key"].n_unique() == 2
    # Each row names its own file, and its hive value came along.
    assert scores.filter(pl.col("case_id") == "c00003")["segments"].str.contains('"eu"').all()


def test_small_files_are_gathered_up_to_a_batch_and_by_columns(folder: Path) -> None:
    raws = list(reading.iter_batches(reading.resolve_source(folder), 64))
    assert sum(raw.frame.height for raw in raws) == N_FILES + 500
    gathered = [raw for raw in raws if raw.files is not None]
    assert max(raw.frame.height for raw in gathered) == 64
    assert sum(raw.frame.height for raw in gathered) == N_FILES
    for raw in gathered:
        assert raw.files.len() == raw.frame.height
    alone = {Path(raw.source_file).name for raw in raws if raw.files is None}
    assert alone == {"zz.parquet"}  # the large file is read as before
    # Batches end at 64 rows and where the columns change (the `channel` files).
    assert len(gathered) <= N_FILES // 64 + 6
