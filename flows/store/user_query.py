"""A user's own SQL on a read-only connection (`faith sql`): its result in Arrow batches, and
a query DuckDB refuses as one line."""

from __future__ import annotations

from collections.abc import Iterator

import duckdb
import pyarrow as pa

from faith_udfs.errors import ConfigError

# Not the query's fault: a stop (Ctrl-C), memory or the disk, which the CLI says as for any
# command (130, 7, 12).
_NOT_THE_QUERYS = (
    duckdb.InterruptException,
    duckdb.OutOfMemoryException,
    duckdb.IOException,
    duckdb.FatalException,
)


def query_batches(
    con: duckdb.DuckDBPyConnection, query: str, rows: int = 65_536
) -> Iterator[pa.RecordBatch]:
    """The query's result, `rows` at a time, never all of it in memory. A query DuckDB
    refuses (its syntax, a table or column it does not know, a write on the read-only
    connection) is ConfigError (exit 2) with DuckDB's first line, as is a query of comments
    alone. At least one batch, for the columns of a result of no rows."""
    try:
        relation = con.sql(query)
        if relation is None:  # no statement at all: `faith sql` printed a ValueError (exit 1)
            raise ConfigError("the query holds no statement (only comments?): give the SQL to run")
        reader = relation.to_arrow_reader(rows)
        given = False
        for batch in reader:
            given = True
            yield batch
        if not given:  # no rows: its columns all the same (a CSV's header, a table's)
            yield pa.RecordBatch.from_pylist([], schema=reader.schema)
    except _NOT_THE_QUERYS:
        raise
    except duckdb.Error as exc:
        raise ConfigError(f"the query failed: {_said(exc)}") from None


def _said(exc: duckdb.Error) -> str:
    """DuckDB's message on one line: its first paragraph (the error and its hint, `Did you
    mean "case_scores"?`), without the query's line and caret drawn below it."""
    paragraph = str(exc).strip().split("\n\n", 1)[0]
    return "; ".join(line.strip() for line in paragraph.splitlines() if line.strip()) or (
        type(exc).__name__
    )
