"""Agreement of a judge's decisions with human labels, for calibration: balanced accuracy,
Cohen's kappa and ROC AUC as polars aggregations, seeded folds and seeded bootstrap intervals
(stdlib `random`: the same seed gives the same figures on every machine)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import polars as pl

if TYPE_CHECKING:
    from faith_udfs.calibration import Cutoffs

METRICS = ("balanced_accuracy", "cohen_kappa", "roc_auc")
CONFIDENCE = 0.95


@dataclass(frozen=True)
class CrossValidation:
    """Cut-offs fitted on every label, and how fitting fared under k-fold cross-validation
    against the baseline judge on the same cases (`table`, one row a metric)."""

    cutoffs: Cutoffs
    baseline: Cutoffs
    fold_cutoffs: tuple[Cutoffs, ...]
    table: pl.DataFrame = field(repr=False)
    folds: int
    seed: int
    resamples: int
    cases: int
    positives: int


def balanced_accuracy_expr(label: pl.Expr, success: pl.Expr) -> pl.Expr:
    """Mean of the recall of label 1 and of label 0 (null when one class is absent)."""
    positives = label.sum()
    negatives = (~label).sum()
    hit = (label & success).sum() / positives
    rejected = (~label & ~success).sum() / negatives
    return pl.when((positives > 0) & (negatives > 0)).then((hit + rejected) / 2)


def cohen_kappa_expr(label: pl.Expr, success: pl.Expr) -> pl.Expr:
    """Agreement of `success` with `label` beyond chance (null when chance explains all)."""
    n = pl.len().cast(pl.Float64)
    observed = (label == success).sum() / n
    chance = (label.sum() * success.sum() + (~label).sum() * (~success).sum()) / (n * n)
    return pl.when(chance < 1.0).then((observed - chance) / (1.0 - chance))


def roc_auc_expr(label: pl.Expr, score: pl.Expr) -> pl.Expr:
    """Chance that a label-1 case outscores a label-0 one, ties counting half (Mann-Whitney)."""
    positives = label.sum().cast(pl.Float64)
    negatives = (~label).sum().cast(pl.Float64)
    ranks = score.rank("average").filter(label).sum()
    auc = (ranks - positives * (positives + 1) / 2) / (positives * negatives)
    return pl.when((positives > 0) & (negatives > 0)).then(auc)


def agreement_exprs() -> list[pl.Expr]:
    """The three metrics of `label`, `success` and `score` in one group."""
    label, success, score = pl.col("label"), pl.col("success"), pl.col("score")
    return [
        balanced_accuracy_expr(label, success).alias("balanced_accuracy"),
        cohen_kappa_expr(label, success).alias("cohen_kappa"),
        roc_auc_expr(label, score).alias("roc_auc"),
    ]


def stratified_folds(labels: pl.DataFrame, *, folds: int, seed: int) -> pl.DataFrame:
    """`case_id`, `label`, `fold`: each class shuffled (seeded, from case_id order) and dealt
    round the folds, so every fold holds both classes in about the labels' proportion."""
    rng = random.Random(seed)  # noqa: S311 - reproducible folds, not secrets
    dealt = []
    start = 0
    for label in (True, False):
        ids = sorted(labels.filter(pl.col("label") == label)["case_id"].to_list())
        rng.shuffle(ids)
        dealt += [(case_id, label, (start + i) % folds) for i, case_id in enumerate(ids)]
        start += len(ids)
    return pl.DataFrame(
        dealt, schema={"case_id": pl.String, "label": pl.Boolean, "fold": pl.Int32}, orient="row"
    )


def agreement_table(
    labels: pl.DataFrame, predictions: dict[str, pl.DataFrame], seed: int, resamples: int
) -> pl.DataFrame:
    """One row a metric: each judge's figure on all cases with its bootstrap interval, and the
    first judge's lead over the second (paired: both resampled on the same cases)."""
    (first, first_frame), (second, second_frame) = predictions.items()
    cases = (
        labels.select("case_id", "label")
        .sort("case_id")
        .join(first_frame.select("case_id", "score", "success"), on="case_id")
        .join(second_frame.select("case_id", "score", "success"), on="case_id", suffix="_2")
        .with_row_index("row")
    )
    rng = random.Random(seed)  # noqa: S311 - a reproducible bootstrap, not secrets
    n = cases.height
    draws = pl.DataFrame(
        {
            "resample": pl.int_range(1, resamples + 1, eager=True).repeat_by(n).explode(),
            "row": pl.Series(rng.choices(range(n), k=n * resamples), dtype=pl.UInt32),
        }
    )
    # resample 0 is the cases themselves: the figure reported; the rest give its interval
    full = pl.DataFrame({"resample": pl.repeat(0, n, eager=True), "row": cases["row"]})
    sample = pl.concat([full, draws.cast(full.schema)])
    sample = sample.join(cases, on="row")
    per_judge = {
        name: sample.select(
            "resample", "label", score=pl.col(f"score{suffix}"), success=pl.col(f"success{suffix}")
        )
        .group_by("resample")
        .agg(agreement_exprs())
        .sort("resample")
        for name, suffix in ((first, ""), (second, "_2"))
    }
    lead = per_judge[first].select("resample", *(pl.col(m) - per_judge[second][m] for m in METRICS))
    rows = []
    for metric in METRICS:
        row: dict[str, object] = {"metric": metric}
        for name, frame in (*per_judge.items(), ("difference", lead)):
            row[name], row[f"{name}_low"], row[f"{name}_high"] = _with_interval(frame, metric)
        rows.append(row)
    return pl.DataFrame(rows)


def _with_interval(frame: pl.DataFrame, metric: str) -> tuple[float | None, ...]:
    """The figure on all cases (resample 0) and the percentile interval of the resamples."""
    point = frame.filter(pl.col("resample") == 0)[metric].item()
    spread = frame.filter(pl.col("resample") > 0)[metric].drop_nulls()
    if spread.is_empty():
        return point, None, None
    tail = (1.0 - CONFIDENCE) / 2
    low = spread.quantile(tail, "linear")
    high = spread.quantile(1.0 - tail, "linear")
    return point, low, high
