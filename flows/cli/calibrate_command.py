"""`faith calibrate LABELS --db DB [--name NAME]`: fit the grounded judge to a team's labels."""

from __future__ import annotations

import argparse
from dataclasses import replace as dataclass_replace
from typing import TYPE_CHECKING

from flows.cli.options import EXIT_OK, add_db_argument, add_lock_timeout_argument

if TYPE_CHECKING:
    from flows.run.calibrate import CalibrationResult

_NAMES = {
    "balanced_accuracy": "balanced accuracy",
    "cohen_kappa": "Cohen's kappa",
    "roc_auc": "ROC AUC of score",
}


def add_calibrate_command(commands: argparse._SubParsersAction) -> None:
    """Add `faith calibrate` to the CLI's subcommands."""
    from faith_udfs.calibration_weights import MIN_WEIGHT_LABELS
    from flows.run.calibrate import DEFAULT_FOLDS, DEFAULT_RESAMPLES, MAX_SEED, MIN_LABELS

    calibrate = commands.add_parser(
        "calibrate",
        help="fit the grounded judge's weights, cut-offs and threshold to your labelled cases",
        description="Read LABELS (Parquet or CSV: case_id, label 1/0; at least "
        f"{MIN_LABELS} cases of both labels, each scored in --db), judge those cases again "
        "offline, refit the judge's feature weights (from "
        f"{MIN_WEIGHT_LABELS} labels on) and the support and silent cut-offs and the case "
        "threshold that agree best with the labels (balanced accuracy), print their "
        "cross-validated agreement against the uncalibrated judge, and store them as "
        "calibration NAME for `faith score --calibration NAME`. An unreadable labels file "
        "or a label other than 1/0: exit 3; too few labels, one class only, or ids not "
        "scored in --db: exit 2; nothing is stored either way.",
    )
    calibrate.add_argument("labels", metavar="LABELS", help="Parquet or CSV file of labels")
    add_db_argument(calibrate)
    calibrate.add_argument(
        "--name",
        help="the calibration's name, for --calibration NAME (default: the labels file's name "
        "without its extension, e.g. support-team for support-team.csv)",
    )
    calibrate.add_argument(
        "--folds",
        type=int,
        default=DEFAULT_FOLDS,
        help=f"k of the k-fold cross-validation, split by case (default {DEFAULT_FOLDS})",
    )
    calibrate.add_argument(
        "--seed",
        type=int,
        default=0,
        help=f"seed of the folds and the bootstrap, 0 to {MAX_SEED:,} (default 0)",
    )
    calibrate.add_argument(
        "--resamples",
        type=int,
        default=DEFAULT_RESAMPLES,
        metavar="N",
        help=f"bootstrap resamples of the 95%% intervals (default {DEFAULT_RESAMPLES})",
    )
    calibrate.add_argument(
        "--penalize-ambiguous-claims",
        action="store_true",
        help="fit the threshold on the score that counts idk claims as unfaithful (then "
        "score with --penalize-ambiguous-claims too)",
    )
    calibrate.add_argument(
        "--cutoffs-only",
        action="store_true",
        help="keep the judge's own feature weights; fit only the cut-offs and threshold",
    )
    calibrate.add_argument(
        "--replace", action="store_true", help="fit again a calibration NAME already stored"
    )
    add_lock_timeout_argument(
        calibrate, help="wait this long for a run holding the database (default 0)"
    )
    calibrate.add_argument("-v", "--verbose", action="store_true", help="debug log lines")
    calibrate.set_defaults(command=calibrate_command)


def calibrate_command(args: argparse.Namespace) -> int:
    from faith_udfs.errors import ConfigError
    from flows.read.labels import labels_name
    from flows.run.calibrate import MAX_RESAMPLES, MAX_SEED, calibrate

    if not 1 <= args.resamples <= MAX_RESAMPLES:
        raise ConfigError(f"--resamples must be 1 to {MAX_RESAMPLES:,}, got {args.resamples}")
    if not 0 <= args.seed <= MAX_SEED:
        raise ConfigError(f"--seed must be 0 to {MAX_SEED:,}, got {args.seed}")
    result = calibrate(
        args.labels,
        args.db,
        args.name if args.name is not None else labels_name(args.labels),
        folds=args.folds,
        seed=args.seed,
        resamples=args.resamples,
        penalize_ambiguous_claims=args.penalize_ambiguous_claims,
        replace=args.replace,
        lock_timeout=args.lock_timeout,
        cutoffs_only=args.cutoffs_only,
    )
    for line in report_lines(result):
        print(line)
    return EXIT_OK


def report_lines(result: CalibrationResult) -> list[str]:
    """The calibration and its cross-validated agreement table, as terminal lines."""
    v = result.validation
    c, b = v.cutoffs, v.baseline
    lines = [
        f"calibration {result.name!r} {'replaced' if result.replaced else 'stored'} in "
        f"{result.db}: support cut-off {c.supported:g} (default {b.supported:g}), silent "
        f"cut-off {c.silent:g} (default {b.silent:g}), threshold {c.threshold:g} "
        f"(default {b.threshold:g})",
        _weights_line(result),
        *_default_series_line(result),
        f"{v.folds}-fold cross-validation on {v.cases} labelled cases ({v.positives} "
        f"labelled 1{_claims(result)}), seed {v.seed}; 95% intervals from {v.resamples} "
        "bootstrap resamples",
        f"{'':<18} {'calibrated':>22} {'uncalibrated':>22} {'difference':>24}",
    ]
    for row in v.table.iter_rows(named=True):
        cells = [_cell(row, name) for name in ("calibrated", "uncalibrated", "difference")]
        lines.append(f"{_NAMES[row['metric']]:<18} {cells[0]:>22} {cells[1]:>22} {cells[2]:>24}")
    accuracy = next(r for r in v.table.iter_rows(named=True) if r["metric"] == "balanced_accuracy")
    if result.cutoffs_only is not None:
        table = result.cutoffs_only.table
        alone = next(r for r in table.iter_rows(named=True) if r["metric"] == "balanced_accuracy")
        lines.append(
            f"{'cut-offs only':<18} {_cell(alone, 'calibrated'):>22}   (the same folds, the "
            "judge's own weights: --cutoffs-only)"
        )
    return [*lines, reading(accuracy, v.resamples)]


# Fewer bootstrap resamples than this give intervals too rough to read a verdict from (with 1
# or 3 the "interval" need not even hold its own estimate).
MIN_RESAMPLES_READ = 100


def reading(accuracy: dict[str, object], resamples: int = MIN_RESAMPLES_READ) -> str:
    """What the balanced accuracy's difference interval says, in one line: a calibration whose
    gain cross-validation cannot tell from nothing is one sample of the labels' luck."""
    if resamples < MIN_RESAMPLES_READ:
        return (
            f"cross-validation: {resamples} bootstrap resamples are too few to read the "
            f"intervals (--resamples {MIN_RESAMPLES_READ} or more)"
        )
    low, high = accuracy["difference_low"], accuracy["difference_high"]
    if not isinstance(low, float) or not isinstance(high, float):
        return "cross-validation could not compare the calibration with the default judge"
    if low > 0:
        return (
            "cross-validation: the calibration agrees with the labels better than the default "
            "judge (the balanced accuracy's interval lies above 0)"
        )
    if high < 0:
        return (
            "cross-validation: the calibration agrees with the labels worse than the default "
            "judge (the interval lies below 0): score without --calibration, or label more cases"
        )
    return (
        "cross-validation cannot tell the calibration from the default judge (the interval "
        "holds 0): label more cases before relying on it"
    )


def _default_series_line(result: CalibrationResult) -> list[str]:
    """A line when the fit kept the rules version's own cut-offs and weights: the judge's
    identity holds its numbers, so `--calibration` then scores the default judge's series
    (at the fitted threshold), not one of its own."""
    c, b = result.validation.cutoffs, result.validation.baseline
    if dataclass_replace(c, threshold=b.threshold).judge_options() != b.judge_options():
        return []
    if c.threshold == b.threshold:
        at = f"(threshold {c.threshold:g})"
    else:
        at = f"at threshold {c.threshold:g} (as --threshold {c.threshold:g} scores it)"
    return [
        f"calibration {result.name!r} keeps the judge's own cut-offs and weights: --calibration "
        f"{result.name} scores the default judge's config series {at}, not one of its own"
    ]


def _weights_line(result: CalibrationResult) -> str:
    """Whether the judge's weights were refitted (and refitted on the same folds)."""
    weights = result.validation.cutoffs.weights
    if weights is None:
        return f"judge weights: the rules version's own ({result.weights_kept})"
    shown = ", ".join(f"{name} {value:+.2f}" for name, value in weights)
    return f"judge weights refitted on the labels, on each fold too: {shown}"


def _claims(result: CalibrationResult) -> str:
    """`, cut-offs fitted on 60 claim labels` when the labels had any."""
    n = result.claims_labelled
    return f", cut-offs fitted on {n} claim labels" if n else ""


def _cell(row: dict[str, object], name: str) -> str:
    """`0.705 [0.648, 0.761]` (signed for a difference)."""
    value, low, high = row[name], row[f"{name}_low"], row[f"{name}_high"]
    if value is None:
        return "n/a"
    sign = "+" if name == "difference" else ""
    interval = "" if low is None else f" [{low:{sign}.3f}, {high:{sign}.3f}]"
    return f"{value:{sign}.3f}{interval}"
