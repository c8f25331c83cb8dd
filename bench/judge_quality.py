"""Bench (not a test): how well the offline judges tell faithful answers from unfaithful ones,
on every human-labelled development set, through the same batch path `faith score` runs.

    python bench/judge_quality.py [--devsets DIR] [--judges grounded,grounded-v3,lexical,...]

Prints, per set and per `source` part, at default settings: balanced accuracy of `success`
against `label`, ROC AUC of `score`, the baseline's ROC AUC (1 minus the share of the answer's
content words, stop words left out, found nowhere in the context: no claims at all), the ROC
AUC of the order `worst_cases` lists answers in (`score`, then the support of the weakest
claim judged yes or no: `auc_ranked`), the pass rate next to the true faithful share; then the
claim-level agreement on the sets with sentence labels (SALAD, QAGS): `yes` against
`supported`, on answers whose claims are exactly their labelled sentences. Absent dev sets are
named and skipped (exit 0).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from common import table
from devsets import DEVSETS, SETS, balanced_accuracy, baseline_score, present_devsets, roc_auc

from faith_udfs import GroundedJudge, Judge, LexicalJudge, MetricConfig, score_cases
from faith_udfs.grounded import (
    GROUNDED_RULES_VERSION,
    GroundedV2Judge,
    GroundedV3Judge,
    GroundedV4Judge,
    GroundedV5Judge,
    GroundedV6Judge,
    GroundedV7Judge,
    GroundedV8Judge,
    GroundedV9Judge,
    GroundedV10Judge,
    GroundedV11Judge,
    GroundedV12Judge,
)
from faith_udfs.grounded_v1 import GroundedV1Judge

JUDGES: dict[str, type] = {
    "grounded": GroundedJudge,
    GROUNDED_RULES_VERSION: GroundedJudge,  # the default by its version's name too (grounded-v13)
    "grounded-v12": GroundedV12Judge,
    "grounded-v11": GroundedV11Judge,
    "grounded-v10": GroundedV10Judge,
    "grounded-v9": GroundedV9Judge,
    "grounded-v8": GroundedV8Judge,
    "grounded-v7": GroundedV7Judge,
    "grounded-v6": GroundedV6Judge,
    "grounded-v5": GroundedV5Judge,
    "grounded-v4": GroundedV4Judge,
    "grounded-v3": GroundedV3Judge,
    "grounded-v2": GroundedV2Judge,
    "grounded-v1": GroundedV1Judge,
    "lexical": LexicalJudge,
}


def case_figures(scored: pl.DataFrame) -> pl.DataFrame:
    """Per judge, set and part (and the set whole): cases, faithful share, pass rate, balanced
    accuracy, ROC AUC of `score`, the baseline's ROC AUC and that of worst_cases' order."""
    faithful = pl.col("faithful")
    figures = [
        pl.len().alias("cases"),
        faithful.mean().alias("faithful"),
        pl.col("success").mean().alias("pass_rate"),
        balanced_accuracy(faithful, pl.col("success")).alias("bal_acc"),
        roc_auc(faithful, pl.col("score")).alias("auc"),
        roc_auc(faithful, pl.col("baseline")).alias("baseline_auc"),
        roc_auc(faithful, pl.col("ranked")).alias("auc_ranked"),
    ]
    per_part = scored.group_by("judge", "set", "part").agg(figures)
    whole = scored.group_by("judge", "set").agg(figures).with_columns(part=pl.lit("(all)"))
    order = {name: i for i, name in enumerate(SETS)}
    return (
        pl.concat([whole, per_part], how="diagonal")
        .with_columns(
            auc_vs_baseline=pl.col("auc") - pl.col("baseline_auc"),
            pass_gap=pl.col("pass_rate") - pl.col("faithful"),
        )
        .sort(
            pl.col("judge"),
            pl.col("set").replace_strict(order, return_dtype=pl.Int32),
            pl.col("part") != "(all)",
            "part",
        )
    )


def claim_figures(verdicts: pl.DataFrame, cases: pl.DataFrame) -> pl.DataFrame:
    """Per judge and set: `yes` against the sentence labels, where claims are the labelled
    sentences (same count, same texts once stripped and lower-cased)."""
    labels = cases.filter(pl.col("sentences").is_not_null()).select(
        "set",
        "case_id",
        text=pl.col("sentences").list.eval(
            pl.element().struct.field("text").str.strip_chars().str.to_lowercase()
        ),
        supported=pl.col("sentences").list.eval(pl.element().struct.field("supported")),
    )
    claims = verdicts.group_by("judge", "set", "case_id").agg(
        pl.col("claim").sort_by("claim_index").str.strip_chars().str.to_lowercase(),
        pl.col("verdict").sort_by("claim_index"),
    )
    aligned = (
        claims.join(labels, on=["set", "case_id"])
        .filter(pl.col("claim") == pl.col("text"))
        .explode("verdict", "supported")
    )
    return (
        aligned.group_by("judge", "set")
        .agg(
            answers=pl.col("case_id").n_unique(),
            claims=pl.len(),
            agreement=((pl.col("verdict") == "yes") == pl.col("supported")).mean(),
            bal_acc=balanced_accuracy(pl.col("supported"), pl.col("verdict") == "yes"),
        )
        .sort("judge", "set")
    )


def weakest_supports(verdicts: pl.DataFrame) -> pl.DataFrame:
    """Per case, the support of its weakest claim judged yes or no, as the `worst_cases` macro
    (flows/store/sql/analysis.sql) reads it; no row for judges without supports."""
    judged = pl.col("verdict").is_in(["yes", "no"]) & pl.col("support").is_not_nan()
    return (
        verdicts.filter(judged & pl.col("support").is_not_null())
        .group_by("case_id")
        .agg(weakest_support=pl.col("support").min())
    )


def ranked_score() -> pl.Expr:
    """`score`, its ties broken by the weakest support (missing ones last), as worst_cases
    orders them: score levels lie at least 1/claims apart, and the support adds under 1e-6."""
    return pl.col("score") + 1e-7 * pl.col("weakest_support").fill_null(1.0)


def score_devsets(
    judges: dict[str, Judge], root: Path
) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame] | None:
    """Every present set scored by every judge: (cases, case scores, claim verdicts); None
    when no set is present (each absent one is named)."""
    loaded = [
        cases.with_columns(baseline=baseline_score(cases)) for _, cases in present_devsets(root)
    ]
    if not loaded:
        return None
    scores, verdicts = [], []
    for cases in loaded:
        for name, judge in judges.items():
            frames = score_cases(cases, judge, MetricConfig())
            tag = {"judge": pl.lit(name), "set": pl.lit(cases["set"][0])}
            scores.append(
                frames.case_scores.select("case_id", "score", "success")
                .join(weakest_supports(frames.claim_verdicts), on="case_id", how="left")
                .with_columns(ranked=ranked_score(), **tag)
            )
            verdicts.append(
                frames.claim_verdicts.select(
                    "case_id", "claim_index", "claim", "verdict"
                ).with_columns(**tag)
            )
    cases = pl.concat(loaded, how="vertical_relaxed")
    return cases, pl.concat(scores), pl.concat(verdicts)


def labelled_scores(cases: pl.DataFrame, scores: pl.DataFrame) -> pl.DataFrame:
    """Each judge's case scores beside the case's label, part and baseline (case_figures')."""
    labels = cases.select("set", "case_id", "faithful", "part", "baseline")
    return scores.join(labels, on=["set", "case_id"])


def selected_judges(spec: str) -> list[str] | None:
    """The judge names of a `--judges` list, or None (said on stderr) when one is unknown."""
    names = [n.strip() for n in spec.split(",") if n.strip()]
    unknown = sorted(set(names) - set(JUDGES))
    if unknown:
        print(f"unknown judge(s) {unknown}; choose from {sorted(JUDGES)}", file=sys.stderr)
        return None
    return names


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devsets", type=Path, default=DEVSETS)
    parser.add_argument("--judges", default="grounded,grounded-v4,grounded-v2,grounded-v1,lexical")
    args = parser.parse_args()
    names = selected_judges(args.judges)
    if names is None:
        return 2
    scored = score_devsets({n: JUDGES[n]() for n in names}, args.devsets)
    if scored is None:
        print(f"no dev set under {args.devsets}: nothing to measure (see ../shared/devsets)")
        return 0
    cases, scores, verdicts = scored
    joined = labelled_scores(cases, scores)
    rounded = pl.selectors.float().round(3)
    print(
        f"default settings (threshold 0.5); rows per set: "
        f"{dict(cases.group_by('set', maintain_order=True).len().iter_rows())}\n"
    )
    print(table(case_figures(joined).with_columns(rounded).to_dicts(), [
        "judge", "set", "part", "cases", "bal_acc", "auc", "baseline_auc", "auc_vs_baseline",
        "auc_ranked", "pass_rate", "faithful", "pass_gap",
    ]))  # fmt: skip
    claims = claim_figures(verdicts, cases).with_columns(rounded)
    if claims.is_empty():
        print("\nclaim level: no present set has sentence labels (SALAD, QAGS)")
        return 0
    print("\nclaim level: `yes` against the sentence labels (answers whose claims are exactly")
    print("their labelled sentences)\n")
    print(table(claims.to_dicts(), ["judge", "set", "answers", "claims", "agreement", "bal_acc"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
