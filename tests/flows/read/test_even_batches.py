"""A run's batches made even when that keeps each at a DuckDB row group or more: no last,
small batch through the WAL, written again as the store closes."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from flows.read.source import DEFAULT_BATCH_SIZE, DUCKDB_ROW_GROUP, even_batch_size


def batches(total: int, size: int) -> tuple[int, int]:
    """How many batches of `size` rows `total` rows make, and the last one's rows."""
    count = -(-total // size)
    return count, total - (count - 1) * size if count else 0


def test_a_million_rows_take_seven_even_batches_instead_of_a_short_last_one() -> None:
    assert batches(1_000_000, DEFAULT_BATCH_SIZE) == (7, 100_000)  # below a row group
    size = even_batch_size(1_000_000, DEFAULT_BATCH_SIZE)
    assert size == 142_858
    assert batches(1_000_000, size) == (7, 142_852)


def test_small_runs_and_small_batch_sizes_keep_the_size_asked_for() -> None:
    assert even_batch_size(3_003, DEFAULT_BATCH_SIZE) == DEFAULT_BATCH_SIZE  # one batch
    assert even_batch_size(160_000, DEFAULT_BATCH_SIZE) == DEFAULT_BATCH_SIZE  # 80,000 each: no
    assert even_batch_size(1_000_000, 50_000) == 50_000  # every batch below a row group anyway
    assert even_batch_size(0, DEFAULT_BATCH_SIZE) == DEFAULT_BATCH_SIZE


@given(st.integers(0, 50_000_000), st.integers(1, 2_000_000))
def test_even_batches_are_no_larger_and_no_more_numerous(total: int, size: int) -> None:
    even = even_batch_size(total, size)
    assert even <= size  # the memory a batch may take is the user's
    assert batches(total, even)[0] == batches(total, size)[0]
    assert even == size or batches(total, even)[1] >= DUCKDB_ROW_GROUP
