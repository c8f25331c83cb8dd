"""A Dask run's partitions are read by read/ (issue 21: one reader of sources): the row
ranges it plans, read piece by piece, are the rows the local engine reads, hive columns too."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from flows.engines.partitions import plan_partitions, read_partition
from flows.errors import InputUnreadable
from flows.read.source import DEFAULT_BATCH_SIZE, iter_batches, resolve_source
from tests.support.builders import many_cases, write


def test_partitions_read_the_rows_the_local_engine_reads(tmp_path: Path) -> None:
    rows = many_cases(25)
    write(rows.slice(0, 10), tmp_path / "day=1" / "a.parquet")
    write(rows.slice(10), tmp_path / "day=2" / "b.parquet")
    source = resolve_source(tmp_path)
    partitions = plan_partitions(source, 7)
    assert [p.rows for p in partitions] == [7, 7, 7, 4]  # one spans both files
    read = [raw.frame for p in partitions for raw in read_partition(p, str(tmp_path))]
    local = [raw.frame for raw in iter_batches(source, DEFAULT_BATCH_SIZE)]
    by_id = ["case_id"]
    assert pl.concat(read).sort(by_id).equals(pl.concat(local).sort(by_id))
    assert set(pl.concat(read)["day"]) == {"1", "2"}


def test_an_unreadable_piece_is_input_unreadable(tmp_path: Path) -> None:
    path = write(many_cases(5), tmp_path / "a.parquet")
    partitions = plan_partitions(resolve_source(path), 5)
    data = path.read_bytes()
    path.write_bytes(data[:4] + b"\0" * (len(data) - 12) + data[-8:])  # pages zeroed, footer kept
    with pytest.raises(InputUnreadable, match=r"a\.parquet: cannot read its data"):
        list(read_partition(partitions[0], None))


def test_partitions_find_contract_columns_in_any_case_as_the_local_engine_does(
    tmp_path: Path,
) -> None:
    """`Case_ID` and `Input` are `case_id` and `input` on both engines: Dask read them as
    segments and quarantined every row as `case_id_is_null`, `input_is_null`."""
    rows = many_cases(9).rename({"case_id": "Case_ID", "input": "Input"})
    source = resolve_source(write(rows, tmp_path / "a.parquet"))
    read = [raw.frame for p in plan_partitions(source, 4) for raw in read_partition(p, None)]
    local = [raw.frame for raw in iter_batches(source, DEFAULT_BATCH_SIZE)]
    assert pl.concat(read).columns[:2] == ["case_id", "input"]
    assert pl.concat(read).sort("case_id").equals(pl.concat(local).sort("case_id"))
