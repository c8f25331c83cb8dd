"""Reading a source: every row once, in file order, in frames bounded by the batch size,
however the Parquet files were cut into row groups."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pyarrow.parquet as pq
import pytest

from flows.read.source import iter_batches, resolve_source
from tests.support.builders import many_cases, write


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


def test_files_named_like_glob_patterns_are_read_as_themselves(tmp_path: Path) -> None:
    rows = many_cases(12)
    # `part[1]` is also a pattern that matches `part1`: each must still be read as itself.
    write(rows.slice(0, 5), tmp_path / "wide" / "part[1].parquet")
    write(rows.slice(5, 7), tmp_path / "wide" / "part1.parquet")
    got = {
        Path(raw.source_file).name: raw.frame["case_id"].to_list()
        for raw in iter_batches(resolve_source(tmp_path / "wide"), 100)
    }
    assert got == {
        "part[1].parquet": rows["case_id"][:5].to_list(),
        "part1.parquet": rows["case_id"][5:].to_list(),
    }


def test_three_table_files_named_like_glob_patterns_are_read_as_themselves(
    tmp_path: Path,
) -> None:
    wide = many_cases(12)
    folder = tmp_path / "three"
    contexts = wide.select(
        "case_id",
        text="retrieval_context",
        position=pl.int_ranges(pl.col("retrieval_context").list.len()),
    ).explode("text", "position")
    for table, frame in [
        ("questions", wide.select("case_id", "input", "logged_at")),
        ("contexts", contexts),
        ("outputs", wide.select("case_id", "actual_output")),
    ]:
        write(frame.slice(0, 5), folder / table / "part[1].parquet")
        write(frame.slice(5), folder / table / "part1.parquet")
    read = pl.concat(raw.frame for raw in iter_batches(resolve_source(folder), 100))
    columns = ["case_id", "input", "actual_output", "retrieval_context", "logged_at"]
    # Whole rows: a file read twice would double passages, not just case_ids.
    assert read.select(columns).sort("case_id").equals(wide.select(columns).sort("case_id"))
