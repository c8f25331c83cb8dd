"""Fit the grounded judge v2's numbers (faith_udfs/grounded.py: WEIGHTS, DEFAULT_CUTOFFS) on
the five dev sets of ../shared/devsets, and print them to paste into the code.

    python bench/fit_grounded.py [--devsets DIR] [--folds 5] [--write]

How: every claim's features come from the judge itself (the batch path's own questions). A
case is faithful when all its claims are, so each case stands for its weakest claim (by the
current fit; three rounds from `cov_best`), labelled with the case's label. A logistic
regression (L2, Newton steps) is fitted on those, every set weighing the same and both classes
of a set weighing the same. The yes cut-off is then the one that maximises the mean over sets
of the balanced accuracy of `success` (share of non-`no` claims >= 0.5). Cross-validation
folds are drawn by document (SummEdits has 8 summaries of each), and the held-out folds'
figures are printed per set, then those of each set held out in turn (fitted on the other
four), with the fit on all rows last.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import numpy as np
import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from devsets import DEVSETS, SETS, balanced_accuracy, load_devset, roc_auc

from faith_udfs import MetricConfig
from faith_udfs.calibration_weights import (
    RecordingJudge,
    claim_feature_rows,
    feature_matrix,
    fit_weights,
)
from faith_udfs.grounded import DEFAULT_CUTOFFS
from faith_udfs.grounded_support import CONTRADICTED_FACTOR, GROUNDED_ANSWER, feature_columns
from faith_udfs.grounded_v2 import V2_WEIGHTS

JUDGE_CODE = Path(__file__).resolve().parents[1] / "faith_udfs" / "grounded.py"
NAMES = ("intercept", *feature_columns())
# grounded-v2's features: the same less what v3 added (cov_second)
V2_NAMES = tuple(name for name in NAMES if name in V2_WEIGHTS)
PASS_GAP = 0.15
SILENT = DEFAULT_CUTOFFS.silent  # not fitted: just above 0 (see faith_udfs/grounded.py)
CUTS = np.round(np.arange(0.05, 0.951, 0.01), 2)


# The judge that keeps the questions it was asked; a trial subclasses it with other claims.
_Recording = RecordingJudge


def claim_rows(
    root: Path,
    judge_class: type[RecordingJudge] = RecordingJudge,
    keep: tuple[str, ...] = (),
) -> pl.DataFrame:
    """One row per claim of every case of every present set: `set`, `case_id`, `faithful`,
    `document`, the model's features; a case without claims has none. `judge_class`: a
    trial's judge (its claims), else the shipped one's; `keep`: more columns of the claim rows
    (claim_feature_rows: `claim`, `evidence`, ...) or of the set's cases (`sentences`)."""
    frames = []
    for name in SETS:
        cases = load_devset(name, root)
        if cases is None:
            print(f"dev set {name} absent under {root}: left out")
            continue
        features = claim_feature_rows(cases, MetricConfig(), judge_class())
        from_cases = [c for c in keep if c not in features.columns]
        frames.append(
            features.join(
                cases.select("case_id", "faithful", "document", *from_cases), on="case_id"
            )
            .select(
                "case_id",
                "faithful",
                "document",
                "verbatim",
                "has_words",
                "answer_found",
                "contradicted",
                *NAMES[1:],
                *keep,
            )
            .with_columns(set=pl.lit(name))
        )
    return pl.concat(frames)


def _matrix(rows: pl.DataFrame, names: tuple[str, ...] = NAMES) -> np.ndarray:
    """The intercept's column of ones and the features `names[1:]`, as floats."""
    return feature_matrix(rows, names)


def _support(rows: pl.DataFrame, beta: np.ndarray, names: tuple[str, ...] = NAMES) -> np.ndarray:
    """As support_expr: 1 for a verbatim truth, 0 with no claim word in the context."""
    z = _matrix(rows, names) @ beta
    silent = (rows["cov_all"].to_numpy() <= 0.0) & (
        rows["answer_found"].to_numpy() >= GROUNDED_ANSWER
    )
    factor = np.where(rows["contradicted"].to_numpy(), CONTRADICTED_FACTOR, 1.0)
    fitted = np.where(silent, 0.0, factor / (1.0 + np.exp(-z)))
    return np.where(rows["verbatim"].to_numpy(), 1.0, fitted)


def fit(rows: pl.DataFrame, names: tuple[str, ...] = NAMES) -> np.ndarray:
    """The weights of `names`, from each case's weakest claim (three rounds): the fit `faith
    calibrate` runs on a team's labels (faith_udfs/calibration_weights.py), here on the dev
    sets, every set weighing the same."""
    return fit_weights(rows, names)


def case_success(rows: pl.DataFrame, support: np.ndarray, cut: float) -> pl.DataFrame:
    """Per case: `score` (share of non-`no` claims: `idk` below SILENT or without a content
    word, `yes` from `cut`) and `success` at threshold 0.5."""
    no = pl.col("has_words") & (pl.col("support") >= SILENT) & (pl.col("support") < cut)
    return (
        rows.with_columns(support=pl.Series(support))
        .group_by("set", "case_id")
        .agg(pl.col("faithful").first(), score=1.0 - no.mean())
        .with_columns(success=pl.col("score") >= 0.5)
    )


def best_cut(rows: pl.DataFrame, support: np.ndarray) -> float:
    """The yes cut-off that maximises the mean over sets of balanced accuracy, among those
    whose pass rate is within PASS_GAP of the faithful share on all sets but one (any cut-off
    if none is)."""
    found: list[tuple[bool, float, float]] = []
    for cut in CUTS:
        per_set = figures(case_success(rows, support, float(cut)), rounded=False)
        close = ((per_set["pass_rate"] - per_set["faithful"]).abs() <= PASS_GAP).sum()
        found.append((close >= per_set.height - 1, float(per_set["bal_acc"].mean()), float(cut)))
    return max(found, key=lambda item: (item[0], item[1], -item[2]))[2]


def figures(cases: pl.DataFrame, *, rounded: bool = True) -> pl.DataFrame:
    """Per set: balanced accuracy of `success`, ROC AUC of `score`, pass rate, true share."""
    per_set = (
        cases.group_by("set")
        .agg(
            bal_acc=balanced_accuracy(pl.col("faithful"), pl.col("success")),
            auc=roc_auc(pl.col("faithful"), pl.col("score")),
            pass_rate=pl.col("success").mean(),
            faithful=pl.col("faithful").mean(),
        )
        .sort("set")
    )
    return per_set.with_columns(pl.selectors.float().round(3)) if rounded else per_set


def held_out(
    rows: pl.DataFrame,
    names: tuple[str, ...] = NAMES,
    *,
    folds: int = 5,
    by_set: bool = False,
    unfitted: tuple[str, ...] = (),
) -> pl.DataFrame:
    """Per case, `success` and `score` from weights and a cut-off fitted without its fold:
    folds drawn by document (SummEdits has 8 summaries of each), or with `by_set` each set
    held out in turn (fitted on the other sets: how the rules carry to a new shape). The sets
    named in `unfitted` are scored but never fitted on (a trial)."""
    fold = pl.col("set") if by_set else (pl.col("document") % folds).cast(pl.Int32)
    rows = rows.with_columns(fold=fold)
    cases = []
    for k in rows["fold"].unique(maintain_order=True):
        train, test = rows.filter(pl.col("fold") != k), rows.filter(pl.col("fold") == k)
        train = train.filter(~pl.col("set").is_in(unfitted))
        beta = fit(train, names)
        cut = best_cut(train, _support(train, beta, names))
        cases.append(case_success(test, _support(test, beta, names), cut))
    return pl.concat(cases)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devsets", type=Path, default=DEVSETS)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--write", action="store_true", help="write the numbers into the code")
    args = parser.parse_args()
    if not any((args.devsets / f"{name}_dev.parquet").exists() for name in SETS):
        print(f"no dev set under {args.devsets}: nothing to fit")
        return 0
    rows = claim_rows(args.devsets)
    print(f"held-out folds ({args.folds}, by document):")
    print(figures(held_out(rows, folds=args.folds)))
    if rows["set"].n_unique() > 1:
        print("each set held out (fitted on the other sets: a shape the fit never saw):")
        print(figures(held_out(rows, by_set=True)))
    beta = fit(rows)
    cut = best_cut(rows, _support(rows, beta))
    print("fit on all rows:")
    print(figures(case_success(rows, _support(rows, beta), cut)))
    block = "\n".join(
        [
            "WEIGHTS: dict[str, float] = {",
            *(f'    "{name}": {value:.4f},' for name, value in zip(NAMES, beta, strict=True)),
            "}",
        ]
    )
    cutoffs = f"DEFAULT_CUTOFFS = Cutoffs(supported={cut:.2f}, silent={SILENT})"
    print(f"\n{block}\n{cutoffs}")
    if args.write:
        code = JUDGE_CODE.read_text()
        code = re.sub(
            r"^WEIGHTS: dict\[str, float\] = \{.*?\n\}", lambda _: block, code, flags=re.S | re.M
        )
        code = re.sub(r"^DEFAULT_CUTOFFS = Cutoffs\(.*?\)", lambda _: cutoffs, code, flags=re.M)
        JUDGE_CODE.write_text(code)
        print(f"written into {JUDGE_CODE} (a new GROUNDED_RULES_VERSION is a new series)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
