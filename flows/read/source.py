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
from flows.read.finding import check_file, hive_values, resolve_source
from flows.read.shapes import RawBatch, Source
from flows.read.streaming import count_rows, file_rows, iter_batches, read_rows
from flows.read.three_tables import THREE_TABLES, orphan_rows

__all__ = [
    "DEFAULT_BATCH_SIZE",
    "THREE_TABLES",
    "RawBatch",
    "Source",
    "check_file",
    "count_rows",
    "duplicated_case_ids",
    "file_rows",
    "hive_values",
    "iter_batches",
    "orphan_rows",
    "read_rows",
    "resolve_source",
]

# Rows per batch: read, scored and committed together. Above DuckDB's row group (122,880
# rows), so a batch's rows are written straight into the database file; smaller commits go
# through the WAL and are written again at the next checkpoint, which cost a third of a run's
# time (bench/pipeline.py). A batch in flight peaks at a few hundred MB, however large the
# input; `--batch-size` trades memory for speed.
DEFAULT_BATCH_SIZE = 150_000
