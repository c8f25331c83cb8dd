"""Every output table of a scoring database, without what differs run to run (run ids, the
run's times, seconds, the process; the logs' own times, `logged_at`, are kept): so a speed
change can be shown to keep the tables identical.

    python bench/tables_check.py DB --save DIR      # write DIR/<table>.parquet
    python bench/tables_check.py DB --against DIR   # compare; exit 1 on any difference

Both run in DuckDB in bounded memory: a 1M-row RAG database holds ~65M truths, which the
polars version of this script sorted in memory until the kernel killed it (24 GB). Tables are
compared by their row counts and the sum of their rows' hashes, in one streaming pass.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import duckdb

# Columns whose values belong to one run, not to its results.
_RUN_BOUND = {"run_id", "pid", "host", "source", "config"}
# What the comparison may hold in memory before it spills to its temporary folder.
_MEMORY_LIMIT = "2GB"


def _kept(column: str) -> bool:
    """Whether `column` holds results: a time of the run (`scored_at`, `started_at`) does not,
    a log's own time (`logged_at`, `first_logged_at`) does, as the input gave it."""
    run_time = column.endswith("_at") and not column.endswith("logged_at")
    return not (column in _RUN_BOUND or run_time or column.startswith("seconds"))


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _literal(path: Path) -> str:
    return "'" + str(path).replace("'", "''") + "'"


def kept_columns(con: duckdb.DuckDBPyConnection, catalog: str) -> dict[str, list[str]]:
    """Each base table of `catalog` and its columns that belong to the results."""
    rows = con.execute(
        "SELECT table_name, column_name FROM information_schema.columns "
        "WHERE table_catalog = $catalog AND table_schema = 'main' "
        "AND table_name IN (SELECT table_name FROM information_schema.tables "
        "  WHERE table_catalog = $catalog AND table_schema = 'main' "
        "  AND table_type = 'BASE TABLE') "
        "ORDER BY table_name, ordinal_position",
        {"catalog": catalog},
    ).fetchall()
    tables: dict[str, list[str]] = {}
    for table, column in rows:
        columns = tables.setdefault(table, [])
        if _kept(column):
            columns.append(column)
    return tables


def _select(catalog: str, table: str, columns: list[str]) -> str:
    listed = ", ".join(_quoted(c) for c in columns) or "1 AS no_kept_column"
    return f"SELECT {listed} FROM {_quoted(catalog)}.{_quoted(table)}"


def save(db: str | Path, folder: Path) -> None:
    """Write each table of `db` (run-bound columns dropped) as `folder/<table>.parquet`."""
    folder.mkdir(parents=True, exist_ok=True)
    con = duckdb.connect()
    try:
        con.execute(f"SET memory_limit = '{_MEMORY_LIMIT}'")
        con.execute(f"ATTACH {_literal(Path(db))} AS saved_db (READ_ONLY)")
        for table, columns in kept_columns(con, "saved_db").items():
            target = _literal(folder / f"{table}.parquet")
            con.execute(
                f"COPY ({_select('saved_db', table, columns)}) TO {target} (FORMAT parquet)"
            )
    finally:
        con.close()


def differences(db: str | Path, folder: Path) -> list[str]:
    """One line a table that differs from the dump saved in `folder` (none: identical): the
    same columns, as many rows, and the same sum of the rows' hashes (a digest of the rows as
    a multiset, in one streaming pass)."""
    saved = {path.stem: path for path in sorted(folder.glob("*.parquet"))}
    con = duckdb.connect()
    try:
        con.execute(f"SET memory_limit = '{_MEMORY_LIMIT}'")
        con.execute(f"ATTACH {_literal(Path(db))} AS now_db (READ_ONLY)")
        now = kept_columns(con, "now_db")
        found = [f"{name}: only in the saved dump" for name in sorted(saved.keys() - now.keys())]
        found += [f"{name}: not in the saved dump" for name in sorted(now.keys() - saved.keys())]
        for name in sorted(saved.keys() & now.keys()):
            found += _table_differences(con, name, saved[name], now[name])
    finally:
        con.close()
    return found


def _table_differences(
    con: duckdb.DuckDBPyConnection, name: str, saved: Path, columns: list[str]
) -> list[str]:
    before = f"SELECT * FROM read_parquet({_literal(saved)})"
    saved_columns = [row[0] for row in con.execute(f"DESCRIBE {before}").fetchall()]
    if saved_columns != (columns or ["no_kept_column"]):
        return [f"{name}: columns {saved_columns} != {columns}"]
    # Each value beside whether it is NULL: DuckDB hashes a NULL list, an empty list and a NULL
    # scalar alike, and `context_lacks` NULL and [] are different answers.
    listed = ", ".join(f"{_quoted(c)}, {_quoted(c)} IS NULL" for c in saved_columns)
    digest = f"SELECT count(*), sum(hash({listed})::HUGEINT) FROM ({{}})"
    rows_before, sum_before = con.execute(digest.format(before)).fetchall()[0]
    rows_now, sum_now = con.execute(digest.format(_select("now_db", name, columns))).fetchall()[0]
    if rows_before != rows_now:
        return [f"{name}: {rows_now:,} rows, saved {rows_before:,}"]
    if sum_before != sum_now:
        return [f"{name}: same {rows_now:,} rows count, different values"]
    return []


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--save", type=Path, metavar="DIR")
    group.add_argument("--against", type=Path, metavar="DIR")
    args = parser.parse_args()
    if not Path(args.db).is_file():
        parser.error(f"{args.db}: no such database file")
    if args.against and not args.against.is_dir():
        parser.error(f"--against {args.against}: no such folder (one --save wrote)")
    if args.save:
        save(args.db, args.save)
        print(f"saved {args.db}'s tables to {args.save}")
        return 0
    found = differences(args.db, args.against)
    print("\n".join(found) if found else f"every table identical to {args.against}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
