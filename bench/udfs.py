"""Bench (not a test): the vectorised batch path against a plain per-case Python loop of the
same lexical rules, on the same generated cases, each in its own process; and the grounded
judge's batch path next to the lexical one.

    python bench/udfs.py [--rows 1000000] [--loop-rows N] [--batch-size 50000] [--rounds 3]

Prints cases/s and peak RSS of each path and their ratios (targets: lexical batch >= 10x the
loop, after checking that both give the same scores; grounded batch >= 1/3 of lexical batch).
The batch paths run --rounds times, interleaved, and their figures are medians: on a shared
machine one run's ratio can be off by a third.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import OUT, generated_cases, run_child, table, whole_number

BATCH = """
import sys, time, polars as pl
from concurrent.futures import ThreadPoolExecutor
from faith_udfs import GroundedJudge, LexicalJudge, MetricConfig, score_cases
path, batch_size, check, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
kind = sys.argv[5]
cases = pl.read_parquet(path, columns=["case_id", "actual_output", "retrieval_context"])
judge, config = {"lexical": LexicalJudge, "grounded": GroundedJudge}[kind](), MetricConfig()
def score(offset):
    frames = score_cases(cases.slice(offset, batch_size), judge, config)
    return (frames.case_scores.select("case_id", "score", "n_claims", "reason"),
            frames.claim_verdicts.select("case_id", "claim_index", "claim", "verdict", "reason"))
started = time.perf_counter()
with ThreadPoolExecutor(threads) as pool:
    results = list(pool.map(score, range(0, cases.height, batch_size)))
seconds = time.perf_counter() - started
if kind == "lexical":  # what the loop is compared with
    head = pl.concat([r[0] for r in results]).head(check)
    head.write_parquet("bench/out/udfs-batch-head.parquet")
    verdicts = pl.concat([r[1] for r in results])
    head.select("case_id").join(verdicts, on="case_id").write_parquet(
        "bench/out/udfs-batch-verdicts.parquet")
result = {"path": f"{kind} batch path (polars), {threads} thread{'s' if threads > 1 else ''}",
          "cases": cases.height, "seconds": round(seconds, 2)}
"""

LOOP = """
import sys, time, polars as pl
from tests.support.seed_judge import content_words, sentences
path, rows, check = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
cases = pl.read_parquet(path, columns=["case_id", "actual_output", "retrieval_context"]).head(rows)
started = time.perf_counter()
out, claim_rows = [], []
for case_id, answer, context in cases.iter_rows():
    truths = [t for passage in context for t in sentences(passage) if passage.strip()]
    truth_words = content_words("\\n".join(truths))
    claims = sentences(answer)
    n_yes = n_no = n_idk = 0
    for index, claim in enumerate(claims):
        words = content_words(claim)
        share = len(words & truth_words) / len(words) if words else 0.0
        if share == 1:
            n_yes += 1
            claim_rows.append((case_id, index, claim, "yes", None))
        elif share > 0:
            n_no += 1
            reason = f"The context says otherwise about: {claim}"
            claim_rows.append((case_id, index, claim, "no", reason))
        else:
            n_idk += 1
            reason = f"The context does not mention: {claim}"
            claim_rows.append((case_id, index, claim, "idk", reason))
    judged = n_yes + n_no + n_idk
    score = (n_yes + n_idk) / judged if judged else 1.0
    out.append((case_id, score, len(claims), f"The score is {score:.2f}.", truths))
seconds = time.perf_counter() - started
checked = {row[0] for row in out[:check]}
pl.DataFrame([r for r in claim_rows if r[0] in checked], orient="row",
             schema=["case_id", "claim_index", "claim", "verdict", "reason"]).write_parquet(
    "bench/out/udfs-loop-verdicts.parquet")
out = [row[:4] for row in out]
head = pl.DataFrame(out[:check], schema=["case_id", "score", "n_claims", "reason"], orient="row")
head.write_parquet("bench/out/udfs-loop-head.parquet")
result = {"path": "per-case Python loop", "cases": cases.height, "seconds": round(seconds, 2)}
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=whole_number, default=1_000_000)
    parser.add_argument(
        "--loop-rows", type=whole_number, help="rows for the loop (default: --rows)"
    )
    parser.add_argument("--batch-size", type=whole_number, default=50_000)
    parser.add_argument("--check-rows", type=whole_number, default=50_000, help="rows compared")
    parser.add_argument(
        "--threads",
        type=whole_number,
        default=2,
        help="batches scored at once (the machine's cores)",
    )
    parser.add_argument(
        "--rounds", type=whole_number, default=3, help="runs of each batch path, interleaved"
    )
    args = parser.parse_args()
    os.chdir(OUT.parent.parent)  # the children write, and the check reads, bench/out/ here
    source = str(generated_cases(args.rows))
    check = min(args.check_rows, args.rows, args.loop_rows or args.rows)
    sizes = (source, str(args.batch_size), str(check))
    runs = [("1", "lexical"), (str(args.threads), "lexical"), ("1", "grounded")]
    runs.append((str(args.threads), "grounded"))
    rounds = [[run_child(BATCH, *sizes, *run) for run in runs] for _ in range(args.rounds)]
    batch_one, batch, grounded_one, grounded = (
        _median_run(same) for same in zip(*rounds, strict=True)
    )
    loop = run_child(LOOP, source, str(args.loop_rows or args.rows), str(check))

    import polars as pl

    batch_head = pl.read_parquet("bench/out/udfs-batch-head.parquet")
    loop_head = pl.read_parquet("bench/out/udfs-loop-head.parquet").cast(batch_head.schema)
    batch_verdicts = pl.read_parquet("bench/out/udfs-batch-verdicts.parquet")
    loop_verdicts = pl.read_parquet("bench/out/udfs-loop-verdicts.parquet")
    order = ["case_id", "claim_index"]
    same = batch_head.equals(loop_head) and batch_verdicts.sort(order).equals(
        loop_verdicts.cast(batch_verdicts.schema).sort(order)
    )
    rows = [batch_one, batch, grounded_one, grounded, loop]
    for row in rows:
        row["cases/s"] = f"{row['cases'] / row['seconds']:,.0f}"
    loop_rate = loop["cases"] / loop["seconds"]
    print(table(rows, ["path", "cases", "seconds", "cases/s", "peak_rss_mb"]))
    print(f"\nsame scores, reasons and claim verdicts on the first {check:,} cases: {same}")
    for row in (batch_one, batch):
        ratio = (row["cases"] / row["seconds"]) / loop_rate
        print(f"{row['path']} / loop: {ratio:.1f}x  (target >= 10x)")
    # Each round's grounded run against the same round's lexical run with as many threads.
    for grounded_at, lexical_at in ((2, 0), (3, 1)):
        ratios = [r[lexical_at]["seconds"] / r[grounded_at]["seconds"] for r in rounds]
        spread = f" over {len(ratios)} rounds ({min(ratios):.2f}-{max(ratios):.2f}x)"
        print(
            f"{rows[grounded_at]['path']} / lexical: {statistics.median(ratios):.2f}x"
            f"{spread if len(ratios) > 1 else ''}  (target >= 0.33x)"
        )
    if not same:
        raise SystemExit("the two paths disagree")


def _median_run(runs: tuple[dict, ...]) -> dict:
    """The run of median time among one path's rounds."""
    return sorted(runs, key=lambda run: run["seconds"])[len(runs) // 2]


if __name__ == "__main__":
    main()
