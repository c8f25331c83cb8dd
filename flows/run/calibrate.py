"""`faith calibrate`: fit the grounded judge's weights and cut-offs to a team's labelled cases,
measure the fit under k-fold cross-validation, and store it as a named calibration.

The labelled cases are read from the database they were scored into and judged again offline
(a few times, under probe cut-offs: faith_udfs/calibration.py; once more for their claims'
features when the weights are refitted: faith_udfs/calibration_weights.py); nothing is stored
when any check fails.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from dataclasses import dataclass
from dataclasses import replace as dataclass_replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

import polars as pl

from faith_udfs import GroundedJudge, MetricConfig, score_cases
from faith_udfs.calibration import (
    CrossValidation,
    Cutoffs,
    Refit,
    Weights,
    case_scores_at,
    claim_levels,
    cross_validate,
    probe_cutoffs,
)
from faith_udfs.calibration_stats import stratified_folds
from faith_udfs.calibration_weights import (
    MIN_WEIGHED_CASES,
    MIN_WEIGHT_LABELS,
    claim_feature_rows,
    refit_weights,
    weighed_cases,
)
from faith_udfs.errors import ConfigError
from flows.read.labels import read_labels
from flows.run.calibration import check_name
from flows.store.calibrations import (
    labelled_cases,
    load_calibration,
    save_calibration,
    unscored_rows,
)
from flows.store.db import holds_no_database, open_store

__all__ = [
    "MAX_LABELS",
    "MAX_RESAMPLES",
    "MAX_SEED",
    "MIN_LABELS",
    "CalibrationResult",
    "calibrate",
    "check_name",
]

if TYPE_CHECKING:
    import duckdb

log = logging.getLogger("faithpipe")

# Fewer labels than this leave each fold's fit to a handful of cases and the intervals wide
# enough to hide any gain: refused.
MIN_LABELS = 30
# Fitting holds every case's verdicts under each candidate cut-off pair and threshold, ~1 MB a
# labelled case (3,003 labels peaked at 3.1 GB): more than this is refused, not OOM-killed.
MAX_LABELS = 5_000
DEFAULT_FOLDS = 5
DEFAULT_RESAMPLES = 1000
# 1,000,000 resamples held 6 GB for 60 labels; 10**14 failed to allocate (a Rust abort).
MAX_RESAMPLES = 100_000
# The seed is stored in `calibrations.seed` (INTEGER).
MAX_SEED = 2**31 - 1


@dataclass(frozen=True)
class CalibrationResult:
    """What `faith calibrate` fitted and stored, and how it fared under cross-validation."""

    name: str
    db: str
    validation: CrossValidation
    claims_labelled: int
    replaced: bool
    seconds: float
    # why the judge's weights were not refitted (None: they were)
    weights_kept: str | None = None
    # with the weights refitted: the same cross-validation fitting the cut-offs only
    cutoffs_only: CrossValidation | None = None


def check_labels(labels: pl.DataFrame, folds: int) -> None:
    """Refuse labels too few or too one-sided to fit and cross-validate on (exit 2)."""
    if folds < 2:
        raise ConfigError(f"--folds must be at least 2, got {folds}")
    if labels.height > MAX_LABELS:
        raise ConfigError(
            f"too many labels: {labels.height:,} labelled cases, calibration takes at most "
            f"{MAX_LABELS:,} (fitting holds ~1 MB a case): label a sample of them"
        )
    if labels.height < MIN_LABELS:
        raise ConfigError(
            f"too few labels: {labels.height} labelled cases, calibration needs at least "
            f"{MIN_LABELS}"
        )
    positives = int(labels["label"].sum())
    negatives = labels.height - positives
    if not positives or not negatives:
        only = "1 (faithful)" if positives else "0 (not faithful)"
        raise ConfigError(
            f"one class only: all {labels.height} labels are {only}; calibration needs cases "
            "labelled 1 and cases labelled 0"
        )
    if min(positives, negatives) < folds:
        raise ConfigError(
            f"too few labels of one class: {positives} labelled 1 and {negatives} labelled 0, "
            f"{folds}-fold cross-validation needs at least {folds} of each"
        )


def calibrate(
    labels_path: Path | str,
    db: Path | str,
    name: str,
    *,
    folds: int = DEFAULT_FOLDS,
    seed: int = 0,
    resamples: int = DEFAULT_RESAMPLES,
    penalize_ambiguous_claims: bool = False,
    replace: bool = False,
    lock_timeout: float = 0.0,
    cutoffs_only: bool = False,
) -> CalibrationResult:
    """Fit, cross-validate and store the calibration `name` from the labels at `labels_path`
    of cases scored in `db`; refused (exit 2, nothing stored) on too few labels, one class,
    ids not scored in `db`, labels from fewer conversations than `folds` (before the cases
    are judged again), or a name in use without `replace`. The judge's weights are
    refitted with the cut-offs from MIN_WEIGHT_LABELS labels on, unless `cutoffs_only`."""
    started = time.perf_counter()
    check_name(name)
    labels = read_labels(labels_path)
    check_labels(labels, folds)
    # The database is held to read the labelled cases and to store the fit, not while fitting
    # (minutes for thousands of labels): runs and readers waited for it all along, or failed.
    con = _open(db, lock_timeout)
    try:
        _name_in_use(con, name, db, replace)
        cases = labelled_cases(con, labels["case_id"].to_list())
        _require_all_scored(labels, cases, db, con)
    finally:
        con.close()
    cases = _warn_partial_contexts(cases)
    grouped = labels.join(cases.select("case_id", "fold_group"), on="case_id", how="left")
    stratified_folds(grouped, folds=folds, seed=seed)  # too few groups: refused before judging
    config = MetricConfig(penalize_ambiguous_claims=penalize_ambiguous_claims)
    baseline = GroundedJudge().cutoffs
    log.info("calibrate: judging %d labelled cases again", cases.height)
    levels = _with_claim_labels(claim_levels(_probes(cases, config, baseline)), labels)
    refit, weights_kept = _weights_refit(cases, labels, config, baseline, cutoffs_only)

    def validated(way: Refit | None) -> CrossValidation:
        return cross_validate(
            levels,
            grouped,
            baseline,
            folds=folds,
            seed=seed,
            resamples=resamples,
            penalize_ambiguous_claims=penalize_ambiguous_claims,
            refit=way,
        )

    validation = validated(refit)
    # with the weights refitted, the cut-offs alone on the same folds too: which of the two
    # agrees better with these labels is the team's to read
    alone = validated(None) if refit else None
    fitted_levels = levels if validation.levels is None else validation.levels
    _check_replay(cases, fitted_levels, validation.cutoffs, config)
    row = _row(name, labels, validation, penalize_ambiguous_claims, alone)
    claims_labelled = _claims_labelled(levels)
    con = _open(db, lock_timeout)
    try:
        replaced = _name_in_use(con, name, db, replace)  # another calibrate may have stored it
        save_calibration(con, {**row, "claims_labelled": claims_labelled})
    finally:
        con.close()
    return CalibrationResult(
        name=name,
        db=str(db),
        validation=validation,
        claims_labelled=claims_labelled,
        replaced=replaced,
        seconds=time.perf_counter() - started,
        weights_kept=weights_kept,
        cutoffs_only=alone,
    )


def _open(db: Path | str, lock_timeout: float) -> duckdb.DuckDBPyConnection:
    """The database the labelled cases were scored into (none: exit 2; none is made here)."""
    if holds_no_database(db):
        raise ConfigError(f"{db}: no such database; score the labelled cases into it first")
    return open_store(db, lock_timeout=lock_timeout)


def _name_in_use(con: duckdb.DuckDBPyConnection, name: str, db: Path | str, replace: bool) -> bool:
    """Whether a calibration `name` is stored (to be replaced); refused without `replace`."""
    stored = load_calibration(con, name) is not None
    if stored and not replace:
        raise ConfigError(
            f"a calibration named {name!r} is stored in {db}; pass --replace to fit it again"
        )
    return stored


def _weights_refit(
    cases: pl.DataFrame,
    labels: pl.DataFrame,
    config: MetricConfig,
    baseline: Cutoffs,
    cutoffs_only: bool,
) -> tuple[Refit | None, str | None]:
    """How the judge's weights are refitted, or None and why they stay the rules version's.
    The claims' features (one more judge pass) only when the label count allows a refit."""
    if cutoffs_only:
        return None, "--cutoffs-only"
    if labels.height < MIN_WEIGHT_LABELS:
        return None, f"fewer than {MIN_WEIGHT_LABELS} labelled cases"
    features = claim_feature_rows(cases, config)
    weighed = weighed_cases(features, labels)
    if min(weighed.values()) < MIN_WEIGHED_CASES:
        return None, (
            f"{weighed[True]} cases labelled 1 and {weighed[False]} labelled 0 have a claim "
            f"the weights weigh, fewer than {MIN_WEIGHED_CASES} of each"
        )
    return _refit(cases, labels, features, config, baseline), None


def _refit(
    cases: pl.DataFrame,
    labels: pl.DataFrame,
    features: pl.DataFrame,
    config: MetricConfig,
    baseline: Cutoffs,
) -> Refit:
    """Given training labels, the judge's weights refitted on them (on the labelled claims'
    `features`, which do not depend on the weights) and every labelled claim's levels under
    those weights."""
    fits = [0]

    def refit(train: pl.DataFrame) -> tuple[Weights, pl.DataFrame]:
        started = time.perf_counter()
        weights = refit_weights(features, train)
        probes = _probes(cases, config, dataclass_replace(baseline, weights=weights))
        fits[0] += 1
        # k folds, then all the labels: the one long step of a big labels file
        log.info(
            "calibrate: weights refitted on %d labels, %d cases judged again (fit %d, %.1f s)",
            train.height,
            cases.height,
            fits[0],
            time.perf_counter() - started,
        )
        return weights, _with_claim_labels(claim_levels(probes), labels)

    return refit


def _require_all_scored(
    labels: pl.DataFrame, cases: pl.DataFrame, db: Path | str, con: duckdb.DuckDBPyConnection
) -> None:
    """Every labelled id must be a case scored in the database: its content is read there.
    Ids the database holds as invalid, pending or quarantined are counted in the refusal: a
    run did read those, and "score them first" alone would send the team to score them again."""
    missing = labels.join(cases, on="case_id", how="anti")["case_id"].sort()
    if missing.len():
        held = unscored_rows(con, missing.to_list())
        kinds = ", ".join(f"{n} {kind}" for kind, n in held.items() if n)
        why = "case_scores.error and the quarantine table say why"
        stored = f"; of them, {kinds} ({why})" if kinds else ""
        shown = ", ".join(repr(case_id) for case_id in missing.head(3).to_list())
        floats = missing.str.contains(r"^-?\d+\.0$").all()
        hint = (
            "; ids such as '1.0' are whole numbers written as floats (pandas does so once a "
            "column held a gap): write case_id as text or integers"
            if floats
            else ""
        )
        raise ConfigError(
            f"{missing.len()} of {labels.height} labelled case ids are not scored in {db} "
            f"(e.g. {shown}): score them first, or leave them out of the labels{stored}{hint}"
        )


def _warn_partial_contexts(cases: pl.DataFrame) -> pl.DataFrame:
    """The cases without `whole_passages`, after one warning when some of their contexts are
    not their passages whole (only an LLM judge's truths, or a truths limit's first
    sentences): cut-offs fitted on those would be applied to whole passages at score time."""
    partial = cases.filter(~pl.col("whole_passages"))["case_id"].sort()
    if partial.len():
        log.warning(
            "calibrate: %d of %d labelled cases were scored only by an LLM judge or with "
            "--truths-extraction-limit (e.g. %s): their context is those truths, not their "
            "passages whole as `--calibration` reads them; score them with the default judge "
            "first for figures that hold at score time",
            partial.len(),
            cases.height,
            ", ".join(repr(case_id) for case_id in partial.head(3).to_list()),
        )
    return cases.drop("whole_passages")


def _with_claim_labels(levels: pl.DataFrame, labels: pl.DataFrame) -> pl.DataFrame:
    """The levels with each claim's `claim_label` where the labels give one; a case whose
    claim labels do not number its claims (as the grounded judge splits them) is refused."""
    given = labels.filter(pl.col("claim_labels").is_not_null())
    if given.is_empty():
        return levels
    found = levels.group_by("case_id").agg(claims=pl.len())
    counts = (
        given.select("case_id", labelled=pl.col("claim_labels").list.len())
        .join(found, on="case_id", how="left")
        .with_columns(pl.col("claims").fill_null(0))
        .filter(pl.col("labelled") != pl.col("claims"))
        .sort("case_id")
    )
    if counts.height:
        case_id, labelled, claims = counts.row(0)
        raise ConfigError(
            f"claim_labels of {counts.height} cases do not number their claims (e.g. "
            f"{case_id}: {labelled} labels, {claims} claims as the grounded judge splits the "
            "answer; the claim_verdicts of a default `faith score` list them in order)"
        )
    per_claim = given.select(
        "case_id",
        claim_label="claim_labels",
        claim_index=pl.int_ranges(pl.col("claim_labels").list.len(), dtype=pl.Int32),
    ).explode("claim_label", "claim_index")
    return levels.join(per_claim, on=["case_id", "claim_index"], how="left", maintain_order="left")


def _claims_labelled(levels: pl.DataFrame) -> int:
    """How many claims carry a label of their own, 0 when those labels are all of one kind:
    then they cannot rank cut-offs, and the case labels chose them (fit_cutoffs)."""
    if "claim_label" not in levels.columns:
        return 0
    given = levels["claim_label"].drop_nulls()
    if given.n_unique() < 2:
        if given.len():
            log.warning(
                "calibrate: the %d claim labels are all %d, so the case labels chose the cut-offs",
                given.len(),
                int(given[0]),
            )
        return 0
    return given.len()


def _probes(
    cases: pl.DataFrame, config: MetricConfig, baseline: Cutoffs
) -> list[tuple[Cutoffs, pl.DataFrame]]:
    """The labelled cases' claim verdicts under each probe cut-off (with `baseline`'s
    weights); a case that cannot be judged again (its stored context holds no truth) is
    refused: it would score 1.0 unseen."""
    probes = []
    for cutoffs in probe_cutoffs(baseline):
        probe = dataclass_replace(cutoffs, weights=baseline.weights)
        frames = score_cases(cases, GroundedJudge(probe), config)
        unjudged = frames.case_scores.filter(pl.col("status") != "scored")["case_id"].sort()
        if unjudged.len():
            raise ConfigError(
                f"{unjudged.len()} labelled cases cannot be judged from what the database holds "
                f"(e.g. {', '.join(unjudged.head(3).to_list())}: no stored truths); leave them "
                "out of the labels"
            )
        probes.append((cutoffs, frames.claim_verdicts))
    return probes


def _check_replay(
    cases: pl.DataFrame, levels: pl.DataFrame, cutoffs: Cutoffs, config: MetricConfig
) -> None:
    """The judge itself, under the fitted cut-offs, must score as fitting assumed it would."""
    judged = score_cases(cases, GroundedJudge(cutoffs), config).case_scores.select(
        "case_id", "score"
    )
    grid = pl.DataFrame({"supported": [cutoffs.supported], "silent": [cutoffs.silent]})
    assumed = case_scores_at(
        levels,
        cases["case_id"],
        grid,
        penalize_ambiguous_claims=config.penalize_ambiguous_claims,
    )
    both = judged.join(assumed, on="case_id", suffix="_assumed")
    gap = (both["score"] - both["score_assumed"]).abs().max()
    if both.height != judged.height or (gap is not None and float(gap) > 1e-12):  # type: ignore[arg-type]
        raise RuntimeError(
            "the grounded judge's verdicts do not follow its cut-offs as calibration assumes "
            "(faith_udfs/calibration.py): a bug"
        )


def _row(
    name: str,
    labels: pl.DataFrame,
    validation: CrossValidation,
    penalize: bool,
    cutoffs_only: CrossValidation | None,
) -> dict[str, object]:
    """The `calibrations` row of a fitted calibration."""
    given = labels.sort("case_id").select("case_id", "label", "claim_labels").rows()
    digest = hashlib.md5(json.dumps(given).encode(), usedforsecurity=False).hexdigest()
    agreement = {
        "table": validation.table.to_dicts(),
        "fold_cutoffs": [c.as_dict() for c in validation.fold_cutoffs],
        "fold_weights": [dict(c.weights) if c.weights else None for c in validation.fold_cutoffs],
        "baseline": validation.baseline.as_dict(),
        "resamples": validation.resamples,
        "cutoffs_only_table": None if cutoffs_only is None else cutoffs_only.table.to_dicts(),
    }
    weights = validation.cutoffs.weights
    return {
        "name": name,
        "judge_kind": GroundedJudge.kind,
        "judge_model": GroundedJudge.rules_version,
        **validation.cutoffs.as_dict(),
        "weights": None if weights is None else json.dumps(dict(weights)),
        "penalize_ambiguous_claims": penalize,
        "labels": validation.cases,
        "positives": validation.positives,
        "folds": validation.folds,
        "seed": validation.seed,
        "labels_hash": digest,
        "agreement": json.dumps(agreement, sort_keys=True),
        "created_at": datetime.now(UTC).replace(tzinfo=None),
    }
