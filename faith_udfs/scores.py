"""Scores: from verdict counts to score, success and status, as DeepEval defines them."""

from __future__ import annotations

import polars as pl

from faith_udfs.config import MetricConfig


def score_expr(
    n_yes: pl.Expr, n_no: pl.Expr, n_idk: pl.Expr, *, penalize_ambiguous_claims: bool
) -> pl.Expr:
    """Share of judged claims not `no` (or, penalising ambiguity, share of `yes`); 1.0 if none."""
    judged = n_yes + n_no + n_idk
    faithful = n_yes if penalize_ambiguous_claims else n_yes + n_idk
    return pl.when(judged > 0).then(faithful / judged).otherwise(1.0)


def case_scores(counts: pl.DataFrame, config: MetricConfig) -> pl.DataFrame:
    """Add `score`, `threshold`, `success` and `status` to per-case verdict counts.

    `counts` has `n_claims`, `n_yes`, `n_no`, `n_idk`, `error` and `pending`; a case with an
    error is `invalid` (or `pending`) and has neither score nor success.
    """
    score = score_expr(
        pl.col("n_yes"),
        pl.col("n_no"),
        pl.col("n_idk"),
        penalize_ambiguous_claims=config.penalize_ambiguous_claims,
    )
    threshold = config.effective_threshold
    if config.strict_mode:
        score = pl.when(score < threshold).then(0.0).otherwise(score)
    failed = pl.col("error").is_not_null()
    return counts.with_columns(
        score=pl.when(failed).then(None).otherwise(score),
        threshold=pl.lit(threshold, dtype=pl.Float64),
        no_claims=~failed & (pl.col("n_claims") == 0),
        status=pl.when(~failed)
        .then(pl.lit("scored"))
        .when(pl.col("pending"))
        .then(pl.lit("pending"))
        .otherwise(pl.lit("invalid")),
    ).with_columns(success=pl.col("score") >= pl.col("threshold"))
