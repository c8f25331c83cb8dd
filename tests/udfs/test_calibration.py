"""Calibration of the grounded judge, pure: cut-offs, the verdicts they imply, fitting, and
the agreement figures with their intervals (issue 20, item 4)."""

from __future__ import annotations

import polars as pl
import pytest

from faith_udfs import ConfigError, Cutoffs, GroundedJudge, MetricConfig, score_cases
from faith_udfs.calibration import (
    case_scores_at,
    claim_levels,
    cross_validate,
    cutoff_grid,
    fit_cutoffs,
    probe_cutoffs,
    verdicts_at,
)
from faith_udfs.calibration_stats import agreement_exprs, stratified_folds
from faith_udfs.grounded import SILENT, SUPPORTED
from tests.support.builders import ANSWERS, CONTEXT
from tests.support.planted import planted_cases, planted_supports, separating_supports

LOW, HIGH = separating_supports()  # a perfect cut-off lies above LOW, at most HIGH

CASE_COLUMNS = ["case_id", "actual_output", "retrieval_context"]


def varied_cases() -> pl.DataFrame:
    """Claims of every kind: planted shares, figures, negations, silence, no content word."""
    planted = planted_cases(12).select(CASE_COLUMNS)
    others = [
        *((f"a{i}", answer, CONTEXT) for i, answer in enumerate(ANSWERS)),
        ("n1", "Refunds are not paid within 5 working days.", CONTEXT),
        ("s1", "Dragons guard the northern mountains. It was there.", CONTEXT),
        ("m1", "Order A17 shipped on 4 March by courier, and refunds take 5 days.", CONTEXT),
    ]
    rest = pl.DataFrame(
        others, schema=dict(zip(CASE_COLUMNS, planted.schema.values(), strict=True)), orient="row"
    )
    return pl.concat([planted, rest])


@pytest.fixture(scope="module")
def varied_levels() -> tuple[pl.DataFrame, pl.DataFrame]:
    cases = varied_cases()
    return cases, levels_of(cases)


def levels_of(cases: pl.DataFrame, penalize: bool = False) -> pl.DataFrame:
    config = MetricConfig(penalize_ambiguous_claims=penalize)
    probes = [
        (c, score_cases(cases, GroundedJudge(c), config).claim_verdicts)
        for c in probe_cutoffs(GroundedJudge().cutoffs)
    ]
    return claim_levels(probes)


def labels_of(cases: pl.DataFrame) -> pl.DataFrame:
    return cases.select("case_id", label=pl.col("label") == 1)


@pytest.mark.parametrize(
    ("supported", "silent", "threshold"),
    [(1.2, 0.05, 0.5), (0.5, -0.1, 0.5), (0.5, 0.05, float("nan")), (True, 0.05, 0.5)],
)
def test_cutoffs_out_of_range_are_refused(
    supported: float, silent: float, threshold: float
) -> None:
    with pytest.raises(ConfigError, match="between 0 and 1"):
        Cutoffs(supported, silent, threshold)


def test_the_default_cutoffs_are_the_judges_constants_and_its_series() -> None:
    assert GroundedJudge().cutoffs == Cutoffs(SUPPORTED, SILENT, 0.5)
    same = GroundedJudge(cutoffs=Cutoffs(SUPPORTED, SILENT, 0.7))
    assert same.identity == GroundedJudge().identity  # the same verdicts: the same series
    calibrated = GroundedJudge(cutoffs=Cutoffs(0.8, SILENT))
    config = MetricConfig()
    assert config.config_id(calibrated.identity) != config.config_id(GroundedJudge().identity)
    assert dict(calibrated.identity.options) == {"silent": repr(SILENT), "supported": "0.8"}
    assert (
        repr(calibrated)
        == f"GroundedJudge(cutoffs=Cutoffs(supported=0.8, silent={SILENT!r}, threshold=0.5))"
    )
    with pytest.raises(TypeError, match="Cutoffs"):
        GroundedJudge(cutoffs=(0.8, 0.05))  # type: ignore[arg-type]


def test_the_cutoffs_decide_the_grounded_verdicts() -> None:
    cases = planted_cases(4).select(CASE_COLUMNS)  # supports 0.84, 0.76, 0.75, 0.64
    default = score_cases(cases, GroundedJudge(), MetricConfig()).claim_verdicts
    strict = score_cases(
        cases, GroundedJudge(Cutoffs(0.755, SILENT)), MetricConfig()
    ).claim_verdicts
    assert default["verdict"].to_list() == ["yes", "yes", "yes", "yes"]
    assert strict["verdict"].to_list() == ["yes", "yes", "no", "no"]
    assert strict["support"].to_list() == default["support"].to_list()


@pytest.mark.parametrize(
    "cutoffs",
    [Cutoffs(SUPPORTED, SILENT), Cutoffs(0.8, 0.1), Cutoffs(0.3, 0.0), Cutoffs(0.95, 0.3)],
)
def test_the_levels_give_the_verdicts_the_judge_gives(
    cutoffs: Cutoffs, varied_levels: tuple[pl.DataFrame, pl.DataFrame]
) -> None:
    """What fitting assumes: a claim's verdict under any cut-offs follows from its levels."""
    cases, levels = varied_levels
    judged = score_cases(cases, GroundedJudge(cutoffs), MetricConfig()).claim_verdicts
    assumed = levels.select(
        "case_id",
        "claim_index",
        assumed=verdicts_at(pl.lit(cutoffs.supported), pl.lit(cutoffs.silent)),
    )
    both = judged.join(assumed, on=["case_id", "claim_index"], how="full", coalesce=True)
    assert both.height == judged.height == levels.height
    assert set(both["verdict"]) >= {"yes", "no", "idk"}  # every verdict is exercised
    assert both.filter(pl.col("verdict") != pl.col("assumed")).is_empty()


def test_case_scores_under_the_grid_match_the_judge() -> None:
    cases = varied_cases()
    levels = levels_of(cases, penalize=True)
    grid = pl.DataFrame({"supported": [0.8], "silent": [0.1]})
    assumed = case_scores_at(levels, cases["case_id"], grid, penalize_ambiguous_claims=True)
    config = MetricConfig(penalize_ambiguous_claims=True)
    judged = score_cases(cases, GroundedJudge(Cutoffs(0.8, 0.1)), config).case_scores
    both = judged.select("case_id", "score").join(assumed, on="case_id", suffix="_assumed")
    assert both.height == cases.height
    assert (both["score"] - both["score_assumed"]).abs().max() < 1e-12


def test_a_planted_set_is_fitted_above_the_default_cutoff() -> None:
    cases = planted_cases(40)
    levels, labels = levels_of(cases.select(CASE_COLUMNS)), labels_of(cases)
    baseline = GroundedJudge().cutoffs
    scores = case_scores_at(levels, labels["case_id"], cutoff_grid(baseline))
    fitted = fit_cutoffs(scores, labels, baseline)
    assert LOW < fitted.supported <= HIGH  # between the unfaithful and the faithful supports
    validation = cross_validate(levels, labels, baseline, folds=5, seed=1, resamples=200)
    table = {row["metric"]: row for row in validation.table.iter_rows(named=True)}
    assert table["balanced_accuracy"]["calibrated"] == pytest.approx(1.0)
    assert table["balanced_accuracy"]["uncalibrated"] == pytest.approx(0.5)  # all pass
    assert table["balanced_accuracy"]["difference_low"] > 0.3
    assert table["cohen_kappa"]["calibrated"] == pytest.approx(1.0)
    assert table["roc_auc"]["uncalibrated"] == pytest.approx(0.5)  # every score is 1.0
    assert validation.cutoffs == fitted
    assert all(LOW < c.supported <= HIGH for c in validation.fold_cutoffs)


def test_a_plateau_of_good_cutoffs_outranks_a_lone_peak() -> None:
    """Ten labelled cases (five faithful) and scores under eight support cut-offs: 0.3 alone
    separates them all (balanced accuracy 1.0, its neighbours 0.5), 0.6 to 0.8 each pass one
    unfaithful case (0.9). The plateau's middle, 0.7, is chosen."""
    labels = pl.DataFrame(
        {"case_id": [f"c{i}" for i in range(10)], "label": [True] * 5 + [False] * 5}
    )
    faithful, one_slip = [1.0] * 5 + [0.0] * 5, [1.0] * 6 + [0.0] * 4
    by_support = {0.2: [1.0] * 10, 0.3: faithful, 0.4: [1.0] * 10, 0.5: [1.0] * 10}
    by_support |= {0.6: one_slip, 0.7: one_slip, 0.8: one_slip, 0.9: [1.0] * 10}
    scores = pl.DataFrame(
        [
            (case_id, supported, 0.0, score)
            for supported, column in by_support.items()
            for case_id, score in zip(labels["case_id"], column, strict=True)
        ],
        schema={
            "case_id": pl.String,
            "supported": pl.Float64,
            "silent": pl.Float64,
            "score": pl.Float64,
        },
        orient="row",
    )
    fitted = fit_cutoffs(scores, labels, Cutoffs(0.3, 0.0))  # the peak is the default, even
    assert (fitted.supported, fitted.silent) == (0.7, 0.0)
    # Every threshold ties (scores are 0 or 1); averaged over more neighbours or fewer (at the
    # grid's edge), ties stay ties, and the nearest to the default wins.
    assert fitted.threshold == 0.5


def test_cross_validation_reproduces_from_its_seed() -> None:
    cases = planted_cases(40).with_columns(  # some noise, so that the figures vary
        label=pl.when(pl.col("case_id").is_in(["p000", "p003", "p010"]))
        .then(1 - pl.col("label"))
        .otherwise(pl.col("label"))
    )
    levels, labels = levels_of(cases.select(CASE_COLUMNS)), labels_of(cases)
    baseline = GroundedJudge().cutoffs
    first = cross_validate(levels, labels, baseline, seed=7, resamples=100)
    again = cross_validate(levels, labels.reverse(), baseline, seed=7, resamples=100)
    other = cross_validate(levels, labels, baseline, seed=8, resamples=100)
    assert first.table.equals(again.table)
    assert not first.table.equals(other.table)
    low, high = first.table["calibrated_low"][0], first.table["calibrated_high"][0]
    assert low <= first.table["calibrated"][0] <= high


def test_folds_split_by_case_and_hold_both_classes() -> None:
    labels = labels_of(planted_cases(40))
    folds = stratified_folds(labels, folds=5, seed=3)
    assert folds["case_id"].n_unique() == labels.height == folds.height
    per_fold = folds.group_by("fold").agg(pos=pl.col("label").sum(), n=pl.len())
    assert per_fold["n"].to_list() == [8] * 5
    assert per_fold["pos"].to_list() == [4] * 5


def test_cases_of_one_fold_group_share_a_fold_and_the_classes_stay_spread() -> None:
    """Turns of one conversation (or copies of one content) dealt by case fell in training
    and test folds alike: a fold was measured on near copies of what it was fitted on."""
    labels = labels_of(planted_cases(60)).with_columns(
        fold_group=pl.when(pl.int_range(pl.len()) < 40)
        .then(pl.lit("conversation c") + (pl.int_range(pl.len()) // 4).cast(pl.String))
        .otherwise(None)  # the last 20 cases stand alone
    )
    folds = stratified_folds(labels, folds=5, seed=3)
    assert folds.height == labels.height == folds["case_id"].n_unique()
    placed = labels.join(folds, on=["case_id", "label"])
    per_group = (
        placed.drop_nulls("fold_group").group_by("fold_group").agg(pl.col("fold").n_unique())
    )
    assert per_group["fold"].to_list() == [1] * 10
    per_fold = placed.group_by("fold").agg(pos=pl.col("label").sum(), n=pl.len())
    positives = int(labels["label"].sum())
    assert per_fold.height == 5
    assert all(abs(pos - positives / 5) <= 4 for pos in per_fold["pos"])  # a group's worth
    assert stratified_folds(labels, folds=5, seed=3).equals(folds)  # seeded


def test_groups_that_are_all_single_cases_deal_the_folds_as_before() -> None:
    labels = labels_of(planted_cases(40))
    alone = labels.with_columns(fold_group=pl.lit("content ") + pl.col("case_id"))
    assert stratified_folds(alone, folds=5, seed=3).equals(
        stratified_folds(labels, folds=5, seed=3)
    )


def test_fewer_fold_groups_than_folds_is_refused_in_one_line() -> None:
    labels = labels_of(planted_cases(40)).with_columns(
        fold_group=pl.lit("conversation c") + (pl.int_range(pl.len()) % 3).cast(pl.String)
    )
    with pytest.raises(ConfigError, match=r"make 3 groups .* fewer than --folds 5"):
        stratified_folds(labels, folds=5, seed=0)


@pytest.mark.parametrize(
    ("labels", "success", "score", "expected"),
    [
        # perfect agreement
        ([1, 1, 0, 0], [1, 1, 0, 0], [0.9, 0.8, 0.2, 0.1], (1.0, 1.0, 1.0)),
        # everything passes: chance-level accuracy, no agreement beyond chance, ties rank half
        ([1, 1, 0, 0], [1, 1, 1, 1], [1.0, 1.0, 1.0, 1.0], (0.5, 0.0, 0.5)),
        # one of four wrong: recalls 1 and 0.5, kappa (0.75 - 0.5) / 0.5, one pair of 4 misordered
        ([1, 1, 0, 0], [1, 1, 1, 0], [0.9, 0.5, 0.6, 0.1], (0.75, 0.5, 0.75)),
    ],
)
def test_the_agreement_figures(
    labels: list[int], success: list[int], score: list[float], expected: tuple[float, ...]
) -> None:
    frame = pl.DataFrame({"label": labels, "success": success, "score": score}).with_columns(
        pl.col("label", "success").cast(pl.Boolean)
    )
    figures = frame.select(agreement_exprs()).row(0)
    assert figures == pytest.approx(expected)


def test_claim_labels_choose_the_cutoffs_and_case_labels_the_threshold() -> None:
    cases = planted_cases(40)
    levels, labels = levels_of(cases.select(CASE_COLUMNS)), labels_of(cases)
    # The claims' own labels call only the answers with all 10 words of the context faithful
    # (support 0.849; 9 words: HIGH, 0.771), the case labels 9 words too.
    shares = cases.select("case_id", found=pl.int_range(pl.len()) % 4)
    claim_labels = shares.select("case_id", claim_label=pl.col("found") == 0)
    claims = levels.join(claim_labels, on="case_id")
    baseline = GroundedJudge().cutoffs
    scores = case_scores_at(levels, labels["case_id"], cutoff_grid(baseline))
    by_claims = fit_cutoffs(scores, labels, baseline, claims=claims)
    top = planted_supports()["support"].max()  # the 10-word answers'
    assert HIGH < by_claims.supported <= top
    assert LOW < fit_cutoffs(scores, labels, baseline).supported <= HIGH  # the case labels alone
    one_label = claims.with_columns(claim_label=pl.lit(True))  # cannot rank cut-offs: ignored
    assert LOW < fit_cutoffs(scores, labels, baseline, claims=one_label).supported <= HIGH
