"""Reading a source: every row once, in file order, in frames bounded by the batch size,
however the Parquet files were cut into row groups."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pyarrow.parquet as pq
import pytest

from flows.source import iter_batches, resolve_source
from tests.builders import many_cases


@pytest.mark.parametrize(
    ("rows", "row_group_size", "batch_size"),
    [
        (21, 7, 10),  # small row groups: runs of whole groups
        (24, 12, 10),  # a group a little longer than a batch: read whole
        (50, 50, 10),  # one group five batches long: streamed in batch-size pieces
        (5, 5, 10),  # a file smaller than a batch
    ],
)
def test_every_row_is_read_once_in_order(
    tmp_path: Path, rows: int, row_group_size: int, batch_size: int
) -> None:
    expected = many_cases(rows)
    path = tmp_path / "cases.parquet"
    pq.write_table(expected.to_arrow(), path, row_group_size=row_group_size)
    assert pq.ParquetFile(path).metadata.num_row_groups == -(-rows // row_group_size)

    frames = [raw.frame for raw in iter_batches(resolve_source(path), batch_size)]

    assert max(frame.height for frame in frames) <= 2 * batch_size
    got = pl.concat(frames)
    assert got["case_id"].to_list() == expected["case_id"].to_list()
    assert got.select(expected.columns).equals(expected)
