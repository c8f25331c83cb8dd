"""Bench (not a test): how much ranking the grounded judge's claim supports hold before
DeepEval's score (the share of non-`no` claims) rounds them, per dev set.

    python bench/support_ceiling.py [--devsets DIR]

Prints per set: claims per case, the share of one-claim cases, and the ROC AUC of the case's
weakest support, of its mean support and of `answer_found` (the answer's share, stems compared,
of content words found in the context). A one-claim case scores 0 or 1, so where most cases
have one claim the score's AUC is near its balanced accuracy whatever the supports say.
Absent dev sets: says so and exits 0.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from devsets import DEVSETS, SETS, roc_auc
from fit_grounded import NAMES, _support, claim_rows

from faith_udfs.grounded import WEIGHTS


def ceiling(rows: pl.DataFrame) -> pl.DataFrame:
    """Per set: claims per case, one-claim share, AUC of min / mean support and of answer_found."""
    beta = np.array([WEIGHTS[name] for name in NAMES])
    rows = rows.with_columns(support=pl.Series(_support(rows, beta)))
    cases = rows.group_by("set", "case_id").agg(
        faithful=pl.col("faithful").first().cast(pl.Boolean),
        weakest=pl.col("support").min(),
        mean=pl.col("support").mean(),
        answer_found=pl.col("answer_found").first(),
        claims=pl.len(),
    )
    truth = pl.col("faithful")
    return (
        cases.group_by("set")
        .agg(
            cases=pl.len(),
            claims_per_case=pl.col("claims").mean().round(2),
            one_claim=(pl.col("claims") == 1).mean().round(2),
            auc_weakest=roc_auc(truth, pl.col("weakest")).round(3),
            auc_mean=roc_auc(truth, pl.col("mean")).round(3),
            auc_answer_found=roc_auc(truth, pl.col("answer_found")).round(3),
        )
        .sort("set")
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devsets", type=Path, default=DEVSETS)
    args = parser.parse_args()
    if not any((args.devsets / f"{name}_dev.parquet").exists() for name in SETS):
        print(f"no dev set under {args.devsets}: nothing to measure")
        return 0
    with pl.Config(tbl_rows=20, tbl_width_chars=140):
        print(ceiling(claim_rows(args.devsets)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
