"""Bench (not a test): is grounded-v3's gain over v2 more than noise? Both feature sets are
refitted and scored on held-out cases (bench/fit_grounded.py's folds: 5 by document, then
each set held out in turn); a paired bootstrap of each set's cases gives the difference in
balanced accuracy of `success` (v3 - v2), its 95% interval and the share of resamples in
which v3 is ahead.

    python bench/v3_gain.py [--devsets DIR] [--resamples 2000] [--seed 0]

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
from common import table
from devsets import DEVSETS, SETS
from fit_grounded import NAMES, V2_NAMES, claim_rows, held_out


def balanced(y: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Balanced accuracy of predictions `p` against labels `y`, row by row of 2-D arrays."""
    positives, negatives = y.sum(axis=-1), (~y).sum(axis=-1)
    return 0.5 * ((p & y).sum(axis=-1) / positives + (~p & ~y).sum(axis=-1) / negatives)


def paired_gain(
    cases: pl.DataFrame, resamples: int, seed: int
) -> list[dict[str, str | float | int]]:
    """Per set of `cases` (`set`, `faithful`, `before`, `after`: the two verdicts of each
    case): the gain in balanced accuracy, its bootstrap interval and share above 0."""
    rng = np.random.default_rng(seed)
    out: list[dict[str, str | float | int]] = []
    for name in sorted(cases["set"].unique()):
        one = cases.filter(pl.col("set") == name)
        y = one["faithful"].to_numpy()
        before, after = one["before"].to_numpy(), one["after"].to_numpy()
        picks = rng.integers(0, one.height, (resamples, one.height))
        gains = balanced(y[picks], after[picks]) - balanced(y[picks], before[picks])
        gains = gains[~np.isnan(gains)]  # a resample of one class only
        low, high = np.percentile(gains, [2.5, 97.5])
        out.append(
            {
                "set": name,
                "v3 - v2": round(float(balanced(y, after) - balanced(y, before)), 3),
                "95% interval": f"{low:+.3f} to {high:+.3f}",
                "resamples v3 ahead": round(float((gains > 0).mean()), 3),
                "verdicts changed": int((before != after).sum()),
            }
        )
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devsets", type=Path, default=DEVSETS)
    parser.add_argument("--resamples", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if not any((args.devsets / f"{name}_dev.parquet").exists() for name in SETS):
        print(f"no dev set under {args.devsets}: nothing to compare")
        return 0
    rows = claim_rows(args.devsets)
    splits = {"5 folds by document": False}
    if rows["set"].n_unique() > 1:
        splits["each set in turn"] = True
    for split, by_set in splits.items():
        before = held_out(rows, V2_NAMES, by_set=by_set).select(
            "set", "case_id", "faithful", before="success"
        )
        after = held_out(rows, NAMES, by_set=by_set).select("set", "case_id", after="success")
        cases = before.join(after, on=["set", "case_id"])
        print(f"\nheld out, {split}: balanced accuracy, v3 against v2 on the same cases")
        gains = paired_gain(cases, args.resamples, args.seed)
        print(table(gains, list(gains[0])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
