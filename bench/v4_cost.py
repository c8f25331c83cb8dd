"""Bench (not a test): what reading citations and list markers costs. grounded-v4's batch path
against grounded-v3's (the same rules without them) on each shape of bench/shapes.py, in one
process, interleaved, each judge's fastest of `--rounds` in CPU-seconds.

    python bench/v4_cost.py [--rows 100000] [--rounds 3] [--shape support,rag,repetitive,chat]

Prints per shape the distinct answers, how many of them the cue finds (citations.CUE_PATTERN:
only those take the patterns), both judges' CPU-seconds and their ratio (v4 / v3).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from common import table
from shapes import SHAPES, iter_shaped

from faith_udfs import GroundedJudge, MetricConfig, score_cases
from faith_udfs.citations import CUE_PATTERN
from faith_udfs.grounded import GroundedV3Judge


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--shape", default=",".join(SHAPES))
    args = parser.parse_args()
    rows = []
    for shape in [s.strip() for s in args.shape.split(",") if s.strip()]:
        cases = pl.concat(list(iter_shaped(args.rows, shape)))
        answers = cases["actual_output"].unique()
        spent: dict[str, list[float]] = {"v3": [], "v4": []}
        for _ in range(args.rounds):
            for name, judge in (("v3", GroundedV3Judge()), ("v4", GroundedJudge())):
                started = time.process_time()
                score_cases(cases, judge, MetricConfig())
                spent[name].append(time.process_time() - started)
        v3, v4 = min(spent["v3"]), min(spent["v4"])
        rows.append(
            {
                "shape": shape,
                "rows": f"{cases.height:,}",
                "answers": f"{answers.len():,}",
                "cued": f"{int(answers.str.contains(CUE_PATTERN).sum()):,}",
                "v3_cpu_s": round(v3, 3),
                "v4_cpu_s": round(v4, 3),
                "v4_over_v3": round(v4 / v3, 3),
            }
        )
        print(f"{shape}: v4 / v3 = {v4 / v3:.3f}", flush=True)
    print(table(rows, list(rows[0])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
