"""A user's own SQL on a read-only connection (`faith sql`): its result in Arrow batches, and
a query DuckDB refuses as one line."""

from __future__ import annotations

import json
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
# Dates and times polars takes but cannot all print: an infinite date or timestamp (a panic,
# exit 1), a year past 9999 (exit 1), `TIME '24:00:00'` (empty), a TIMETZ (its offset lost).
# Each, at any depth, is DuckDB's own text of it; a list, struct or map holding one stays one.
_TEMPORAL = frozenset(
    {
        "date",
        "time",
        "time_ns",
        "time with time zone",
        "timestamp",
        "timestamp_s",
        "timestamp_ms",
        "timestamp_ns",
        "timestamp with time zone",
    }
)
# DuckDB gives a UHUGEINT to Arrow as a signed DECIMAL(38, 0): one of 2^127 or more came out
# negative. Each, at any depth, is its digits as text, in its place as a date is; a column of
# them is named in the batches' schema metadata under WHOLE_NUMBERS (a JSON list of names), for
# the printer to take back as whole numbers.
_IN_PLACE = _TEMPORAL | {"uhugeint"}
# Inside a list, struct or map a HUGEINT or DECIMAL is its text too: polars gave each to Python
# as a Decimal, printed `Decimal('1.50')` and cut 2^127 - 1 to 38 digits (`…E+38`). On its own
# it is exact as it is (a polars Decimal; the printer makes a HUGEINT whole).
_NESTED_IN_PLACE = _IN_PLACE | {"hugeint", "decimal"}
_CONTAINERS = ("list", "array", "struct", "map")
WHOLE_NUMBERS = b"faithpipe.whole_numbers"


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
        printable = _printable(relation)
        whole = [
            name
            for name, kind in zip(printable.columns, relation.types, strict=True)
            if kind.id == "uhugeint"
        ]
        meta = {WHOLE_NUMBERS: json.dumps(whole).encode()} if whole else None
        reader = printable.to_arrow_reader(rows)
        given = False
        for batch in reader:
            given = True
            yield batch.replace_schema_metadata(meta) if meta else batch
        if not given:  # no rows: its columns all the same (a CSV's header, a table's)
            yield pa.RecordBatch.from_pylist([], schema=reader.schema.with_metadata(meta or {}))
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
    syntax error at `;`. DuckDB's tokens start at byte offsets of the UTF-8 text: a query with
    an `é` is cut in its bytes."""
    text = query.encode()
    end = len(text)
    for start, kind in reversed(duckdb.tokenize(query)):
        if kind != duckdb.token_type.comment and text[start : start + 1] != b";":
            break
        end = start
    return text[:end].decode()


def _printable(relation: duckdb.DuckDBPyRelation) -> duckdb.DuckDBPyRelation:
    """The relation, with each column of a type in _AS_TEXT (or holding one: a list of
    intervals) cast to VARCHAR, and each date or time in _TEMPORAL or UHUGEINT, at any depth,
    and each nested HUGEINT or DECIMAL, cast to VARCHAR in its place (a DATE[] to a VARCHAR[]),
    by position, under its own name. Columns
    of one name (a join's `*`: `config_id` twice), which polars takes no two of, are named as
    DuckDB names them in a table it makes of them (`config_id`, `config_id_1`)."""
    if len(set(relation.columns)) < len(relation.columns):
        relation = relation.project(
            ", ".join(f"#{place}" for place in range(1, len(relation.columns) + 1))
        )
    targets = [
        "VARCHAR"
        if _holds(kind, _AS_TEXT)
        else _with_text_times(kind)
        if kind.id in _IN_PLACE or (kind.id in _CONTAINERS and _holds(kind, _NESTED_IN_PLACE))
        else None
        for kind in relation.types
    ]
    if not any(targets):
        return relation
    columns = []
    for place, (name, target) in enumerate(zip(relation.columns, targets, strict=True), 1):
        value = f"CAST(#{place} AS {target})" if target else f"#{place}"
        columns.append(f"{value} AS {_quoted(name)}")
    return relation.project(", ".join(columns))


def _holds(kind: DuckDBPyType, ids: frozenset[str]) -> bool:
    """Whether `kind` is of one of the types `ids`, or holds one at any depth."""
    if kind.id in ids:
        return True
    if kind.id in _CONTAINERS:
        return any(
            isinstance(child, DuckDBPyType) and _holds(child, ids) for _, child in kind.children
        )
    return False


def _with_text_times(kind: DuckDBPyType | object) -> str:
    """The type `kind` with each date, time, UHUGEINT, HUGEINT or DECIMAL in it VARCHAR
    (`STRUCT("at" VARCHAR[])` for `STRUCT("at" DATE[])`)."""
    if not isinstance(kind, DuckDBPyType) or not _holds(kind, _NESTED_IN_PLACE):
        return str(kind)
    if kind.id in _NESTED_IN_PLACE:
        return "VARCHAR"
    if kind.id == "struct":
        fields = (f"{_quoted(name)} {_with_text_times(child)}" for name, child in kind.children)
        return f"STRUCT({', '.join(fields)})"
    children = dict(kind.children)
    if kind.id == "map":
        return f"MAP({_with_text_times(children['key'])}, {_with_text_times(children['value'])})"
    size = children["size"] if kind.id == "array" else ""
    return f"{_with_text_times(children['child'])}[{size}]"


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _said(exc: duckdb.Error | OSError) -> str:
    """DuckDB's message on one line: its first paragraph (the error and its hint, `Did you
    mean "case_scores"?`), without the query's line and caret drawn below it."""
    paragraph = str(exc).strip().split("\n\n", 1)[0]
    return "; ".join(line.strip() for line in paragraph.splitlines() if line.strip()) or (
        type(exc).__name__
    )
