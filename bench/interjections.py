"""Bench (not a test): how much a chat bot's opening interjection moves the grounded judge.

    python bench/interjections.py [--rows 50000]
        [--openings "Yes, |Sure, |Absolutely, |Yes, of course, |Sure, according to the passages, "]

Scores the project's generated cases (`data/generate.py`, the answers `bench/pipeline.py`'s
`chat` shape opens with "Yes, ") as generated and with each opening before them (their first
letter lower-cased), under `grounded-v6` (which cuts every opening off, as the default v8 does),
`grounded-v5` (which cut the first one only, and not before an attribution phrase) and
`grounded-v4` (which read it as a word of the claim), and prints per judge and opening: the
pass rate, the mean score and how many cases fail only because of the opening.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from common import table, whole_number

from data.generate import iter_cases
from faith_udfs import MetricConfig, score_cases
from faith_udfs.grounded import GroundedV4Judge, GroundedV5Judge, GroundedV6Judge
from faith_udfs.judges import Judge

JUDGES: tuple[tuple[str, type[Judge]], ...] = (
    ("grounded-v6", GroundedV6Judge),
    ("grounded-v5", GroundedV5Judge),
    ("grounded-v4", GroundedV4Judge),
)
OPENINGS = "Yes, |Sure, |Absolutely, |Yes, of course, |Sure, according to the passages, "


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=whole_number, default=50_000)
    parser.add_argument("--openings", default=OPENINGS)
    args = parser.parse_args(argv)
    cases = pl.concat(list(iter_cases(args.rows, seed=1))).select(
        "case_id", "actual_output", "retrieval_context"
    )
    answer = pl.col("actual_output")
    rows = []
    for name, judge_type in JUDGES:
        judge = judge_type()
        plain = score_cases(cases, judge, MetricConfig()).case_scores
        for opening in ["", *args.openings.split("|")]:
            opened = (
                cases.with_columns(
                    actual_output=pl.lit(opening)
                    + answer.str.head(1).str.to_lowercase()
                    + answer.str.slice(1)
                )
                if opening
                else cases
            )
            scored = (
                plain if not opening else score_cases(opened, judge, MetricConfig()).case_scores
            )
            both = scored.join(plain, on="case_id", suffix="_plain")
            lost = both.filter(~pl.col("success") & pl.col("success_plain")).height
            rows.append(
                {
                    "judge": name,
                    "opening": repr(opening) if opening else "(as generated)",
                    "cases": f"{scored.height:,}",
                    "pass rate": f"{scored['success'].mean():.3f}",
                    "mean score": f"{scored['score'].mean():.3f}",
                    "fail only for the opening": f"{lost:,}",
                }
            )
    print(table(rows, list(rows[0])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
