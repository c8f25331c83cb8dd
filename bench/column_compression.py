"""What DuckDB's choice of compression costs each string column of a run's tables.

    python bench/column_compression.py DB [--tables case_scores,claim_verdicts]
        [--columns a,b] [--modes default,uncompressed,zstd] [--rounds 2]

Copies each string column of DB (a database `faith score` wrote) into a fresh table, in
batches of 150,000 rows as a run commits them, once per compression (`default`: DuckDB's
choice, DICT_FSST for text; otherwise `USING COMPRESSION mode`), and prints the CPU-seconds
of the inserts and the checkpoint, the file's size and the compressions DuckDB used. The
best of `--rounds` is printed; ratios are against `default` in the same run.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import duckdb

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import whole_number

_BATCH = 150_000


def _column_cost(frame: object, sql_type: str, mode: str, work: Path) -> tuple[float, int, str]:
    path = work / f"column-{mode}.duckdb"
    path.unlink(missing_ok=True)
    Path(f"{path}.wal").unlink(missing_ok=True)
    con = duckdb.connect(str(path))
    try:
        using = "" if mode == "default" else f" USING COMPRESSION {mode}"
        con.execute(f"CREATE TABLE t (x {sql_type}{using})")
        con.register("source", frame)
        rows = con.execute("SELECT count(*) FROM source").fetchall()[0][0]
        started = time.process_time()
        for offset in range(0, rows, _BATCH):
            con.execute("BEGIN")
            con.execute(
                "INSERT INTO t SELECT * FROM source LIMIT $n OFFSET $o", {"n": _BATCH, "o": offset}
            )
            con.execute("COMMIT")
        con.execute("CHECKPOINT")
        cpu = time.process_time() - started
        used = con.execute(
            "SELECT string_agg(DISTINCT compression, '/' ORDER BY compression) "
            "FROM pragma_storage_info('t') WHERE compression <> 'Constant'"
        ).fetchall()[0][0]
    finally:
        con.close()
    return cpu, path.stat().st_size, used or ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db")
    parser.add_argument("--tables", default="case_scores,claim_verdicts")
    parser.add_argument("--columns", default="", help="only these columns (default: every string)")
    parser.add_argument("--modes", default="default,uncompressed,zstd")
    parser.add_argument("--rounds", type=whole_number, default=2)
    args = parser.parse_args(argv)
    if not Path(args.db).is_file():
        parser.error(f"{args.db}: no such database file")
    modes = args.modes.split(",")
    if modes[0] != "default":
        modes.insert(0, "default")
    only = set(filter(None, args.columns.split(",")))
    source = duckdb.connect(args.db, read_only=True)
    print(f"{'column':32s} {'mode':13s} {'CPU-s':>7s} {'x':>6s} {'MB':>7s} {'x':>6s}  used")
    with tempfile.TemporaryDirectory() as work:
        for table in args.tables.split(","):
            columns = source.execute(
                "SELECT column_name, data_type FROM information_schema.columns "
                "WHERE table_name = $t AND data_type = 'VARCHAR' ORDER BY ordinal_position",
                {"t": table},
            ).fetchall()
            for column, sql_type in columns:
                if only and column not in only:
                    continue
                frame = source.sql(f'SELECT "{column}" FROM {table}').to_arrow_table()
                base: tuple[float, int] | None = None
                for mode in modes:
                    runs = [
                        _column_cost(frame, sql_type, mode, Path(work)) for _ in range(args.rounds)
                    ]
                    cpu = min(run[0] for run in runs)
                    size, used = runs[0][1], runs[0][2]
                    base = base or (cpu, size)
                    print(
                        f"{table + '.' + column:32s} {mode:13s} {cpu:7.3f} {cpu / base[0]:5.2f}x "
                        f"{size / 2**20:7.1f} {size / base[1]:5.2f}x  {used}",
                        flush=True,
                    )
    source.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
