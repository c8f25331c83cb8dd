"""A calibration's refitted weights (faith_udfs/calibration_weights.py): the claims' features
as the judge sees them, the weakest-claim fit, and a judge that uses the weights it is given."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from faith_udfs import Cutoffs, GroundedJudge, MetricConfig, score_cases
from faith_udfs.calibration import weights_of
from faith_udfs.calibration_weights import (
    claim_feature_rows,
    fit_weights,
    refit_weights,
    weighed_cases,
)
from faith_udfs.errors import ConfigError
from faith_udfs.grounded import WEIGHTS
from tests.support.planted import planted_cases

NAMES = tuple(WEIGHTS)
CONTEXT = ["Order A17 shipped on 3 March by courier.", "Refunds are paid within 5 working days."]


def cases() -> pl.DataFrame:
    answers = [
        "Order A17 shipped on 3 March by courier. Refunds are paid within 5 working days.",
        "Order A17 shipped on 9 May. Refunds take a month.",
        "Order A17 was lost. It arrives tomorrow.",
        "Refunds are paid within 5 working days.",  # copied: no features computed by the judge
    ]
    return pl.DataFrame(
        {
            "case_id": [f"c{i}" for i in range(len(answers))],
            "input": ["where is my order?"] * len(answers),
            "actual_output": answers,
            "retrieval_context": [CONTEXT] * len(answers),
        }
    )


def test_feature_rows_are_the_judges_claims_in_order() -> None:
    rows = claim_feature_rows(cases(), MetricConfig())
    verdicts = score_cases(cases(), GroundedJudge(), MetricConfig()).claim_verdicts
    expected = verdicts.select("case_id", "claim_index", "claim").sort("case_id", "claim_index")
    got = rows.select("case_id", "claim_index", "claim").sort("case_id", "claim_index")
    assert got.cast(expected.schema).equals(expected)
    # each claim's best sentence, the evidence its verdict stores (an `idk` stores none)
    stored = verdicts.filter(pl.col("verdict") != "idk").select(
        "case_id", "claim_index", "evidence"
    )
    best = rows.join(stored, on=["case_id", "claim_index"], suffix="_stored")
    assert best.height == stored.height > 0
    assert best["evidence"].equals(best["evidence_stored"])
    copied = rows.filter(pl.col("case_id") == "c3")
    assert copied["verbatim"].to_list() == [True]
    assert set(NAMES[1:]) <= set(rows.columns)


def test_the_fit_finds_the_feature_that_separates_the_labels() -> None:
    rng = np.random.default_rng(3)
    n = 400
    cov_best = rng.uniform(0, 1, n)
    rows = pl.DataFrame(
        {name: rng.uniform(0, 1, n) for name in NAMES[1:]} | {"cov_best": cov_best}
    ).with_columns(
        set=pl.lit("labels"),
        case_id=pl.Series([f"c{i}" for i in range(n)]),
        faithful=pl.Series(cov_best + rng.normal(0, 0.1, n) > 0.5),
        has_words=pl.lit(True),
        verbatim=pl.lit(False),
    )
    beta = dict(zip(NAMES, fit_weights(rows, NAMES), strict=True))
    others = [abs(value) for name, value in beta.items() if name not in ("intercept", "cov_best")]
    assert beta["cov_best"] > 5 * max(others)
    assert beta["intercept"] < 0  # faithful from cov_best 0.5 up


def test_weights_are_refused_unless_they_name_the_judges_features() -> None:
    with pytest.raises(ConfigError, match="missing \\['answer_cov'\\]"):
        weights_of({k: v for k, v in WEIGHTS.items() if k != "answer_cov"}, WEIGHTS)
    with pytest.raises(ConfigError, match="unknown \\['colour'\\]"):
        weights_of({**WEIGHTS, "colour": 1.0}, WEIGHTS)
    with pytest.raises(ConfigError, match="'cov_all' must be a finite number"):
        weights_of({**WEIGHTS, "cov_all": math.inf}, WEIGHTS)
    with pytest.raises(ConfigError, match="finite numbers"):
        Cutoffs(0.5, 0.0, weights={"cov_all": math.nan})
    reordered = dict(reversed(list(WEIGHTS.items())))
    assert weights_of(reordered, WEIGHTS) == tuple(WEIGHTS.items())


def test_a_judge_scores_with_the_weights_it_is_given() -> None:
    config = MetricConfig()
    default = score_cases(cases(), GroundedJudge(), config).claim_verdicts
    same = GroundedJudge(Cutoffs(0.56, 0.001, weights=dict(reversed(list(WEIGHTS.items())))))
    again = score_cases(cases(), same, config).claim_verdicts
    assert again["support"].to_list() == default["support"].to_list()
    # its own series all the same: a calibration, whatever numbers it holds
    assert same.identity != GroundedJudge().identity
    assert same.identity == GroundedJudge(Cutoffs(0.56, 0.001, weights=WEIGHTS)).identity
    trusting = GroundedJudge(Cutoffs(0.56, 0.001, weights={**WEIGHTS, "intercept": 50.0}))
    judged = score_cases(cases(), trusting, config).claim_verdicts
    # every claim with a word in the context is now yes, however weakly it is held
    held = judged.filter(pl.col("support") > 0)
    assert held["verdict"].unique().to_list() == ["yes"]
    assert held.height > default.filter(pl.col("verdict") == "yes").height


def test_refit_on_planted_labels_separates_them_and_one_class_is_refused() -> None:
    planted = planted_cases(40)
    features = claim_feature_rows(planted.drop("label"), MetricConfig())
    labels = planted.select("case_id", "label")
    weights = refit_weights(features, labels)
    assert [name for name, _ in weights] == list(NAMES)
    judge = GroundedJudge(Cutoffs(0.56, 0.001, weights=weights))
    supports = (
        score_cases(planted.drop("label"), judge, MetricConfig())
        .claim_verdicts.join(labels, on="case_id")
        .group_by("label")
        .agg(low=pl.col("support").min(), high=pl.col("support").max())
        .sort("label")
    )
    unfaithful, faithful = supports.rows()
    assert unfaithful[2] < faithful[1]  # every faithful claim above every unfaithful one
    assert weighed_cases(features, labels) == {True: 20, False: 20}
    with pytest.raises(ConfigError, match="40 cases labelled 1 and 0 labelled 0 have a claim"):
        refit_weights(features, labels.with_columns(label=pl.lit(1)))


def test_the_fit_survives_labels_one_feature_separates_outright() -> None:
    """Faithful exactly when `cov_best` is 1, every other feature constant: the fit ends with
    finite weights that rank the labels apart (no singular step, no NaN)."""
    n = 60
    faithful = [i % 2 == 0 for i in range(n)]
    rows = pl.DataFrame({name: [0.5] * n for name in NAMES[1:]}).with_columns(
        cov_best=pl.Series([1.0 if f else 0.0 for f in faithful]),
        set=pl.lit("labels"),
        case_id=pl.Series([f"c{i}" for i in range(n)]),
        faithful=pl.Series(faithful),
        has_words=pl.lit(True),
        verbatim=pl.lit(False),
    )
    beta = fit_weights(rows, NAMES)
    assert np.isfinite(beta).all()
    z = np.column_stack([np.ones(n), rows.select(NAMES[1:]).to_numpy()]) @ beta
    assert z[::2].min() > z[1::2].max()
