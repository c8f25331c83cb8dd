"""Bench (not a test): peak RSS and throughput of a run as the input grows, with ratios against
the smallest run of the same script.

    python bench/memory.py [--rows 1000000,3000000,10000000] [--batch-size N] [--shape S]

Each size is scored by `run_score` on the plain route with the default judge (`faith score
SOURCE --db DB`), in a fresh process on a fresh database and a quiet disk. Sources are generated
once and streamed to Parquet files of 100,000 rows under bench/out/ (10M rows: ~0.4 GB,
~6 min to generate; the run's database then takes ~1.7 GB). Prints every run, then each size's
peak RSS and throughput against the first size (targets, issue 14: peak RSS at most 1.3x,
throughput within 15%, that is at least 0.85x). CPU-seconds per 1M rows are printed too: on a
machine shared with other work they move less than wall time. Both are the run's own
(`run_score`), not its process's start and imports. `prepass_rss_mb` is the peak
RSS of the pass that finds repeated case_ids, run alone in a process of its own.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import OUT, generated_cases, run_child, table, whole_numbers
from shapes import SHAPES

# What `faith score SOURCE --db DB --prefect no` runs, the allocator set first as the CLI does
# (flows/allocator.py), plus the CPU time the run took (user + system, every thread), over the
# same span as its seconds.
TIMED = """
from flows.allocator import keep_freed_pages; keep_freed_pages()  # as the CLI does
import os, sys, time
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
source, db, batch_size = sys.argv[1], sys.argv[2], sys.argv[3]
options = {"batch_size": int(batch_size)} if batch_size != "default" else {}
settings = ScoreSettings(source=source, db=db, **options)
started, cpu0 = time.perf_counter(), os.times()
run = run_score(settings)
seconds, cpu1 = time.perf_counter() - started, os.times()
assert run["rows_in"] == (
    run["rows_scored"] + run["rows_invalid"] + run["rows_pending"] + run["rows_quarantined"]
)
result = {"cases": run["rows_in"], "seconds": round(seconds, 2), "batches": run["batches"]}
# the run's own CPU, as its seconds: not the process's start and imports (~1-2 CPU-s)
result["cpu_seconds"] = round(cpu1.user - cpu0.user + cpu1.system - cpu0.system, 2)
"""


# The pass that finds repeated case_ids, alone: it reads every id of the source before the run.
PREPASS = """
from flows.allocator import keep_freed_pages; keep_freed_pages()
import sys, time
from flows.read.source import duplicated_case_ids, resolve_source
started = time.perf_counter()
repeated = duplicated_case_ids(resolve_source(sys.argv[1])).height
result = {"repeated": repeated, "seconds": round(time.perf_counter() - started, 2)}
"""

RSS_TARGET = 1.3


def quiet(code: str, *args: str) -> dict:
    """run_child once the disk has written back what earlier runs left dirty."""
    os.sync()
    time.sleep(2)
    return run_child(code, *args)


THROUGHPUT_TARGET = 0.85


def measure(rows: int, batch_size: str, shape: str | None) -> dict:
    """Score `rows` generated cases on a fresh database; the child's figures."""
    source = generated_cases(rows, rows_per_file=100_000, shape=shape).parent
    work = OUT / "memory-db"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    prepass = quiet(PREPASS, str(source))
    run = quiet(TIMED, str(source), str(work / "faith.duckdb"), batch_size)
    run["prepass_rss_mb"] = prepass["peak_rss_mb"]
    run["db_mb"] = round(sum(p.stat().st_size for p in work.glob("faith.duckdb*")) / 2**20)
    shutil.rmtree(work, ignore_errors=True)
    run["rows"] = f"{rows:,}"
    run["cases/s"] = round(run["cases"] / run["seconds"])
    run["cpu_s/1M"] = round(run["cpu_seconds"] / run["cases"] * 1e6, 1)
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--rows", type=whole_numbers, default="1000000,3000000,10000000", help="comma-separated"
    )
    parser.add_argument("--batch-size", default="default", help="default: faith's own")
    parser.add_argument("--shape", default=None, choices=SHAPES, help="a shape of bench/shapes.py")
    args = parser.parse_args()
    sizes = args.rows
    runs = []
    for rows in sizes:
        runs.append(measure(rows, args.batch_size, args.shape))
        print(f"{runs[-1]['rows']} rows: {runs[-1]}", flush=True)
    base = runs[0]
    for run in runs:
        run["rss_ratio"] = f"{run['peak_rss_mb'] / base['peak_rss_mb']:.2f}x"
        run["throughput_ratio"] = f"{run['cases/s'] / base['cases/s']:.2f}x"
        run["cpu_ratio"] = f"{run['cpu_s/1M'] / base['cpu_s/1M']:.2f}x"
    columns = ["rows", "seconds", "cases/s", "cpu_s/1M", "peak_rss_mb", "prepass_rss_mb", "db_mb"]
    print(table(runs, [*columns, "rss_ratio", "throughput_ratio", "cpu_ratio"]))
    last = runs[-1]
    print(
        f"\nat {last['rows']} rows against {base['rows']}: peak RSS {last['rss_ratio']} "
        f"(target <= {RSS_TARGET}x), throughput {last['throughput_ratio']} "
        f"(target >= {THROUGHPUT_TARGET}x), CPU per row {last['cpu_ratio']}"
    )


if __name__ == "__main__":
    main()
