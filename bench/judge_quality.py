"""Bench (not a test): how well the offline judges tell faithful answers from unfaithful ones,
on the human-labelled development set, through the same batch path `faith score` runs.

    python bench/judge_quality.py [--devset PATH]

Prints, per subset and pooled, for the grounded and the lexical judge at default settings:
balanced accuracy of `success` against `label`, ROC AUC of `score`, the predicted pass rate
next to the true faithful share, and the claim-level agreement with the sentence labels
(`yes` against `supported`, on answers whose claims are exactly their labelled sentences).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from common import table

from faith_udfs import GroundedJudge, Judge, LexicalJudge, MetricConfig, score_cases

# Read in place, never copied into the project (its source states no licence).
DEVSET = Path(__file__).resolve().parents[2] / "shared" / "devsets" / "salad_dev.parquet"
JUDGES: dict[str, Judge] = {"grounded": GroundedJudge(), "lexical": LexicalJudge()}


def balanced_accuracy(truth: pl.Expr, predicted: pl.Expr) -> pl.Expr:
    """Mean of the true-positive and true-negative rates (the classes are unbalanced)."""
    positive = (truth & predicted).sum() / truth.sum()
    negative = (~truth & ~predicted).sum() / (~truth).sum()
    return (positive + negative) / 2


def roc_auc(truth: pl.Expr, score: pl.Expr) -> pl.Expr:
    """Area under the ROC curve of `score` for `truth`, from ranks (ties count half)."""
    ranks = score.rank("average")
    n_pos, n_neg = truth.sum(), (~truth).sum()
    return (ranks.filter(truth).sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


def case_figures(scored: pl.DataFrame) -> pl.DataFrame:
    """Per subset and pooled: cases, faithful share, pass rate, balanced accuracy, ROC AUC."""
    figures = [
        pl.len().alias("cases"),
        pl.col("faithful").mean().alias("faithful_share"),
        pl.col("success").mean().alias("pass_rate"),
        balanced_accuracy(pl.col("faithful"), pl.col("success")).alias("balanced_accuracy"),
        roc_auc(pl.col("faithful"), pl.col("score")).alias("roc_auc"),
    ]
    per_subset = scored.group_by("judge", "subset").agg(figures)
    pooled = scored.group_by("judge").agg(figures).with_columns(subset=pl.lit("pooled"))
    return pl.concat([per_subset, pooled], how="diagonal").sort(
        "judge", pl.col("subset") == "pooled", "subset"
    )


def claim_figures(verdicts: pl.DataFrame, devset: pl.DataFrame) -> pl.DataFrame:
    """Per judge: `yes` against the sentence labels, where claims are the labelled sentences."""
    labels = devset.select(
        "case_id",
        text=pl.col("sentences").list.eval(pl.element().struct.field("text").str.strip_chars()),
        supported=pl.col("sentences").list.eval(pl.element().struct.field("supported")),
    )
    claims = verdicts.group_by("judge", "case_id").agg(
        pl.col("claim").sort_by("claim_index"), pl.col("verdict").sort_by("claim_index")
    )
    aligned = (
        claims.join(labels, on="case_id")
        .filter(pl.col("claim") == pl.col("text"))
        .explode("verdict", "supported")
    )
    return aligned.group_by("judge").agg(
        answers=pl.col("case_id").n_unique(),
        claims=pl.len(),
        agreement=((pl.col("verdict") == "yes") == pl.col("supported")).mean(),
        balanced_accuracy=balanced_accuracy(pl.col("supported"), pl.col("verdict") == "yes"),
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devset", type=Path, default=DEVSET)
    args = parser.parse_args()
    if not args.devset.exists():
        print(f"dev set {args.devset} is absent: nothing to measure (see ../shared/devsets)")
        return 0
    devset = pl.read_parquet(args.devset)
    cases, verdicts = [], []
    for name, judge in JUDGES.items():
        frames = score_cases(devset, judge, MetricConfig())
        cases.append(
            frames.case_scores.select("case_id", "score", "success").with_columns(
                judge=pl.lit(name)
            )
        )
        verdicts.append(frames.claim_verdicts.with_columns(judge=pl.lit(name)))
    scored = pl.concat(cases).join(
        devset.select("case_id", "subset", faithful=pl.col("label") == 1), on="case_id"
    )
    rounded = pl.selectors.float().round(3)
    print(f"{args.devset.name}: {devset.height} answers, default settings (threshold 0.5)\n")
    print(table(case_figures(scored).with_columns(rounded).to_dicts(), [
        "judge", "subset", "cases", "faithful_share", "pass_rate", "balanced_accuracy", "roc_auc",
    ]))  # fmt: skip
    print("\nclaim level: `yes` against the sentence labels (answers whose claims are exactly")
    print("their labelled sentences)\n")
    claims = claim_figures(pl.concat(verdicts, how="diagonal_relaxed"), devset).sort("judge")
    print(table(claims.with_columns(rounded).to_dicts(), [
        "judge", "answers", "claims", "agreement", "balanced_accuracy",
    ]))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
