"""Bench (not a test): the same generated source scored with `--engine local` and with
`--engine dask --workers 2`, each in a fresh process on a fresh database, in one script.

    python bench/engines.py [--rows 1000000] [--workers 2] [--batch-size N] [--llm-cases 200]

Prints both times (the Dask time with and without starting its local cluster), their ratio
(target: Dask within 1.5x of local on this 2-core machine, where Dask cannot be faster:
polars already uses both cores), the peak RSS of every process (the flow process and each
worker), and checks that both databases hold the same rows in every output table and the
same run counts. Then the LLM judge against the local stub server: calls with each engine
(equal: the items partitions share are asked once, before they start) and the most calls in
flight.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import OUT, ROOT, generated_cases, run_child, table, whole_number

sys.path.insert(0, str(ROOT))
import polars as pl

from flows.judges.settings import JudgeSettings
from flows.run.settings import ScoreSettings

LOCAL = """
from flows.allocator import keep_freed_pages; keep_freed_pages()  # as the CLI does
import sys, time
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
settings = ScoreSettings.model_validate_json(sys.argv[1])
started = time.perf_counter()
run = run_score(settings)
seconds = time.perf_counter() - started
result = {"engine": "local", "cases": run["rows_in"], "seconds": round(seconds, 2),
          "run_seconds": round(seconds, 2), "batches": run["batches"],
          "judge_calls": run["judge_calls"]}
"""

# What `faith score SOURCE --engine dask --workers N --prefect no` runs, with the workers'
# peak RSS read before the cluster closes.
DASK = """
from flows.allocator import keep_freed_pages; keep_freed_pages()  # as the CLI does
import re, sys, time
from flows.engines.cluster import dask_client
from flows.engines.dask_run import run_score_on_dask
from flows.engines.submitters import ClientSubmitter
from flows.run.settings import ScoreSettings

def peak_rss_mb():
    status = open("/proc/self/status").read()
    return round(int(re.search(r"VmHWM:\\s+(\\d+)", status).group(1)) / 1024, 1)

settings = ScoreSettings.model_validate_json(sys.argv[1])
workers = settings.workers
started = time.perf_counter()
with dask_client(settings) as client:
    client.wait_for_workers(workers)
    ready = time.perf_counter()
    run = run_score_on_dask(settings, ClientSubmitter(client))
    finished = time.perf_counter()
    worker_rss = sorted(client.run(peak_rss_mb).values())
result = {"engine": f"dask, {workers} workers", "cases": run["rows_in"],
          "seconds": round(finished - started, 2), "run_seconds": round(finished - ready, 2),
          "batches": run["batches"], "worker_peak_rss_mb": worker_rss,
          "judge_calls": run["judge_calls"]}
"""


# What the LLM part leaves out: when replies were stored, and the cache hits a run counts (a
# Dask run's partitions also find the items they share, asked before they start, cached).
# Calls and tokens, each case's and each run's, are compared.
JUDGE_ACCOUNTING = ("judge_cached", "created_at")


def same_outputs(local_db: Path, dask_db: Path, *, but: tuple[str, ...] = ()) -> list[str]:
    """Tables (and run counts) that differ between the two databases, leaving out the
    columns `but`; empty when equal."""
    sys.path.insert(0, str(ROOT))
    from tests.support.engine_sources import output_tables, run_counts

    def kept(frame: pl.DataFrame) -> pl.DataFrame:
        return frame.drop([c for c in but if c in frame.columns])

    local, dask = output_tables(local_db), output_tables(dask_db)
    differ = [name for name, frame in local.items() if not kept(dask[name]).equals(kept(frame))]
    counts = [{k: v for k, v in run.items() if k not in but} for run in run_counts(local_db)]
    if counts != [{k: v for k, v in run.items() if k not in but} for run in run_counts(dask_db)]:
        differ.append("runs (counts)")
    return differ


def compare(
    settings: ScoreSettings, workers: int, columns: list[str], *, but: tuple[str, ...] = ()
) -> tuple[dict, dict]:
    """Score with both engines, each in a fresh process on a fresh database; print both."""
    work = OUT / "engines-db"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    runs = []
    for name, code, extra in (
        ("local", LOCAL, {}),
        ("dask", DASK, {"engine": "dask", "workers": workers}),
    ):
        os.sync()
        time.sleep(2)
        options = {**extra, "db": str(work / f"{name}.duckdb")}
        runs.append(run_child(code, settings.model_copy(update=options).model_dump_json()))
    local, dask = runs
    for row in runs:
        row["cases/s"] = f"{row['cases'] / row['run_seconds']:,.0f}"
    print(table(runs, columns))
    differ = same_outputs(work / "local.duckdb", work / "dask.duckdb", but=but)
    left_out = f" (leaving out {', '.join(but)})" if but else ""
    print(f"outputs equal{left_out}: " + ("yes" if not differ else f"NO ({', '.join(differ)})"))
    if differ:
        raise SystemExit(1)
    return local, dask


def llm_calls(cases: int, workers: int) -> None:
    """The LLM judge (per-item mode, --concurrency 3) against the local stub server: calls
    with each engine, and the most calls the stub saw in flight."""
    sys.path.insert(0, str(ROOT))
    from data.generate import generate_cases
    from tests.support.openai_stub import StubServer

    source = OUT / f"llm-cases-{cases}.parquet"
    generate_cases(cases, seed=11).write_parquet(source)
    os.environ["OPENAI_API_KEY"] = "bench-key"
    with StubServer(api_key="bench-key") as stub:
        judge = JudgeSettings(
            kind="openai", model="stub", base_url=stub.base_url, mode="per-item", concurrency=3
        )
        settings = ScoreSettings(source=str(source), db="x", batch_size=cases // 4, judge=judge)
        columns = ["engine", "cases", "batches", "seconds", "judge_calls"]
        compare(settings, workers, columns, but=JUDGE_ACCOUNTING)
        print(f"most calls in flight at the stub: {stub.max_in_flight} (--concurrency 3)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=whole_number, default=1_000_000)
    parser.add_argument("--workers", type=whole_number, default=2)
    parser.add_argument("--batch-size", type=whole_number, default=150_000)
    parser.add_argument("--llm-cases", type=int, default=200, help="0 to skip the LLM part")
    args = parser.parse_args()
    if args.llm_cases and args.llm_cases < 4:  # four partitions: a batch size of 0 otherwise
        parser.error(
            "argument --llm-cases: 0 to skip the LLM part, or at least 4 cases (4 partitions), "
            f"got {args.llm_cases}"
        )
    source = generated_cases(args.rows, rows_per_file=100_000).parent
    settings = ScoreSettings(source=str(source), db="x", batch_size=args.batch_size)
    columns = ["engine", "cases", "batches", "seconds", "run_seconds", "cases/s"]
    local, dask = compare(settings, args.workers, [*columns, "peak_rss_mb", "worker_peak_rss_mb"])
    print(
        f"dask/local: {dask['seconds'] / local['seconds']:.2f}x with starting the cluster, "
        f"{dask['run_seconds'] / local['run_seconds']:.2f}x without (target <= 1.5x)"
    )
    if args.llm_cases:
        llm_calls(args.llm_cases, args.workers)


if __name__ == "__main__":
    main()
