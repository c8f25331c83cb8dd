"""Bench (not a test): DeepEval's two ways to score, on the same generated cases:
`evaluate(cases, [metric])` (one batch-path pass) against a loop of `metric.measure(case)`.

    python bench/measure.py [--rows 100000] [--loop-rows 300] [--judge lexical]

Prints ms per case of `measure()` for distinct cases (a fresh metric each time, so nothing is
remembered), for a repeated case (answered from the metric's memory), and along the generated
log in order (its repeats remembered), the loop time projected to --rows, evaluate()'s time
for --rows, and the evaluate-vs-loop ratio (target >= 100x). Targets: measure <= 2 ms a case.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import polars as pl
from common import generated_cases

from faith_udfs import (
    DisplayConfig,
    ErrorConfig,
    FaithfulnessMetric,
    GroundedJudge,
    LexicalJudge,
    LLMTestCase,
    evaluate,
)

JUDGES = {"lexical": LexicalJudge, "grounded": GroundedJudge}


def per_case_ms(metric_for: object, cases: list[LLMTestCase]) -> float:
    started = time.perf_counter()
    for case in cases:
        metric_for(case).measure(case)
    return (time.perf_counter() - started) / len(cases) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--loop-rows", type=int, default=300)
    parser.add_argument("--judge", choices=sorted(JUDGES), default="lexical")
    args = parser.parse_args()
    frame = pl.read_parquet(
        generated_cases(args.rows), columns=["input", "actual_output", "retrieval_context"]
    )
    cases = [LLMTestCase(*row) for row in frame.iter_rows()]
    judge = JUDGES[args.judge]()
    sample = cases[: args.loop_rows]
    FaithfulnessMetric(model=judge).measure(sample[0])  # warm up polars

    distinct = per_case_ms(lambda _: FaithfulnessMetric(model=judge), sample)
    shared = FaithfulnessMetric(model=judge)
    in_order = per_case_ms(lambda _: shared, sample)
    repeated = per_case_ms(lambda _: shared, [sample[0]] * args.loop_rows)

    started = time.perf_counter()
    result = evaluate(
        cases,
        [FaithfulnessMetric(model=judge)],
        display_config=DisplayConfig(print_results=False),
        error_config=ErrorConfig(ignore_errors=True),
    )
    batch_s = time.perf_counter() - started
    loop_s = distinct * args.rows / 1000
    print(f"judge {args.judge}, {args.rows:,} cases ({len(result.test_results):,} results)")
    print(f"measure(), distinct cases:      {distinct:8.2f} ms/case  (target <= 2 ms)")
    print(f"measure(), the log in order:    {in_order:8.2f} ms/case  (its repeats remembered)")
    print(f"measure(), one repeated case:   {repeated:8.3f} ms/case")
    print(f"measure() loop, projected:      {loop_s:8.1f} s for {args.rows:,} distinct cases")
    print(f"evaluate():                     {batch_s:8.2f} s for {args.rows:,} cases")
    print(f"evaluate() vs measure() loop:   {loop_s / batch_s:8.0f}x  (target >= 100x)")


if __name__ == "__main__":
    main()
