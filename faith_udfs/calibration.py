"""A team's own labels fit the offline judge's decision cut-offs (pure: frames in, frames out).

The grounded judge says `yes` when a claim's support is at or above `supported` (and its
figures and negations hold), `idk` when the context is silent on it (coverage below
`silent`), `no` otherwise; a case passes when its score is at or above `threshold`. Fitting
re-judges the labelled cases a few times under probe cut-offs (`probe_cutoffs`) to learn, per
claim, whether it could be `yes` at all and from which silent cut-off it is `idk`
(`claim_levels`); any cut-offs' verdicts then follow without judging again (`verdicts_at`),
and the cut-offs whose neighbourhood on a grid has the best balanced accuracy are chosen
(`fit_cutoffs`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from itertools import product

import polars as pl

from faith_udfs.calibration_stats import (
    agreement_table,
    balanced_accuracy_expr,
    stratified_folds,
)
from faith_udfs.config import check_threshold
from faith_udfs.errors import ConfigError
from faith_udfs.scores import score_expr

__all__ = [
    "CrossValidation",
    "Cutoffs",
    "Weights",
    "case_scores_at",
    "claim_levels",
    "cross_validate",
    "fit_cutoffs",
    "probe_cutoffs",
    "verdicts_at",
    "weights_of",
]

# The grids cut-offs are chosen on: coarse on purpose (a few hundred labels do not support
# finer choices, and a plateau's middle carries over better than a peak's edge).
SUPPORT_GRID = tuple(round(0.05 + 0.025 * i, 4) for i in range(39))  # 0.05 .. 1.0
SILENT_GRID = (0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3)
THRESHOLD_GRID = tuple(round(0.05 * i, 4) for i in range(1, 21))  # 0.05 .. 1.0


# A rules version's weights as stored and compared: (feature name, weight) pairs in the
# rules' own order (a frozen dataclass field must be hashable).
Weights = tuple[tuple[str, float], ...]


def weights_of(given: dict[str, float] | Weights, rules: dict[str, float]) -> Weights:
    """`given` checked against the rules version's weights (`rules`): the same names, each a
    finite number; in the rules' order."""
    named = dict(given)
    if set(named) != set(rules):
        missing = sorted(set(rules) - set(named))
        extra = sorted(set(named) - set(rules))
        raise ConfigError(
            f"weights must name exactly the judge's features ({', '.join(rules)}); "
            f"missing {missing or 'none'}, unknown {extra or 'none'}"
        )
    for name, value in named.items():
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
        ):
            raise ConfigError(f"weight {name!r} must be a finite number, got {value!r}")
    return tuple((name, float(named[name])) for name in rules)


@dataclass(frozen=True)
class Cutoffs:
    """A calibration's numbers: the offline judge's decision cut-offs, the case threshold
    fitted with them and, when `faith calibrate` refitted them, the judge's feature weights
    (`weights`: (name, weight) pairs; None: the rules version's own)."""

    supported: float  # support at or above which a claim is `yes`
    silent: float  # coverage below which the context is silent on a claim: `idk`
    threshold: float = 0.5  # a case's score at or above which it passes
    weights: Weights | None = None

    def __repr__(self) -> str:
        numbers = (
            f"supported={self.supported!r}, silent={self.silent!r}, threshold={self.threshold!r}"
        )
        refitted = "" if self.weights is None else f", weights={dict(self.weights)!r}"
        return f"Cutoffs({numbers}{refitted})"

    def __post_init__(self) -> None:
        for name in ("supported", "silent", "threshold"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value):
                raise ConfigError(f"{name} must be a number between 0 and 1, got {value!r}")
            check_threshold(value, name)
        if self.weights is not None:
            # a dict is taken too (frozen: the pairs are what is kept and compared)
            pairs = self.weights.items() if isinstance(self.weights, dict) else self.weights
            try:
                weights = tuple((str(name), float(value)) for name, value in pairs)
            except (TypeError, ValueError) as error:
                raise ConfigError(f"weights must be (name, number) pairs: {error}") from None
            if not weights or not all(math.isfinite(value) for _, value in weights):
                raise ConfigError("weights must be finite numbers, at least one")
            object.__setattr__(self, "weights", weights)

    def judge_options(self) -> tuple[tuple[str, str], ...]:
        """The cut-offs (and refitted weights) as a judge identity's options (the threshold
        is the metric's)."""
        options = (("silent", repr(float(self.silent))), ("supported", repr(float(self.supported))))
        if self.weights is None:
            return options
        return (*options, ("weights", json.dumps(dict(self.weights), separators=(",", ":"))))

    def as_dict(self) -> dict[str, float]:
        return {"supported": self.supported, "silent": self.silent, "threshold": self.threshold}


# Given training labels (`case_id`, `label`), the judge's weights fitted on them and every
# labelled claim's levels (claim_levels) under those weights.
Refit = Callable[[pl.DataFrame], tuple[Weights, pl.DataFrame]]


@dataclass(frozen=True)
class CrossValidation:
    """Cut-offs (and weights) fitted on every label, and how fitting fared under k-fold
    cross-validation against the baseline judge on the same cases (`table`, one row a
    metric); `levels`: the labelled claims' levels the final cut-offs were fitted on."""

    cutoffs: Cutoffs
    baseline: Cutoffs
    fold_cutoffs: tuple[Cutoffs, ...]
    table: pl.DataFrame = field(repr=False)
    folds: int
    seed: int
    resamples: int
    cases: int
    positives: int
    levels: pl.DataFrame | None = field(default=None, repr=False)


def probe_cutoffs(baseline: Cutoffs) -> list[Cutoffs]:
    """The cut-offs the labelled cases are judged under to learn their claims' levels: one
    where every claim that can be `yes` is (support cut-off 0), then one per silent cut-off
    with support cut-off 1 (only fully supported claims are `yes`, the rest show silence)."""
    silents = sorted({*SILENT_GRID, baseline.silent})
    return [Cutoffs(0.0, 0.0), *(Cutoffs(1.0, q) for q in silents)]


def claim_levels(probes: Sequence[tuple[Cutoffs, pl.DataFrame]]) -> pl.DataFrame:
    """Per claim, from the claim verdicts (`case_id`, `claim_index`, `verdict`, `support`) of
    the judge under each of `probe_cutoffs`: `support`, `eligible` (`yes` once the support
    is enough) and `silent_below` (the least probed silent cut-off making it `idk`; null:
    none, or `yes` whenever support allows)."""
    (first, base), *rest = probes
    if first != Cutoffs(0.0, 0.0):
        raise ValueError("the first probe must be Cutoffs(0.0, 0.0), as probe_cutoffs gives")
    levels = base.select(
        "case_id",
        "claim_index",
        support=pl.col("support").fill_null(0.0),
        eligible=pl.col("verdict") == "yes",
    )
    silent = pl.concat(
        [
            frame.filter(pl.col("verdict") == "idk").select(
                "case_id", "claim_index", silent_below=pl.lit(cutoffs.silent)
            )
            for cutoffs, frame in rest
        ]
    )
    first_silent = silent.group_by("case_id", "claim_index").agg(pl.col("silent_below").min())
    return levels.join(first_silent, on=["case_id", "claim_index"], how="left").sort(
        "case_id", "claim_index"
    )


def verdicts_at(supported: pl.Expr, silent: pl.Expr) -> pl.Expr:
    """A claim's verdict under the cut-offs, from its levels (the judge's own rule order)."""
    return (
        pl.when(pl.col("eligible") & (pl.col("support") >= supported))
        .then(pl.lit("yes"))
        .when(pl.col("silent_below").is_not_null() & (pl.col("silent_below") <= silent))
        .then(pl.lit("idk"))
        .otherwise(pl.lit("no"))
    )


def case_scores_at(
    levels: pl.DataFrame,
    case_ids: pl.Series,
    grid: pl.DataFrame,
    *,
    penalize_ambiguous_claims: bool = False,
) -> pl.DataFrame:
    """Each case's score under every (`supported`, `silent`) row of `grid`: `case_id`,
    `supported`, `silent`, `score` (1.0 for a case without claims, as the metric says)."""
    counts = (
        levels.join(grid, how="cross")
        .with_columns(verdict=verdicts_at(pl.col("supported"), pl.col("silent")))
        .group_by("case_id", "supported", "silent")
        .agg(**{f"n_{v}": (pl.col("verdict") == v).sum() for v in ("yes", "no", "idk")})
    )
    every = pl.DataFrame({"case_id": case_ids.unique()}).join(grid, how="cross")
    return (
        every.join(counts, on=["case_id", "supported", "silent"], how="left")
        .with_columns(pl.col("n_yes", "n_no", "n_idk").fill_null(0))
        .select(
            "case_id",
            "supported",
            "silent",
            score=score_expr(
                pl.col("n_yes"),
                pl.col("n_no"),
                pl.col("n_idk"),
                penalize_ambiguous_claims=penalize_ambiguous_claims,
            ),
        )
        .sort("case_id", "supported", "silent")
    )


def cutoff_grid(baseline: Cutoffs) -> pl.DataFrame:
    """Every (`supported`, `silent`) pair fitting chooses from, the baseline's included."""
    supports = sorted({*SUPPORT_GRID, baseline.supported})
    silents = sorted({*SILENT_GRID, baseline.silent})
    return pl.DataFrame({"supported": supports}).join(
        pl.DataFrame({"silent": silents}), how="cross"
    )


def fit_cutoffs(
    scores: pl.DataFrame,
    labels: pl.DataFrame,
    baseline: Cutoffs,
    *,
    claims: pl.DataFrame | None = None,
    penalize_ambiguous_claims: bool = False,
) -> Cutoffs:
    """The cut-offs and threshold with the best balanced accuracy of `score >= threshold`
    against `label` over the labelled cases of `scores` (from `case_scores_at`), each
    candidate's figure averaged with its grid neighbours' (`_plateau`); of equals, the nearest
    to `baseline`, then the lowest. With per-claim labels (`claims`: levels with a
    `claim_label` column), the cut-offs are those that best agree with them claim by claim (a
    claim judged faithful: not `no`, or `yes` when ambiguity is penalised), and only the
    threshold is fitted on the case labels."""
    thresholds = pl.DataFrame({"threshold": sorted({*THRESHOLD_GRID, baseline.threshold})})
    keys: tuple[str, ...] = ("supported", "silent", "threshold")
    candidates = (
        scores.join(labels.select("case_id", "label"), on="case_id")
        .join(thresholds, how="cross")
        .with_columns(success=pl.col("score") >= pl.col("threshold"))
        .group_by("supported", "silent", "threshold")
        .agg(balanced_accuracy=balanced_accuracy_expr(pl.col("label"), pl.col("success")))
    )
    if claims is not None and "claim_label" in claims.columns:
        labelled = claims.filter(pl.col("claim_label").is_not_null())
    else:
        labelled = pl.DataFrame({"claim_label": []}, schema={"claim_label": pl.Boolean})
    if labelled["claim_label"].n_unique() == 2:  # claims of one label cannot rank cut-offs
        grid = scores.select("supported", "silent").unique()
        agreement = _claim_agreement(labelled, grid, penalize_ambiguous_claims)
        best = _nearest(_plateau(agreement, ("supported", "silent")), baseline)
        candidates = candidates.filter(
            (pl.col("supported") == best["supported"]) & (pl.col("silent") == best["silent"])
        )
        keys = ("threshold",)
    best = _nearest(_plateau(candidates, keys), baseline)
    return Cutoffs(best["supported"], best["silent"], best["threshold"])


def _plateau(candidates: pl.DataFrame, keys: tuple[str, ...]) -> pl.DataFrame:
    """The candidates with each one's `balanced_accuracy` averaged with its neighbours' (one
    grid step either way on each of `keys`, fewer at the grid's edge; any other column is one
    value throughout). A few hundred labels make a lone peak mostly luck; the middle of a
    plateau carries over to unseen cases. On the five dev sets, 20 seeded samples of 200
    labels each, the held-out balanced accuracy rose 0.005 on average, SALAD's from 0.012
    below the default judge's to 0.001 below (`bench/calibration_check.py --samples 20`)."""
    step = {key: f"_step_{key}" for key in keys}
    indexed = candidates.with_columns(
        pl.col(key).rank("dense").cast(pl.Int32).alias(step[key]) for key in keys
    )
    offsets = pl.DataFrame(
        list(product((-1, 0, 1), repeat=len(keys))),
        schema={f"_by_{key}": pl.Int32 for key in keys},
        orient="row",
    )
    neighbours = indexed.select(
        *(pl.col(step[key]) for key in keys), _neighbour=pl.col("balanced_accuracy")
    )
    return (
        indexed.join(offsets, how="cross")
        .with_columns(pl.col(step[key]) + pl.col(f"_by_{key}") for key in keys)
        .join(neighbours, on=list(step.values()))
        .group_by(column for column in candidates.columns if column != "balanced_accuracy")
        # rounded: equal figures averaged over more or fewer neighbours stay equal (a tie)
        .agg(balanced_accuracy=pl.col("_neighbour").mean().round(9))
    )


def _claim_agreement(claims: pl.DataFrame, grid: pl.DataFrame, penalize: bool) -> pl.DataFrame:
    """Balanced accuracy of each (`supported`, `silent`) of `grid` against `claim_label`."""
    verdict = verdicts_at(pl.col("supported"), pl.col("silent"))
    faithful = verdict == "yes" if penalize else verdict != "no"
    return (
        claims.join(grid, how="cross")
        .with_columns(faithful=faithful)
        .group_by("supported", "silent")
        .agg(balanced_accuracy=balanced_accuracy_expr(pl.col("claim_label"), pl.col("faithful")))
    )


def _nearest(candidates: pl.DataFrame, baseline: Cutoffs) -> dict[str, float]:
    """The candidate row of best balanced accuracy; of equals, the nearest to `baseline`
    (summed over the cut-offs it holds), then the lowest."""
    keys = [name for name in ("supported", "silent", "threshold") if name in candidates.columns]
    distance = pl.sum_horizontal((pl.col(name) - getattr(baseline, name)).abs() for name in keys)
    ranked = candidates.with_columns(distance=distance).sort(
        ["balanced_accuracy", "distance", *keys],
        descending=[True, False, *(False for _ in keys)],
        nulls_last=True,
    )
    return ranked.row(0, named=True)


def predictions_at(scores: pl.DataFrame, cutoffs: Cutoffs) -> pl.DataFrame:
    """`case_id`, `score`, `success` of each case under `cutoffs` (a row of the grid)."""
    at = scores.filter(
        (pl.col("supported") == cutoffs.supported) & (pl.col("silent") == cutoffs.silent)
    )
    return at.select("case_id", "score", success=pl.col("score") >= cutoffs.threshold)


def cross_validate(
    levels: pl.DataFrame,
    labels: pl.DataFrame,
    baseline: Cutoffs,
    *,
    folds: int = 5,
    seed: int = 0,
    resamples: int = 1000,
    penalize_ambiguous_claims: bool = False,
    refit: Refit | None = None,
) -> CrossValidation:
    """Fit on all labels (per-claim ones too when `levels` has `claim_label`: see
    `fit_cutoffs`), and measure fitting honestly: k folds split by case (seeded, stratified
    by label; a `fold_group`'s cases in one fold: `stratified_folds`), cut-offs fitted on the
    other folds and applied to each; the pooled out-of-fold predictions against the
    baseline's on the same cases, with seeded bootstrap 95% intervals (`agreement_table`).
    `refit`: the judge's weights are fitted too, on the same folds (given training labels, it
    returns the weights and every labelled claim's levels under them); `levels` are then the
    baseline's."""
    grid = cutoff_grid(baseline)

    def scores_of(fitted_levels: pl.DataFrame) -> pl.DataFrame:
        return case_scores_at(
            fitted_levels,
            labels["case_id"],
            grid,
            penalize_ambiguous_claims=penalize_ambiguous_claims,
        )

    def fitted_on(train: pl.DataFrame) -> tuple[Cutoffs, pl.DataFrame, pl.DataFrame]:
        """The calibration fitted on `train`'s labels, and the levels and every case's scores
        under its weights (the baseline's when only cut-offs are fitted)."""
        weights, fitted_levels = (None, levels) if refit is None else refit(train)
        fitted_scores = baseline_scores if refit is None else scores_of(fitted_levels)
        cutoffs = fit_cutoffs(
            fitted_scores.join(train, on="case_id", how="semi"),
            train,
            baseline,
            claims=fitted_levels.join(train, on="case_id", how="semi"),
            penalize_ambiguous_claims=penalize_ambiguous_claims,
        )
        return replace(cutoffs, weights=weights), fitted_levels, fitted_scores

    baseline_scores = scores_of(levels)
    assigned = stratified_folds(labels, folds=folds, seed=seed)
    held_out = []
    per_fold = []
    for fold in range(folds):
        train = assigned.filter(pl.col("fold") != fold)
        test = assigned.filter(pl.col("fold") == fold)
        fitted, _, scores = fitted_on(train)
        per_fold.append(fitted)
        held_out.append(
            predictions_at(scores.join(test, on="case_id", how="semi"), fitted).with_columns(
                fold=pl.lit(fold)
            )
        )
    calibrated = pl.concat(held_out)
    uncalibrated = predictions_at(baseline_scores, baseline)
    table = agreement_table(
        labels, {"calibrated": calibrated, "uncalibrated": uncalibrated}, seed, resamples
    )
    cutoffs, fitted_levels, _ = fitted_on(labels)
    return CrossValidation(
        cutoffs=cutoffs,
        levels=fitted_levels,
        baseline=baseline,
        fold_cutoffs=tuple(per_fold),
        table=table,
        folds=folds,
        seed=seed,
        resamples=resamples,
        cases=labels.height,
        positives=int(labels["label"].sum()),
    )
