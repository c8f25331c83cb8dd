"""Bench (not a test): the vectorised batch path against a plain per-case Python loop of the
same lexical rules, on the same generated cases, each in its own process.

    python bench/udfs.py [--rows 1000000] [--loop-rows N] [--batch-size 50000]

Prints cases/s and peak RSS of each path and their ratio (target: batch >= 10x the loop),
after checking that both give the same scores.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import generated_cases, run_child, table

BATCH = """
import sys, time, polars as pl
from faith_udfs import LexicalJudge, MetricConfig, score_cases
path, batch_size, check = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
cases = pl.read_parquet(path, columns=["case_id", "actual_output", "retrieval_context"])
judge, config = LexicalJudge(), MetricConfig()
started = time.perf_counter()
scores = []
for offset in range(0, cases.height, batch_size):
    frames = score_cases(cases.slice(offset, batch_size), judge, config)
    scores.append(frames.case_scores.select("case_id", "score", "n_claims", "reason"))
seconds = time.perf_counter() - started
head = pl.concat(scores).head(check)
head.write_parquet("bench/out/udfs-batch-head.parquet")
result = {"path": "batch (polars)", "cases": cases.height, "seconds": round(seconds, 2)}
"""

LOOP = """
import sys, time, polars as pl
from tests.seed_judge import content_words, sentences
path, rows, check = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
cases = pl.read_parquet(path, columns=["case_id", "actual_output", "retrieval_context"]).head(rows)
started = time.perf_counter()
out = []
for case_id, answer, context in cases.iter_rows():
    truths = [t for passage in context for t in sentences(passage) if passage.strip()]
    truth_words = content_words("\\n".join(truths))
    claims = sentences(answer)
    n_yes = n_no = n_idk = 0
    for claim in claims:
        words = content_words(claim)
        share = len(words & truth_words) / len(words) if words else 0.0
        if share == 1:
            n_yes += 1
        elif share > 0:
            n_no += 1
        else:
            n_idk += 1
    judged = n_yes + n_no + n_idk
    score = (n_yes + n_idk) / judged if judged else 1.0
    out.append((case_id, score, len(claims), f"The score is {score:.2f}."))
seconds = time.perf_counter() - started
head = pl.DataFrame(out[:check], schema=["case_id", "score", "n_claims", "reason"], orient="row")
head.write_parquet("bench/out/udfs-loop-head.parquet")
result = {"path": "per-case Python loop", "cases": cases.height, "seconds": round(seconds, 2)}
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--loop-rows", type=int, help="rows for the loop (default: --rows)")
    parser.add_argument("--batch-size", type=int, default=50_000)
    parser.add_argument("--check-rows", type=int, default=50_000, help="rows compared")
    args = parser.parse_args()
    source = str(generated_cases(args.rows))
    check = min(args.check_rows, args.rows, args.loop_rows or args.rows)
    batch = run_child(BATCH, source, str(args.batch_size), str(check))
    loop = run_child(LOOP, source, str(args.loop_rows or args.rows), str(check))

    import polars as pl

    batch_head = pl.read_parquet("bench/out/udfs-batch-head.parquet")
    loop_head = pl.read_parquet("bench/out/udfs-loop-head.parquet").cast(batch_head.schema)
    same = batch_head.equals(loop_head)
    for row in (batch, loop):
        row["cases/s"] = f"{row['cases'] / row['seconds']:,.0f}"
    ratio = (batch["cases"] / batch["seconds"]) / (loop["cases"] / loop["seconds"])
    print(table([batch, loop], ["path", "cases", "seconds", "cases/s", "peak_rss_mb"]))
    print(f"\nsame scores, claims and reasons on the first {check:,} cases: {same}")
    print(f"batch path / loop: {ratio:.1f}x  (target >= 10x)")
    if not same:
        raise SystemExit("the two paths disagree")


if __name__ == "__main__":
    main()
