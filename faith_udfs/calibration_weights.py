"""A team's labels refit the grounded judge's feature weights (pure: frames in, numbers out).

The judge's support is the logistic of a handful of features (grounded.feature_columns),
weighed by numbers fitted on the five dev sets. A team's answers may need other weights
than those sets' (on 200 labels of one dev set, weights refitted with the cut-offs beat
cut-offs alone by 0.02-0.03 balanced accuracy on three sets of five: docs/calibration.md).
A case is faithful only when its weakest claim is, so each labelled case stands for its
weakest claim (by the weights of the round before, three rounds from `cov_best` alone),
labelled with the case's label; an L2 logistic regression (Newton steps) is fitted on those,
both labels of each `set` weighing the same and every set the same. bench/fit_grounded.py
fits the rules' own numbers with the same function.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from faith_udfs.calibration import Weights, weights_of
from faith_udfs.config import MetricConfig
from faith_udfs.errors import ConfigError
from faith_udfs.grounded import GroundedJudge
from faith_udfs.grounded_features import claim_features
from faith_udfs.grounded_support import contradicted, feature_columns
from faith_udfs.metric import score_cases

__all__ = [
    "MIN_WEIGHED_CASES",
    "MIN_WEIGHT_LABELS",
    "RecordingJudge",
    "claim_feature_rows",
    "fit_weights",
    "refit_weights",
    "weighed_cases",
]

# Below this many labelled cases a refit of ~10 weights is mostly noise (on 100 labels of a
# dev set it still gained on four sets of five, by less): the cut-offs alone are fitted.
MIN_WEIGHT_LABELS = 100
# Nor without this many cases of each label that have a claim the weights weigh (not copied
# word for word, with a content word): every fold's training part must hold both.
MIN_WEIGHED_CASES = 20
RIDGE = 1e-3
ROUNDS = 3


class RecordingJudge(GroundedJudge):
    """The default grounded judge, keeping the questions the batch path asked it (a subclass
    with other claims or features records alike: bench/fit_grounded.py's trials)."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[pl.DataFrame] = []

    def verdicts(self, questions: pl.DataFrame) -> pl.DataFrame:
        self.asked.append(questions)
        return super().verdicts(questions)


def claim_feature_rows(
    cases: pl.DataFrame, config: MetricConfig, judge: RecordingJudge | None = None
) -> pl.DataFrame:
    """One row per claim of each case (`case_id`, `actual_output`, `retrieval_context`) as the
    grounded judge (`judge`, else the default) splits and judges it: `case_id`, `claim_index`,
    `claim`, `evidence` (its best sentence of the context), `verbatim`, `has_words`,
    `answer_found`, `contradicted` and the model's features.
    Features do not depend on the weights, so one pass serves every refit."""
    judge = judge or RecordingJudge()
    scored = score_cases(cases, judge, config)
    if not judge.asked:
        return _no_rows()
    questions = pl.concat(judge.asked)
    features = claim_features(questions, rules=judge.word_rules, folds_case=judge.folds_case)
    features = features.with_columns(
        question_key=questions["key"].gather(features["question_row"]),
        claim_index=pl.int_range(pl.len(), dtype=pl.Int32).over("question_row"),
        contradicted=contradicted(),
        **feature_columns(),
    )
    return (
        scored.item_keys.select("case_id", "question_key")
        .drop_nulls("question_key")
        .join(features, on="question_key", maintain_order="left")
        .select(
            "case_id",
            "claim_index",
            "claim",
            "evidence",
            "verbatim",
            "has_words",
            "answer_found",
            "contradicted",
            *feature_columns(),
        )
    )


def _no_rows() -> pl.DataFrame:
    columns = dict.fromkeys(feature_columns(), pl.Float64)
    return pl.DataFrame(
        schema={
            "case_id": pl.String,
            "claim_index": pl.Int32,
            "claim": pl.String,
            "evidence": pl.String,
            "verbatim": pl.Boolean,
            "has_words": pl.Boolean,
            "answer_found": pl.Float64,
            "contradicted": pl.Boolean,
            **columns,
        }
    )


def feature_matrix(rows: pl.DataFrame, names: tuple[str, ...]) -> np.ndarray:
    """The intercept's column of ones and the features `names[1:]`, as floats."""
    features = rows.select(names[1:]).to_numpy().astype(float)
    return np.column_stack([np.ones(rows.height), features])


def logistic(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Weighted L2 logistic regression by Newton steps (the intercept not penalised). The
    ridge keeps the optimum finite when the features separate the labels outright."""
    beta = np.zeros(x.shape[1])
    ridge = np.full(x.shape[1], RIDGE)
    ridge[0] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(x @ beta)))
        gradient = x.T @ (w * (y - p)) / w.sum() - ridge * beta
        hessian = (x * (w * p * (1 - p))[:, None]).T @ x / w.sum() + np.diag(ridge)
        step = np.linalg.solve(hessian, gradient)
        beta += step
        if np.abs(step).max() < 1e-9:
            break
    return beta


def fit_weights(rows: pl.DataFrame, names: tuple[str, ...]) -> np.ndarray:
    """The weights of `names` ("intercept" first, then features) from each case's weakest
    claim; `rows`: one per claim, `set`, `case_id`, `faithful`, `has_words`, `verbatim` and
    the features. Claims without a word or copied whole are left out (their support is a
    rule's, not the model's)."""
    beta = np.zeros(len(names))
    beta[names.index("cov_best")] = 1.0
    judged = rows.filter(pl.col("has_words") & ~pl.col("verbatim"))
    for _ in range(ROUNDS):
        weakest = (
            judged.with_columns(z=pl.Series(feature_matrix(judged, names) @ beta))
            .sort("z", maintain_order=True)
            .unique(["set", "case_id"], keep="first")
        )
        counts = weakest.group_by("set", "faithful").len()
        weakest = weakest.join(counts, on=["set", "faithful"]).with_columns(w=1.0 / pl.col("len"))
        beta = logistic(
            feature_matrix(weakest, names),
            weakest["faithful"].to_numpy().astype(float),
            weakest["w"].to_numpy(),
        )
    return beta


def weighed_cases(features: pl.DataFrame, labels: pl.DataFrame) -> dict[bool, int]:
    """How many labelled cases of each label (True: faithful) have a claim the weights weigh."""
    judged = features.filter(pl.col("has_words") & ~pl.col("verbatim")).select("case_id").unique()
    counts = dict(
        labels.join(judged, on="case_id")
        .group_by(pl.col("label").cast(pl.Boolean))
        .len()
        .iter_rows()
    )
    return {label: counts.get(label, 0) for label in (True, False)}


def refit_weights(features: pl.DataFrame, labels: pl.DataFrame) -> Weights:
    """The default judge's weights refitted on the labelled cases' claims (`features` from
    claim_feature_rows, `labels`: `case_id`, `label`); refused when the labels leave no case
    of one label with a claim to weigh."""
    names = tuple(GroundedJudge.weights)
    weighed = weighed_cases(features, labels)
    if min(weighed.values()) == 0:
        raise ConfigError(
            f"the weights cannot be fitted: {weighed[True]} cases labelled 1 and "
            f"{weighed[False]} labelled 0 have a claim the judge weighs (the others' claims "
            "are copied word for word from the context or have no content word)"
        )
    rows = features.join(
        labels.select("case_id", faithful="label"), on="case_id", maintain_order="left"
    ).with_columns(set=pl.lit("labels"))
    beta = fit_weights(rows, names)
    fitted = {name: round(float(value), 4) for name, value in zip(names, beta, strict=True)}
    return weights_of(fitted, GroundedJudge.weights)
