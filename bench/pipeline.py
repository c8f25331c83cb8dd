"""Bench (not a test): generated Parquet -> DuckDB with the lexical judge, against the floor
measured in the same run: plain DuckDB copying the same Parquet into a table.

    python bench/pipeline.py [--rows 1000000] [--rss-rows 3000000] [--batch-size 50000]

Prints cases/s, peak RSS, the ratio to the floor (target: within 3x) and the peak-RSS ratio
between --rss-rows and --rows (target: at most 1.5x: memory does not grow with the input).
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import OUT, generated_cases, run_child, table

PIPELINE = """
import sys, time, logging
from flows.pipeline import run_score
from flows.settings import ScoreSettings
source, db, batch_size = sys.argv[1], sys.argv[2], int(sys.argv[3])
started = time.perf_counter()
run = run_score(ScoreSettings(source=source, db=db, batch_size=batch_size))
seconds = time.perf_counter() - started
assert run["rows_in"] == run["rows_scored"] + run["rows_invalid"] + run["rows_quarantined"]
result = {"path": "faithpipe score (lexical)", "cases": run["rows_in"],
          "seconds": round(seconds, 2), "scored": run["rows_scored"]}
"""

FLOOR = """
import sys, time, duckdb
source, db = sys.argv[1], sys.argv[2]
started = time.perf_counter()
con = duckdb.connect(db)
con.execute("CREATE TABLE cases AS SELECT * FROM read_parquet($p)", {"p": source + "/**/*.parquet"})
n = con.execute("SELECT count(*) FROM cases").fetchall()[0][0]
con.close()
result = {"path": "floor: DuckDB copies the Parquet", "cases": n,
          "seconds": round(time.perf_counter() - started, 2)}
"""


def measure(rows: int, batch_size: int) -> tuple[dict, dict]:
    source = generated_cases(rows, rows_per_file=100_000).parent
    work = OUT / "pipeline-db"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    floor = run_child(FLOOR, str(source), str(work / "floor.duckdb"))
    ours = run_child(PIPELINE, str(source), str(work / "faith.duckdb"), str(batch_size))
    size = sum(p.stat().st_size for p in work.glob("faith.duckdb*"))
    ours["db_mb"] = round(size / 2**20)
    floor["db_mb"] = round(sum(p.stat().st_size for p in work.glob("floor.duckdb*")) / 2**20)
    for row in (floor, ours):
        row["cases/s"] = f"{row['cases'] / row['seconds']:,.0f}"
        row["rows"] = f"{rows:,}"
    return floor, ours


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--rss-rows", type=int, default=3_000_000, help="0 to skip")
    parser.add_argument("--batch-size", type=int, default=50_000)
    args = parser.parse_args()
    floor, ours = measure(args.rows, args.batch_size)
    rows = [floor, ours]
    if args.rss_rows:
        big_floor, big = measure(args.rss_rows, args.batch_size)
        rows += [big_floor, big]
    columns = ["rows", "path", "cases", "seconds", "cases/s", "peak_rss_mb", "db_mb"]
    print(table(rows, columns))
    print(
        f"\npipeline / floor time at {args.rows:,} rows: {ours['seconds'] / floor['seconds']:.2f}x"
        "  (target: within 3x)"
    )
    if args.rss_rows:
        growth = big["peak_rss_mb"] / ours["peak_rss_mb"]
        print(f"peak RSS {args.rss_rows:,} / {args.rows:,} rows: {growth:.2f}x  (target <= 1.5x)")


if __name__ == "__main__":
    main()
