"""Bench (not a test): generated Parquet -> DuckDB with the default judge, against the floor
measured in the same script: plain DuckDB copying the same Parquet into a table.

    python bench/pipeline.py [--rows 1000000] [--rounds 5] [--rss-rows 3000000] [--batch-size N]

Each round runs the floor, then the pipeline, each in a fresh process on a fresh database and
a quiet disk, so machine noise hits both alike. Prints every run, the median ratio of pipeline
to floor time (target: within 3.5x) with its range over the rounds, cases/s, and the peak-RSS
ratio between --rss-rows and --rows (target: at most 1.5x: memory does not grow with the input).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import OUT, generated_cases, run_child, table

# What `faith score SOURCE --db DB` runs on the plain route; the allocator is set first, as
# the CLI does (flows/allocator.py).
PIPELINE = """
from flows.allocator import keep_freed_pages; keep_freed_pages()  # as the CLI does
import sys, time
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
source, db, batch_size = sys.argv[1], sys.argv[2], sys.argv[3]
options = {"batch_size": int(batch_size)} if batch_size != "default" else {}
settings = ScoreSettings(source=source, db=db, **options)
started = time.perf_counter()
run = run_score(settings)
seconds = time.perf_counter() - started
assert run["rows_in"] == run["rows_scored"] + run["rows_invalid"] + run["rows_quarantined"]
assert run["rows_newly_scored"] == run["rows_in"] - run["rows_quarantined"] - run["rows_invalid"]
result = {"path": f"faithpipe score ({settings.judge.kind})", "cases": run["rows_in"],
          "seconds": round(seconds, 2), "batches": run["batches"]}
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


def quiet(code: str, *args: str) -> dict:
    """run_child once the disk has written back what earlier runs left dirty: otherwise the
    kernel's writeback of one run's database slows the next (~0.5 s measured here)."""
    os.sync()
    time.sleep(2)
    return run_child(code, *args)


def measure(rows: int, batch_size: str, *, with_floor: bool = True) -> tuple[dict | None, dict]:
    """One round: the floor, then the pipeline, each on a fresh database file."""
    source = generated_cases(rows, rows_per_file=100_000).parent
    work = OUT / "pipeline-db"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    floor = quiet(FLOOR, str(source), str(work / "floor.duckdb")) if with_floor else None
    ours = quiet(PIPELINE, str(source), str(work / "faith.duckdb"), batch_size)
    ours["db_mb"] = round(sum(p.stat().st_size for p in work.glob("faith.duckdb*")) / 2**20)
    for row in (floor, ours):
        if row:
            row["cases/s"] = f"{row['cases'] / row['seconds']:,.0f}"
            row["rows"] = f"{rows:,}"
    if floor:
        floor["db_mb"] = round(sum(p.stat().st_size for p in work.glob("floor.duckdb*")) / 2**20)
        ours["ratio"] = f"{ours['seconds'] / floor['seconds']:.2f}x"
    return floor, ours


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--rss-rows", type=int, default=3_000_000, help="0 to skip")
    parser.add_argument("--batch-size", default="default", help="default: faith's own")
    args = parser.parse_args()
    printed: list[dict] = []
    ratios, ours_rss = [], []
    for round_ in range(1, args.rounds + 1):
        floor, ours = measure(args.rows, args.batch_size)
        assert floor is not None
        for row in (floor, ours):
            row["round"] = round_
        printed += [floor, ours]
        ratios.append(ours["seconds"] / floor["seconds"])
        ours_rss.append(ours["peak_rss_mb"])
    if args.rss_rows:
        _, big = measure(args.rss_rows, args.batch_size, with_floor=False)
        big["round"] = "rss"
        printed.append(big)
    columns = ["round", "rows", "path", "cases", "seconds", "cases/s", "ratio", "batches"]
    print(table(printed, [*columns, "peak_rss_mb", "db_mb"]))
    print(
        f"\npipeline / floor time at {args.rows:,} rows: median {statistics.median(ratios):.2f}x "
        f"over {args.rounds} rounds (range {min(ratios):.2f}-{max(ratios):.2f}x)"
        "  (target: within 3.5x)"
    )
    if args.rss_rows:
        growth = big["peak_rss_mb"] / statistics.median(ours_rss)
        print(
            f"peak RSS {args.rss_rows:,} / {args.rows:,} rows: {growth:.2f}x "
            f"(against the median of the {args.rows:,}-row runs)  (target <= 1.5x)"
        )


if __name__ == "__main__":
    main()
