"""The one place logs are read: finding files and checking them (flows/read/finding.py),
streaming batches, files alike read together, and the row ranges a Dask run's partitions read
(flows/read/streaming.py; flows/engines/partitions.py asks here), and the repeated case_ids
pre-pass (flows/read/case_ids.py).

A SOURCE is a file, a folder (searched recursively, hive `key=value` folders become columns),
or a glob, of Parquet, CSV or JSON (flows/read/formats.py). A folder holding `questions`,
`contexts` and `outputs` (files or folders) is read in the three-table form and joined on
`case_id`; a table of turns or a chat log becomes cases in flows/read/turns.py.
"""

from __future__ import annotations

from flows.read.case_ids import duplicated_case_ids
from flows.read.file_stamps import check_unchanged, said_if_changed
from flows.read.finding import check_file, resolve_source
from flows.read.hive_folders import hive_values
from flows.read.shapes import RawBatch, Source
from flows.read.streaming import count_rows, file_rows, iter_batches, read_rows
from flows.read.three_tables import THREE_TABLES, orphan_rows

__all__ = [
    "DEFAULT_BATCH_SIZE",
    "MAX_BATCH_SIZE",
    "THREE_TABLES",
    "RawBatch",
    "Source",
    "check_file",
    "check_unchanged",
    "count_rows",
    "duplicated_case_ids",
    "even_batch_size",
    "file_rows",
    "hive_values",
    "iter_batches",
    "orphan_rows",
    "read_rows",
    "resolve_source",
    "said_if_changed",
]

# Rows per batch: read, scored and committed together. Above DuckDB's row group (122,880
# rows), so a batch's rows are written straight into the database file; smaller commits go
# through the WAL and are written again at the next checkpoint, which cost a third of a run's
# time (bench/pipeline.py). A batch in flight peaks at a few hundred MB, however large the
# input; `--batch-size` trades memory for speed.
DEFAULT_BATCH_SIZE = 150_000
# The most rows a batch may be asked to hold: more than any source ("all in one batch"),
# and within DuckDB's BIGINT, past which a batch size reached it as exit 1.
MAX_BATCH_SIZE = 10**18
# DuckDB's rows per row group: a commit of fewer rows goes through the WAL.
DUCKDB_ROW_GROUP = 122_880


def even_batch_size(total: int, batch_size: int) -> int:
    """The batch size a run of `total` rows uses: `batch_size`, or the same number of batches
    made even when that keeps each at a row group or more. 1M rows in batches of 150,000
    leave a last batch of 100,000, which went through the WAL and was written again as the
    store closed; seven of 142,858 are each written once."""
    batches = -(-total // batch_size)  # ceil
    even = -(-total // batches) if batches > 1 else batch_size
    return even if even >= DUCKDB_ROW_GROUP else batch_size
