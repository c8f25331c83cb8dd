"""A worker whose disk fills while it writes its shard fails the run as a full disk does
anywhere else in a run: exit 7 with the disk-full line, not exit 1 with polars' ComputeError
("parquet: File out of specification: underlying IO error: No space left on device")."""

from __future__ import annotations

import errno
from pathlib import Path

import polars as pl
import pytest

from flows.cli.commands import failure
from flows.engines.dask_run import run_score_on_dask
from flows.run.settings import ScoreSettings
from tests.flows.run.test_calibrate import InlineSubmitter
from tests.support.builders import many_cases, write
from tests.support.db_reading import query


def test_a_full_disk_under_the_shards_is_exit_7_and_leaves_no_half_shard(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = write(many_cases(6), tmp_path / "cases.parquet")
    db = tmp_path / "f.duckdb"
    write_parquet = pl.DataFrame.write_parquet

    def full_disk(frame: pl.DataFrame, file: object, **options: object) -> None:
        if ".shards" in str(file):  # what polars raises when the disk fills mid-write
            raise pl.exceptions.ComputeError(
                "parquet: File out of specification: underlying IO error: No space left on "
                "device (os error 28)"
            )
        write_parquet(frame, file, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(pl.DataFrame, "write_parquet", full_disk)
    settings = ScoreSettings(source=str(source), db=str(db), engine="dask", workers=1)
    with pytest.raises(OSError, match="writing Dask shard") as raised:
        run_score_on_dask(settings, InlineSubmitter())
    assert raised.value.errno == errno.ENOSPC
    code, line = failure(raised.value, str(db))
    assert code == 7
    assert line.endswith(
        "No space left on device: the disk is full; committed batches are safe: "
        "free disk space, then run again"
    )
    assert [status for (status,) in query(db, "SELECT status FROM runs")] == ["failed"]
    assert list((tmp_path / "f.duckdb.shards").rglob("*")) == []  # no half-written shard
