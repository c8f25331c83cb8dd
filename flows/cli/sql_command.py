"""`faith sql`: a query of your own on the database, with faithpipe's macros and views, read
only; printed as a table, or as CSV or JSON Lines for another program."""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

from flows.cli.option_types import whole_number
from flows.cli.options import EXIT_OK, add_db_argument, add_wait_argument

__all__ = ["add_sql_command"]

# Rows a table shows unless --limit says otherwise: a terminal is no place for a million.
TABLE_ROWS = 100


def add_sql_command(commands: argparse._SubParsersAction) -> None:
    """Add `faith sql QUERY` to the CLI's subcommands."""
    query = commands.add_parser(
        "sql",
        help="run a SQL query on the database (read only), with faithpipe's macros",
        description="Run QUERY on the database, read only, with the macros and views of "
        "docs/sql.md (pass_rates(), failure_attribution(), ...): what `duckdb -readonly DB` does, "
        "without installing DuckDB's own command-line client. While a run writes the "
        "database, its snapshot is read, as by faith report. A query DuckDB refuses is exit 2.",
    )
    query.add_argument("query", metavar="QUERY", help="the SQL to run; - reads it from stdin")
    add_db_argument(query)
    add_wait_argument(query)
    query.add_argument(
        "--format",
        choices=("table", "csv", "json"),
        default="table",
        help="table (default), csv (a header line, then the rows), or json (one object a line)",
    )
    query.add_argument(
        "--limit",
        type=whole_number(0, 2**62),
        default=None,
        metavar="N",
        help=f"print at most N rows (0: all; default {TABLE_ROWS} for a table, all for csv "
        "and json); a table says how many it left out",
    )
    query.set_defaults(command=sql_command)


def sql_command(args: argparse.Namespace) -> int:
    import polars as pl

    from faith_udfs.errors import ConfigError
    from flows.cli.output import print_frame
    from flows.store.db import connect_for_reading
    from flows.store.user_query import query_batches

    text = sys.stdin.read() if args.query == "-" else args.query
    if not text.strip():
        raise ConfigError("QUERY is empty: give the SQL to run (an unset variable?)")
    _check_utf8(text)
    limit = args.limit if args.limit is not None else (TABLE_ROWS if args.format == "table" else 0)
    con = connect_for_reading(args.db, wait=args.wait)
    kept: list[pl.DataFrame] = []
    shown = total = 0
    headed = False  # csv: the header line is out
    complete = False  # every row of the result was read: `total` is its count
    try:
        batches = query_batches(con, text)
        for batch in batches:
            room = batch.num_rows if not limit else max(0, min(batch.num_rows, limit - shown))
            if args.format == "table":
                if room or not kept:  # the first, even empty: its columns
                    kept.append(_frame(batch.slice(0, room)))
            elif room or not headed:  # the header, once, even of no rows
                _write(_frame(batch.slice(0, room)), args.format, header=not headed)
                headed = True
            elif limit:
                break  # printed as asked: the rest is not read
            total += batch.num_rows
            shown += room
            if args.format == "table" and total > shown:
                # rows left out: the next batch tells whether `total` is the count; the rest
                # is neither read nor counted (the first 100 of a billion rows)
                following = next(batches, None)
                complete = following is None
                total += 0 if following is None else following.num_rows
                break
        else:
            complete = True
    finally:
        con.close()
    if args.format == "table":
        title = f"{'' if complete else 'at least '}{total:,} row{'' if total == 1 else 's'}"
        if total > shown:
            title += f", the first {shown:,} shown (--limit 0 shows all)"
        print_frame(pl.concat(kept), title=title, null="NULL")  # not blank, as '' is
    return EXIT_OK


def _check_utf8(text: str) -> None:
    """A query of bytes that are not UTF-8 (a .sql file saved as Latin-1) comes from stdin or
    the command line with each such byte as a lone surrogate, which DuckDB cannot take: said
    as a bad QUERY (exit 2), the first byte named, rather than a UnicodeEncodeError (exit 1)."""
    from faith_udfs.errors import ConfigError

    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        code = ord(text[exc.start])
        what = f"the byte 0x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"U+{code:04X}"
        raise ConfigError(
            f"QUERY is not UTF-8 text ({what}, character {exc.start + 1} of the query): "
            "save it as UTF-8"
        ) from None


def _frame(batch: Any) -> Any:
    """An Arrow batch as a polars frame; a column of a type polars does not import as its
    values' text, so no result is refused (the types known to fail, an INTERVAL or a BLOB at
    any depth, come as DuckDB's text already: flows/store/user_query.py)."""
    import polars as pl

    from flows.store.user_query import WHOLE_NUMBERS

    try:
        frame = pl.DataFrame(pl.from_arrow(batch))
    except pl.exceptions.PolarsError:
        columns = []
        for name, column in zip(batch.schema.names, batch.columns, strict=True):
            try:
                columns.append(pl.Series(name, column))
            except pl.exceptions.PolarsError:
                texts = [None if value is None else str(value) for value in column.to_pylist()]
                columns.append(pl.Series(name, texts, dtype=pl.String))
        frame = pl.DataFrame(columns)
    return _whole(frame, (batch.schema.metadata or {}).get(WHOLE_NUMBERS))


def _whole(frame: Any, uhugeints: bytes | None) -> Any:
    """The frame with each whole number a 128-bit integer: a UHUGEINT, which comes as its
    digits (flows/store/user_query.py), and a DECIMAL of scale 0, as DuckDB gives a HUGEINT
    (a sum of counts: sum(scored)), which polars printed as `1.0000…E+38` in a table and
    wrote as a string ("27") in JSON."""
    import polars as pl

    named = json.loads(uhugeints) if uhugeints else []
    return frame.with_columns(
        [pl.col(name).cast(pl.UInt128) for name in named]
        + [
            pl.col(name).cast(pl.Int128)
            for name, dtype in frame.schema.items()
            if isinstance(dtype, pl.Decimal) and dtype.scale == 0
        ]
    )


def _write(frame: Any, fmt: str, *, header: bool) -> None:
    """Rows as CSV (the header before the first; a list, struct or map as its JSON text) or
    as JSON Lines, on stdout as they come."""
    import polars as pl

    if fmt == "csv":
        nested = [name for name, dtype in frame.schema.items() if dtype.is_nested()]
        texts = [pl.Series(name, _json_texts(frame[name].to_list())) for name in nested]
        sys.stdout.write(frame.with_columns(texts).write_csv(include_header=header))
    elif frame.height:  # a whole number is written as one (27, not "27"): _whole
        try:
            sys.stdout.write(frame.write_ndjson())
        except pl.exceptions.PolarsError:  # a map keyed by numbers: JSON's keys are text
            # a NaN or an infinity null, as polars writes it: `NaN` is no JSON to a parser
            rows = [_finite(row) for row in frame.to_dicts()]
            lines = (json.dumps(row, default=str, ensure_ascii=False) + "\n" for row in rows)
            sys.stdout.write("".join(lines))
    sys.stdout.flush()


def _json_texts(values: list[Any]) -> list[str | None]:
    """Each value as JSON text (None stays a null cell), its letters as they are (`é`, not
    `\\u00e9`); what JSON has no form for (a decimal) as its text."""
    return [
        None if value is None else json.dumps(value, default=str, ensure_ascii=False)
        for value in values
    ]


def _finite(value: Any) -> Any:
    """The value with each float that is not a finite number (NaN, an infinity) as None."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_finite(item) for item in value]
    return value
