"""Bench (not a test): where a scoring run's time goes, for bench/pipeline.py's figures.

    python bench/run_profile.py [--rows 1000000]

Two measurements of the same generated source, each in a fresh process:
1. the batch steps run one after another on one thread (read, validate, classify, score,
   write), with the process's CPU seconds each took: what every step costs, no overlap;
2. a real run (`run_score`), sampling how many cores the process kept busy.
Step costs include the thread pools' idle spinning between steps, so they add up to more than
the real run's CPU seconds.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import OUT, generated_cases, run_child, table

STEPS = """
from flows.allocator import keep_freed_pages; keep_freed_pages()  # as the CLI does
import sys, time, shutil
from pathlib import Path
from flows.run.batches import (
    QuarantineKeys, classify, config_has_cases, score_batch, validate_batch,
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
cpu = dict.fromkeys(["read", "validate", "classify", "score", "write"], 0.0)
keys = QuarantineKeys()
clock = time.process_time()

def spent(step):
    global clock
    now = time.process_time()
    cpu[step] += now - clock
    clock = now

for raw in iter_batches(resolve_source(source), settings.batch_size):
    spent("read")
    rows = validate_batch(raw)
    quarantined = keys.keyed(rows.quarantined)
    spent("validate")
    classified = classify(con, rows.valid, config_id, stored_before=stored_before)
    spent("classify")
    scored = score_batch(rows.valid, classified, quarantined, judge, config)
    spent("score")
    write_batch(con, scored, run_id="profile", config_id=config_id, config=config, seconds={})
    spent("write")
con.close()
spent("write")  # the final checkpoint
result = {"steps": {k: round(v, 2) for k, v in cpu.items()}, "total": round(sum(cpu.values()), 2)}
"""

RUN = """
from flows.allocator import keep_freed_pages; keep_freed_pages()  # as the CLI does
import os, sys, threading, time, shutil
from pathlib import Path
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings

source, db = sys.argv[1], Path(sys.argv[2])
shutil.rmtree(db.parent, ignore_errors=True)
db.parent.mkdir(parents=True)
busy, done = [], threading.Event()

def sample():
    last, at = os.times(), time.perf_counter()
    while not done.wait(0.25):
        now, t = os.times(), time.perf_counter()
        busy.append((now.user - last.user + now.system - last.system) / (t - at))
        last, at = now, t

sampler = threading.Thread(target=sample, daemon=True)
started, cpu0 = time.perf_counter(), os.times()
sampler.start()
run_score(ScoreSettings(source=source, db=str(db)))
done.set()
cpu1 = os.times()
result = {"seconds": round(time.perf_counter() - started, 2),
          "cpu": round(cpu1.user - cpu0.user + cpu1.system - cpu0.system, 2),
          "cores_busy": round(sum(busy) / len(busy), 2)}
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    args = parser.parse_args()
    source = str(generated_cases(args.rows, rows_per_file=100_000).parent)
    work = OUT / "profile-db" / "faith.duckdb"
    steps = run_child(STEPS, source, str(work))
    rows = [{"step": k, "cpu_s": v} for k, v in steps["steps"].items()]
    rows.append({"step": "all, one after another", "cpu_s": steps["total"]})
    print(f"{args.rows:,} rows, each step's CPU seconds (the steps run one after another):")
    print(table(rows, ["step", "cpu_s"]))
    run = run_child(RUN, source, str(work))
    print(
        f"\na real run: {run['seconds']} s wall, {run['cpu']} CPU-s, "
        f"{run['cores_busy']} cores busy on average; "
        f"CPU-s / cores = {run['cpu'] / 2:.2f} s is the least two cores could take"
    )


if __name__ == "__main__":
    main()
