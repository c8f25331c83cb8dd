"""Bench (not a test): DeepEval's two ways to score, on the same generated cases:
`evaluate(cases, [metric])` (one batch-path pass) against a loop of `metric.measure(case)`.

    python bench/measure.py [--rows 100000] [--loop-rows 300] [--judge grounded] [--batch-of-one]

Prints ms per case of `measure()` for distinct cases (a fresh metric each time, so nothing is
remembered), for a repeated case (answered from the metric's memory), and along the generated
log in order (its repeats remembered), the loop time projected to --rows, evaluate()'s time
for --rows (split into the judge's batch calls and the rest), the evaluate-vs-loop ratio
(target >= 100x), and the ceiling the judge's batch calls alone put on that ratio. Both paths
are warmed up first (one case, 100 cases). Targets: measure <= 2 ms a case.
Each figure is wall-clock and, in brackets, this process's CPU time: on a shared machine the
CPU figure is the one that does not depend on the neighbours' load. `--batch-of-one` measures
the loop through the batch path (what measure() of a new case cost before one_case.py).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import polars as pl
from common import generated_cases, whole_number

from faith_udfs import (
    DisplayConfig,
    ErrorConfig,
    FaithfulnessMetric,
    GroundedJudge,
    LexicalJudge,
    LLMTestCase,
    evaluate,
    score_cases,
)
from faith_udfs.case_results import case_results, cases_frame
from faith_udfs.grounded_v1 import GroundedV1Judge

JUDGES = {"lexical": LexicalJudge, "grounded": GroundedJudge, "grounded-v1": GroundedV1Judge}


def per_case_ms(metric_for: object, cases: list[LLMTestCase]) -> tuple[float, float]:
    """(wall, CPU) ms per case of `metric_for(case).measure(case)` over `cases`."""
    wall, cpu = time.perf_counter(), time.process_time()
    for case in cases:
        metric_for(case).measure(case)  # type: ignore[operator]
    n = len(cases)
    return (time.perf_counter() - wall) / n * 1000, (time.process_time() - cpu) / n * 1000


def batch_of_one(judge: object) -> FaithfulnessMetric:
    """A metric whose measure() runs the batch path, as every new case did before one_case."""
    metric = FaithfulnessMetric(model=judge)
    metric.measure = lambda case: _batch_path(metric, case)  # type: ignore[method-assign]
    return metric


def _batch_path(metric: FaithfulnessMetric, case: LLMTestCase) -> float | None:
    frame = cases_frame([case.case_id], [case.actual_output], [list(case.retrieval_context)])
    result = case_results(score_cases(frame, metric.model, metric.config))[case.case_id]
    metric.apply(result)
    return metric.score


def timed_judge(judge: object, spent: dict[str, float]) -> object:
    """`judge` whose batch calls (truths, claims, verdicts, reasons) add their CPU to `spent`."""
    for name in ("truths", "claims", "verdicts", "reasons"):
        call = getattr(judge, name)

        def timed(*args: object, _call: object = call, **kwargs: object) -> object:
            cpu = time.process_time()
            try:
                return _call(*args, **kwargs)  # type: ignore[operator]
            finally:
                spent["cpu"] = spent.get("cpu", 0.0) + time.process_time() - cpu

        setattr(judge, name, timed)
    return judge


def show(label: str, figures: tuple[float, float], target: str = "") -> None:
    wall, cpu = figures
    print(f"{label:<32}{wall:8.3f} ms/case  [cpu {cpu:7.3f}]  {target}".rstrip())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=whole_number, default=100_000)
    parser.add_argument("--loop-rows", type=whole_number, default=300)
    parser.add_argument("--judge", choices=sorted(JUDGES), default="grounded")
    parser.add_argument("--batch-of-one", action="store_true", help="also the old loop")
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
    old = per_case_ms(lambda _: batch_of_one(judge), sample[:50]) if args.batch_of_one else None

    quiet = DisplayConfig(print_results=False)
    keep = ErrorConfig(ignore_errors=True)
    # warmed up, as measure() is
    evaluate(
        cases[:100], [FaithfulnessMetric(model=judge)], display_config=quiet, error_config=keep
    )
    spent: dict[str, float] = {}
    timed = timed_judge(JUDGES[args.judge](), spent)
    wall, cpu = time.perf_counter(), time.process_time()
    result = evaluate(
        cases, [FaithfulnessMetric(model=timed)], display_config=quiet, error_config=keep
    )
    batch_s, batch_cpu = time.perf_counter() - wall, time.process_time() - cpu
    loop_s, loop_cpu = (ms * args.rows / 1000 for ms in distinct)
    print(f"judge {args.judge}, {args.rows:,} cases ({len(result.test_results):,} results)")
    show("measure(), distinct cases:", distinct, "(target <= 2 ms)")
    show("measure(), the log in order:", in_order, "(its repeats remembered)")
    show("measure(), one repeated case:", repeated)
    if old is not None:
        show("measure() as a batch of one:", old, "(the batch path, 50 cases)")
    line("measure() loop, projected:", loop_s, loop_cpu, f"s for {args.rows:,}")
    line("evaluate():", batch_s, batch_cpu, f"s for {args.rows:,}")
    judged = spent.get("cpu", 0.0)
    per_case = f"us/case: judge {judged / args.rows * 1e6:.1f}, rest"
    print(
        f"{'  of it, the judge [cpu]:':<32}{judged:8.1f} s  ({per_case} "
        f"{(batch_cpu - judged) / args.rows * 1e6:.1f})"
    )
    line("evaluate() vs measure() loop:", loop_s / batch_s, loop_cpu / batch_cpu, "x (>= 100x)")
    print(f"{'  ceiling, judge alone [cpu]:':<32}{loop_cpu / max(judged, 1e-9):8.1f} x")
    if old is not None:
        before = [
            ms * args.rows / 1000 / s for ms, s in zip(old, (batch_s, batch_cpu), strict=True)
        ]
        line("evaluate() vs batch-of-one loop:", *before, "x")


def line(label: str, wall: float, cpu: float, unit: str) -> None:
    print(f"{label:<32}{wall:8.1f} [cpu {cpu:7.1f}] {unit}")


if __name__ == "__main__":
    main()
