"""How the grounded judge's features (grounded_features.py) become a claim's support: the
logistic of the weighted features, with the fixed rules on top (a verbatim sentence, an aside
the context is silent on, a contradiction). The weights are the rules version's (grounded.py,
grounded_released.py, or a team's calibration)."""

from __future__ import annotations

import polars as pl

from faith_udfs.grounded_features import CONTRADICTION_COVERAGE

GROUNDED_ANSWER = 0.5
SHORT_CLAIM_WORDS = 4

# Not fitted (the dev sets hold too few plain contradictions to weigh them): a claim its best
# sentence contradicts (saying CONTRADICTION_COVERAGE of it: grounded_features.py) keeps this
# share of its support.
CONTRADICTED_FACTOR = 0.5


def feature_columns() -> dict[str, pl.Expr]:
    """The model's inputs, from claim_features' columns."""
    return {
        "cov_all": pl.col("cov_all"),
        "cov_best": pl.col("cov_best"),
        # what one other sentence adds to the best: fitted negative, a claim that splices two
        # sentences says what neither does (its words count less there than scattered ones)
        "cov_second": pl.col("cov_second"),
        "figure_missing": (pl.col("missing_figure") > 0).cast(pl.Float64),
        # a figure of the claim missing where its best sentence gives another: a contradiction
        "figure_swapped": ((pl.col("missing_figure") > 0) & pl.col("rival_figure")).cast(pl.Float64)
        * pl.col("cov_best"),
        "name_missing": (pl.col("missing_name") > 0).cast(pl.Float64),
        # the closer the sentence with the other polarity, the plainer the contradiction
        "negation": pl.col("negation").cast(pl.Float64) * pl.col("cov_best"),
        # a word missing from so short a claim is often its predicate ("Order A17 was lost")
        "short_gap": ((pl.col("n_words") <= SHORT_CLAIM_WORDS) & (pl.col("cov_all") < 1.0)).cast(
            pl.Float64
        ),
        "log_words": (pl.col("n_words").cast(pl.Float64) + 1.0).log(),
        "answer_cov": pl.col("answer_cov"),
    }


def support_expr(weights: dict[str, float]) -> pl.Expr:
    """The claim's support: the logistic of the weighted features; 1 for a verbatim truth,
    0 when no word of the claim is anywhere in a context the rest of the answer is grounded
    in (an aside the context is silent on: below the silent cut-off, `idk`)."""
    z = pl.lit(weights["intercept"])
    for name, feature in feature_columns().items():
        if name in weights:  # an older rules version weighs fewer features
            z = z + weights[name] * feature
    return (
        pl.when(pl.col("verbatim"))
        .then(1.0)
        .when((pl.col("cov_all") <= 0.0) & (pl.col("answer_found") >= GROUNDED_ANSWER))
        .then(0.0)
        .when(contradicted())
        .then(CONTRADICTED_FACTOR / (1.0 + (-z).exp()))
        .otherwise(1.0 / (1.0 + (-z).exp()))
    )


def contradicted() -> pl.Expr:
    """A sentence of the context that says the claim (CONTRADICTION_COVERAGE of its weight)
    with the other polarity, another figure in place of the claim's or (v7 on) another unit
    beside the claim's number or the other side of an opposite pair ("after" for "before"):
    it says otherwise."""
    figure_swapped = (pl.col("missing_figure") > 0) & pl.col("rival_figure")
    other = (
        pl.col("negation") | figure_swapped | pl.col("unit_swapped") | pl.col("opposite_swapped")
    )
    return other & (pl.col("cov_best") >= CONTRADICTION_COVERAGE)
