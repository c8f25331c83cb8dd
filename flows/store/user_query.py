"""A user's own SQL on a read-only connection (`faith sql`): its result in Arrow batches, and
a query DuckDB refuses as one line."""

from __future__ import annotations

import re
from collections.abc import Iterator

import duckdb
import pyarrow as pa
from duckdb.sqltypes import DuckDBPyType

from faith_udfs.errors import ConfigError

# Not the query's fault: a stop (Ctrl-C), memory or the disk, which the CLI says as for any
# command (130, 7, 12).
_NOT_THE_QUERYS = (
    duckdb.InterruptException,
    duckdb.OutOfMemoryException,
    duckdb.IOException,
    duckdb.FatalException,
)
# The text of a DuckDB error of the query's own (`Conversion Error: …`, `Invalid Input Error:
# …`), not of _NOT_THE_QUERYS (`INTERRUPT Error`, `Out of Memory Error`, `IO Error`, `FATAL`).
_REFUSED_ON_THE_WAY = re.compile(
    r"(?!INTERRUPT |Out of Memory |IO |FATAL )[A-Z][A-Za-z]*(?: [A-Za-z]+)* Error: "
)
# DuckDB types that polars does not import (INTERVAL, UNION: a panic, exit 1) or cannot write as
# CSV or JSON (BLOB, BIT, BIGNUM): a column holding one, at any depth, is given as DuckDB's
# own text of its values, as its client prints them (`3 days`, `[1 day]`, `\x00ab`).
_AS_TEXT = frozenset({"interval", "union", "blob", "bit", "bignum", "varint"})


def query_batches(
    con: duckdb.DuckDBPyConnection, query: str, rows: int = 65_536
) -> Iterator[pa.RecordBatch]:
    """The query's result, `rows` at a time, never all of it in memory. A query DuckDB
    refuses (its syntax, a table or column it does not know, a write on the read-only
    connection) is ConfigError (exit 2) with DuckDB's first line. At least one batch, for
    the columns of a result of no rows."""
    try:
        statements = _without_tail(query)
        if not statements.strip():
            raise ConfigError("QUERY holds no statement, only comments: give the SQL to run")
        relation = con.sql(statements)
        if relation is None:  # a statement with no result
            return
        reader = _printable(relation).to_arrow_reader(rows)
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
    except OSError as exc:
        # DuckDB's error after the first rows (a CAST failing on row 2,000,000) comes through
        # the Arrow reader as an OSError of DuckDB's text: the query's fault all the same
        if not _REFUSED_ON_THE_WAY.match(str(exc)):
            raise
        raise ConfigError(f"the query failed: {_said(exc)}") from None


def _without_tail(query: str) -> str:
    """The query without the semicolons and comments after its last statement, which DuckDB
    reads again when the result is cast (_printable): `SELECT INTERVAL 1 DAY; -- done` was a
    syntax error at `;`."""
    tokens = duckdb.tokenize(query)
    end = len(query)
    for start, kind in reversed(tokens):
        if kind != duckdb.token_type.comment and query[start] != ";":
            break
        end = start
    return query[:end]


def _printable(relation: duckdb.DuckDBPyRelation) -> duckdb.DuckDBPyRelation:
    """The relation, with each column of a type in _AS_TEXT (or holding one: a list of
    intervals) cast to VARCHAR, by position, under its own name. Columns of one name (a
    join's `*`: `config_id` twice), which polars takes no two of, are named as DuckDB names
    them in a table it makes of them (`config_id`, `config_id_1`)."""
    if len(set(relation.columns)) < len(relation.columns):
        relation = relation.project(
            ", ".join(f"#{place}" for place in range(1, len(relation.columns) + 1))
        )
    if not any(_holds_text_type(kind) for kind in relation.types):
        return relation
    columns = []
    for place, (name, kind) in enumerate(zip(relation.columns, relation.types, strict=True), 1):
        value = f"CAST(#{place} AS VARCHAR)" if _holds_text_type(kind) else f"#{place}"
        columns.append(f'{value} AS "{name.replace(chr(34), chr(34) * 2)}"')
    return relation.project(", ".join(columns))


def _holds_text_type(kind: DuckDBPyType) -> bool:
    if kind.id in _AS_TEXT:
        return True
    if kind.id in ("list", "array", "struct", "map"):
        return any(
            isinstance(child, DuckDBPyType) and _holds_text_type(child)
            for _, child in kind.children
        )
    return False


def _said(exc: duckdb.Error | OSError) -> str:
    """DuckDB's message on one line: its first paragraph (the error and its hint, `Did you
    mean "case_scores"?`), without the query's line and caret drawn below it."""
    paragraph = str(exc).strip().split("\n\n", 1)[0]
    return "; ".join(line.strip() for line in paragraph.splitlines() if line.strip()) or (
        type(exc).__name__
    )
