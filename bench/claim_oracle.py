"""Bench (not a test): what a perfect claim judge would reach under DeepEval's score, on the dev
sets whose sentences are labelled (SALAD, QAGS).

    python bench/claim_oracle.py [--devsets DIR]

The oracle's claims are the labelled sentences and its verdicts their labels (`yes` when the
annotators' majority says supported, else `no`); its score is DeepEval's, the share of claims
not `no`, and success is score >= threshold. A case is labelled faithful only when every
sentence is supported, so at the default threshold (0.5) an answer with one unsupported
sentence of four passes: the oracle's balanced accuracy against the case labels is what
claim-by-claim judging can reach, whatever the judge. The same for `strict_mode` (threshold
1), where the two definitions agree (the oracle is then exact), and the grounded judge's
figures beside them. Absent dev
sets: says so and exits 0.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from common import table
from devsets import DEVSETS, balanced_accuracy, present_devsets

from faith_udfs import GroundedJudge, MetricConfig, score_cases


def oracle_figures(cases: pl.DataFrame, threshold: float) -> dict[str, float]:
    """Balanced accuracy of the oracle's success (its score: the share of supported
    sentences) and its sentences a case."""
    share = (
        pl.col("sentences")
        .list.eval(pl.element().struct.field("supported").cast(pl.Float64))
        .list.mean()
    )
    scored = cases.filter(pl.col("sentences").list.len() > 0).with_columns(score=share)
    return scored.select(
        cases=pl.len(),
        bal_acc=balanced_accuracy(pl.col("faithful"), pl.col("score") >= threshold),
        sentences=pl.col("sentences").list.len().mean(),
    ).row(0, named=True)


def judge_bal_acc(cases: pl.DataFrame, threshold: float) -> float:
    """The grounded judge's balanced accuracy of success at `threshold`, same cases."""
    cases = cases.filter(pl.col("sentences").list.len() > 0)
    frames = score_cases(cases, GroundedJudge(), MetricConfig(threshold=threshold))
    scored = cases.select("case_id", "faithful").join(
        frames.case_scores.select("case_id", "success"), on="case_id"
    )
    return scored.select(balanced_accuracy(pl.col("faithful"), pl.col("success"))).item()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devsets", type=Path, default=DEVSETS)
    args = parser.parse_args()
    rows = []
    for name, cases in present_devsets(args.devsets):
        if name not in ("salad", "qags"):
            continue
        for part, group in [("(all)", cases), *sorted(cases.group_by("part"), key=str)]:
            label = part if isinstance(part, str) else part[0]
            default, strict = oracle_figures(group, 0.5), oracle_figures(group, 1.0)
            rows.append(
                {
                    "set": name,
                    "part": label,
                    "cases": default["cases"],
                    "sentences": round(default["sentences"], 1),
                    "oracle_bal_acc_0.5": round(default["bal_acc"], 3),
                    "grounded_bal_acc_0.5": round(judge_bal_acc(group, 0.5), 3),
                    "oracle_bal_acc_strict": round(strict["bal_acc"], 3),
                    "grounded_bal_acc_strict": round(judge_bal_acc(group, 1.0), 3),
                }
            )
    if not rows:
        print(f"no dev set with sentence labels (SALAD, QAGS) under {args.devsets}: nothing to do")
        return 0
    print(table(rows, list(rows[0])))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
