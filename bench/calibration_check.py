"""Bench (not a test): what `faith calibrate` buys on sets it was not tuned on. For each
development set: score every case, calibrate on a seeded sample of LABELS cases (as it runs by
default, refitting the judge's weights, and with `--cutoffs-only`), score again with each
`--calibration`, and compare balanced accuracy on the cases calibration never saw.

    python bench/calibration_check.py [--labels 200] [--seed 20] [--samples 1] [--devsets DIR]

With `--samples N`, N samples are drawn (seeds SEED .. SEED+N-1) and each set's mean held-out
figures are printed, with how often calibrating did worse than the default judge.

Runs the same code as `faith score` and `faith calibrate` (in a temporary folder). Absent dev
sets: says so and exits 0.
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import sys
import tempfile
import time
from pathlib import Path

import duckdb
import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from common import table

from faith_udfs.calibration_stats import balanced_accuracy_expr
from flows.judges.settings import JudgeSettings
from flows.run.calibrate import calibrate
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings

# Read in place, never copied into the project (several sources state no licence).
DEVSETS = Path(__file__).resolve().parents[2] / "shared" / "devsets"
SETS = ("salad", "wice", "begin", "qags", "summedits")
CASE_COLUMNS = ["case_id", "input", "actual_output", "retrieval_context", "logged_at"]


def check_set(path: Path, folder: Path, labels: int, seeds: list[int]) -> list[dict[str, object]]:
    """One set, once per seed: held-out balanced accuracy of the default judge and of the one
    calibrated on that seed's sample of `labels` cases (the default is scored once)."""
    frame = pl.read_parquet(path).with_columns(logged_at=pl.lit(dt.datetime(2026, 1, 1)))
    source, db = folder / f"{path.stem}.parquet", folder / f"{path.stem}.duckdb"
    frame.select(CASE_COLUMNS).write_parquet(source)
    default = run_score(ScoreSettings(source=str(source), db=str(db)))
    rows = []
    for seed in seeds:
        started = time.perf_counter()
        shuffled = frame.select("case_id", "label").sample(fraction=1.0, shuffle=True, seed=seed)
        train, rest = shuffled.head(labels), shuffled.tail(shuffled.height - labels)
        name = f"{path.stem}-{seed}"
        train.write_csv(folder / f"{name}_labels.csv")
        fitted = calibrate(folder / f"{name}_labels.csv", db, name)
        calibrate(folder / f"{name}_labels.csv", db, f"{name}-cut", cutoffs_only=True)
        judge = JudgeSettings(calibration=name)
        calibrated = run_score(ScoreSettings(source=str(source), db=str(db), judge=judge))
        judge = JudgeSettings(calibration=f"{name}-cut")
        cut_only = run_score(ScoreSettings(source=str(source), db=str(db), judge=judge))
        ba = held_out_balanced_accuracy(db, rest)
        cv = fitted.validation.table.row(0, named=True)  # balanced accuracy
        cutoffs = fitted.validation.cutoffs
        rows.append(
            {
                "set": path.stem.removesuffix("_dev"),
                "seed": seed,
                "held out": rest.height,
                "cut-offs": f"{cutoffs.supported:g} / {cutoffs.silent:g} / {cutoffs.threshold:g}",
                "CV calibrated": cv["calibrated"],
                "CV default": cv["uncalibrated"],
                "held-out default": ba[default["config_id"]],
                "held-out cut-offs only": ba[cut_only["config_id"]],
                "held-out calibrated": ba[calibrated["config_id"]],
                "seconds": time.perf_counter() - started,
            }
        )
    return rows


def held_out_balanced_accuracy(db: Path, rest: pl.DataFrame) -> dict[str, float]:
    """Balanced accuracy of each config series on the cases calibration never saw."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        scores = con.sql("SELECT config_id, case_id, success FROM case_scores").pl()
    finally:
        con.close()
    held_out = (
        scores.join(rest.with_columns(pl.col("label") == 1), on="case_id")
        .group_by("config_id")
        .agg(balanced_accuracy_expr(pl.col("label"), pl.col("success")).alias("ba"))
    )
    return dict(held_out.rows())


def one_sample_row(row: dict[str, object]) -> dict[str, object]:
    """A sample's row as printed: figures to three decimals."""
    shown = {k: v for k, v in row.items() if k != "seed"}
    figures = ("CV default", "held-out default", "held-out cut-offs only", "held-out calibrated")
    for key in ("CV calibrated", *figures):
        shown[key] = f"{row[key]:.3f}"
    shown["seconds"] = f"{row['seconds']:.0f}"
    return shown


def summary_row(rows: list[dict[str, object]]) -> dict[str, object]:
    """One set over its samples: the mean held-out figures (calibrated with their standard
    deviations), in how many samples calibrating did worse than the default, and in how many
    refitting the weights did worse than fitting the cut-offs only."""
    default = [float(r["held-out default"]) for r in rows]  # type: ignore[arg-type]
    cut_only = [float(r["held-out cut-offs only"]) for r in rows]  # type: ignore[arg-type]
    calibrated = [float(r["held-out calibrated"]) for r in rows]  # type: ignore[arg-type]
    worse = sum(c < d - 1e-9 for c, d in zip(calibrated, default, strict=True))
    worse_than_cut = sum(c < d - 1e-9 for c, d in zip(calibrated, cut_only, strict=True))
    return {
        "set": rows[0]["set"],
        "samples": len(rows),
        "held-out default": f"{statistics.mean(default):.3f}",
        "held-out cut-offs only": (
            f"{statistics.mean(cut_only):.3f} ± {statistics.pstdev(cut_only):.3f}"
        ),
        "held-out calibrated": (
            f"{statistics.mean(calibrated):.3f} ± {statistics.pstdev(calibrated):.3f}"
        ),
        "worse than default": f"{worse} of {len(rows)}",
        "worse than cut-offs only": f"{worse_than_cut} of {len(rows)}",
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labels", type=int, default=200, help="labelled cases (200)")
    parser.add_argument("--seed", type=int, default=20, help="seed of the labelled sample (20)")
    parser.add_argument("--samples", type=int, default=1, help="labelled samples a set (1)")
    parser.add_argument("--devsets", type=Path, default=DEVSETS, help="folder of the dev sets")
    args = parser.parse_args()
    if args.samples < 1:
        parser.error("--samples must be at least 1")
    paths = [args.devsets / f"{name}_dev.parquet" for name in SETS]
    present = [path for path in paths if path.exists()]
    if not present:
        print(f"no development sets in {args.devsets}: nothing to check")
        return 0
    seeds = list(range(args.seed, args.seed + args.samples))
    with tempfile.TemporaryDirectory() as folder:
        per_set = []
        for path in present:
            per_set.append(check_set(path, Path(folder), args.labels, seeds))
            print(f"{path.stem}: {len(seeds)} samples done", file=sys.stderr, flush=True)
    if args.samples == 1:
        rows = [one_sample_row(rows[0]) for rows in per_set]
        print(f"calibrated on {args.labels} labelled cases (seed {args.seed}), balanced accuracy:")
    else:
        rows = [summary_row(rows) for rows in per_set]
        print(
            f"calibrated on {args.labels} labelled cases, {args.samples} samples (seeds "
            f"{seeds[0]}-{seeds[-1]}), held-out balanced accuracy:"
        )
    print(table(rows, list(rows[0])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
