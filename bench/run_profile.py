"""Bench (not a test): where a scoring run's time goes, for bench/pipeline.py's figures.

    python bench/run_profile.py [--rows 1000000] [--shape support,rag,repetitive,chat]
    python bench/run_profile.py --source PATH      # your own logs, as `faith score` reads them

For each shape (bench/shapes.py), two measurements of the same generated source, each in a
fresh process:
1. the batch steps run one after another on one thread (read, validate, classify, judge,
   write), on batches of `--batch-size` rows gathered as a run gathers them, with the
   process's CPU seconds each took: what every step costs, no overlap; the
   write apart for each result table (its INSERT), the run's counts, and the COMMIT, where
   DuckDB writes the blocks out; "write: frames" is what is left (building the rows);
2. a real run (`run_score`): its wall time, its CPU time, and the cores it kept busy on average.
Step costs include the thread pools' idle spinning between steps, so they add up to more than
the real run's CPU seconds.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import OUT, generated_cases, run_child, table, whole_number
from shapes import SHAPES, shape_names

STEPS = r"""
from flows.allocator import keep_freed_pages; keep_freed_pages()  # as the CLI does
import re, sys, time, shutil
from contextlib import contextmanager
from pathlib import Path
import flows.store.batch_writes as batch_writes
from flows.store.db import statements
import polars as pl
from flows.run.batches import (
    Batch, QuarantineKeys, classify, config_has_cases, score_batch, validate_batch,
)
from flows.judges.factory import build_judge
from flows.run.settings import ScoreSettings
from flows.read.source import iter_batches, resolve_source
from flows.store.batch_writes import write_batch
from flows.store.db import open_store

source, db = sys.argv[1], Path(sys.argv[2])
shutil.rmtree(db.parent, ignore_errors=True)
db.parent.mkdir(parents=True)
settings = ScoreSettings(source=source, db=str(db))
con = open_store(db)
judge = build_judge(settings.judge, con)
config = settings.metric_config()
config_id = config.config_id(judge.identity)
con.execute(
    "INSERT INTO runs (run_id, flow, config_id, config, source, status, started_at) "
    "VALUES ('profile', 'score', $c, '{}', $s, 'running', now())",
    {"c": config_id, "s": source},
)
stored_before = config_has_cases(con, config_id)  # as a run decides it
cpu = dict.fromkeys(["read", "validate", "classify", "judge", "write: frames"], 0.0)
keys = QuarantineKeys()
clock = time.process_time()

def spent(step):
    global clock
    now = time.process_time()
    cpu[step] = cpu.get(step, 0.0) + now - clock
    clock = now

pending = []  # a query batch_writes runs itself (sql(NAME) then con.execute): its name

def timed_sql(name):
    spent("write: frames")
    pending.append(name)
    return real_sql(name)

def flush():
    spent(f"write: {pending.pop()}" if pending else "write: frames")

def timed_sql_file(con, name, params=None):
    # run_sql_file, each statement's CPU seconds under the table it writes
    params = params or {}
    for statement in statements(name):
        flush()
        named = set(re.findall(r"\$(\w+)", statement))
        con.execute(statement, {k: v for k, v in params.items() if k in named})
        target = re.search(r"(INSERT INTO|DELETE FROM|UPDATE)\s+(\w+)", statement)
        spent(f"write: {target.group(2) if target else name}")

real_transaction = batch_writes.transaction

@contextmanager
def timed_transaction(con):
    with real_transaction(con):
        yield con
        flush()
    spent("write: COMMIT")

real_sql = batch_writes.sql
batch_writes.sql = timed_sql
batch_writes.run_sql_file = timed_sql_file
batch_writes.transaction = timed_transaction

written = 0

def process(full):
    # One batch of `--batch-size` rows, as run_score gathers them: a file's rows alone
    # (100,000 here) are fewer than DuckDB's row group, and would all go through the WAL.
    global written
    valid = pl.concat(full.valid, how="vertical_relaxed")
    quarantined = pl.concat(full.quarantined, how="vertical_relaxed")
    spent("validate")
    classified = classify(con, valid, config_id, stored_before=stored_before)
    spent("classify")
    scored = score_batch(valid, classified, quarantined, judge, config)
    spent("judge")
    written += 1
    write_batch(con, scored, run_id="profile", config_id=config_id, config=config, seconds={},
                batch_no=written)

batch = Batch()
for raw in iter_batches(resolve_source(source), settings.batch_size):
    spent("read")
    rows = validate_batch(raw)
    batch.valid.append(rows.valid)
    batch.quarantined.append(keys.keyed(rows.quarantined))
    spent("validate")
    while batch.rows_in >= settings.batch_size:
        full, batch = batch.split(settings.batch_size)
        process(full)
if batch.rows_in:
    process(batch)
con.close()
spent("write: COMMIT")  # the final checkpoint
result = {"steps": {k: round(v, 2) for k, v in cpu.items()}, "total": round(sum(cpu.values()), 2)}
"""

RUN = """
from flows.allocator import keep_freed_pages; keep_freed_pages()  # as the CLI does
import os, sys, time, shutil
from pathlib import Path
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings

source, db = sys.argv[1], Path(sys.argv[2])
shutil.rmtree(db.parent, ignore_errors=True)
db.parent.mkdir(parents=True)
started, cpu0 = time.perf_counter(), os.times()
run_score(ScoreSettings(source=source, db=str(db)))
seconds, cpu1 = time.perf_counter() - started, os.times()
cpu = cpu1.user - cpu0.user + cpu1.system - cpu0.system
# the cores busy on average: the run's CPU over its wall time (a sampler of 0.25 s steps
# had no sample at all for a run shorter than one, and divided by zero)
result = {"seconds": round(seconds, 2), "cpu": round(cpu, 2),
          "cores_busy": round(cpu / seconds, 2)}
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=whole_number, default=1_000_000)
    parser.add_argument(
        "--shape", type=shape_names, default=",".join(SHAPES), help="comma-separated"
    )
    parser.add_argument(
        "--source",
        help="profile these logs instead of generated shapes (any source `faith score` reads)",
    )
    args = parser.parse_args()
    if args.source:  # found as `faith score` finds it, or refused in one line
        from flows.errors import InputUnreadable
        from flows.read.finding import resolve_source

        try:
            resolve_source(args.source)
        except InputUnreadable as error:
            parser.error(f"--source: {error}")
    shapes = ["source"] if args.source else args.shape
    profiles, runs = {}, {}
    for shape in shapes:
        source = args.source or str(
            generated_cases(args.rows, rows_per_file=100_000, shape=shape).parent
        )
        work = OUT / "profile-db" / "faith.duckdb"
        profiles[shape] = run_child(STEPS, source, str(work))
        runs[shape] = run_child(RUN, source, str(work))
    steps = list(dict.fromkeys(k for p in profiles.values() for k in p["steps"]))
    rows = [{"step": k, **{s: profiles[s]["steps"].get(k, 0.0) for s in shapes}} for k in steps]
    rows.append({"step": "all, one after another", **{s: profiles[s]["total"] for s in shapes}})
    what = args.source if args.source else f"{args.rows:,} rows"
    print(f"{what}, each step's CPU seconds (the steps run one after another):")
    print(table(rows, ["step", *shapes]))
    for shape, run in runs.items():
        print(
            f"{shape}, a real run: {run['seconds']} s wall, {run['cpu']} CPU-s, "
            f"{run['cores_busy']} cores busy on average; "
            f"CPU-s / cores = {run['cpu'] / 2:.2f} s is the least two cores could take"
        )


if __name__ == "__main__":
    main()
