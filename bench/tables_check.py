"""Every output table of a scoring database, sorted, without what differs run to run (run ids,
times, seconds, the process): so a speed change can be shown to keep the tables identical.

    python bench/tables_check.py DB --save DIR      # write DIR/<table>.parquet
    python bench/tables_check.py DB --against DIR   # compare; exit 1 on any difference
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import duckdb
import polars as pl

# Columns whose values belong to one run, not to its results.
_RUN_BOUND = {"run_id", "pid", "host", "source", "config"}


def _kept(column: str) -> bool:
    return not (column in _RUN_BOUND or column.endswith("_at") or column.startswith("seconds"))


def dump(db: str | Path) -> dict[str, pl.DataFrame]:
    """Each base table, its run-bound columns dropped, rows sorted by every column left."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        names = [
            row[0]
            for row in con.execute(
                "SELECT table_name FROM information_schema.tables "
                "WHERE table_schema = 'main' AND table_type = 'BASE TABLE' ORDER BY 1"
            ).fetchall()
        ]
        tables = {}
        for name in names:
            frame = pl.from_arrow(con.sql(f'SELECT * FROM "{name}"').to_arrow_table())
            assert isinstance(frame, pl.DataFrame)
            frame = frame.select([c for c in frame.columns if _kept(c)])
            sortable = [c for c, t in frame.schema.items() if not t.is_nested()]
            tables[name] = frame.sort(sortable, nulls_last=True) if sortable else frame
        return tables
    finally:
        con.close()


def save(db: str | Path, folder: Path) -> None:
    """Write the dump of `db` as `folder/<table>.parquet`."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, frame in dump(db).items():
        frame.write_parquet(folder / f"{name}.parquet")


def differences(db: str | Path, folder: Path) -> list[str]:
    """One line a table that differs from the dump saved in `folder` (none: identical)."""
    now = dump(db)
    saved = {p.stem: pl.read_parquet(p) for p in sorted(folder.glob("*.parquet"))}
    found = [f"{name}: only in the saved dump" for name in saved.keys() - now.keys()]
    found += [f"{name}: not in the saved dump" for name in now.keys() - saved.keys()]
    for name in sorted(saved.keys() & now.keys()):
        a, b = saved[name], now[name]
        if a.columns != b.columns:
            found.append(f"{name}: columns {a.columns} != {b.columns}")
        elif a.height != b.height:
            found.append(f"{name}: {b.height:,} rows, saved {a.height:,}")
        elif not a.equals(b):
            found.append(f"{name}: same {a.height:,} rows count, different values")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--save", type=Path, metavar="DIR")
    group.add_argument("--against", type=Path, metavar="DIR")
    args = parser.parse_args()
    if args.save:
        save(args.db, args.save)
        print(f"saved {args.db}'s tables to {args.save}")
        return 0
    found = differences(args.db, args.against)
    print("\n".join(found) if found else f"every table identical to {args.against}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
