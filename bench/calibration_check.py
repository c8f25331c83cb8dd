"""Bench (not a test): what `faith calibrate` buys on sets it was not tuned on. For each
development set: score every case, calibrate on a seeded sample of LABELS cases, score again
with `--calibration`, and compare balanced accuracy on the cases calibration never saw.

    python bench/calibration_check.py [--labels 200] [--seed 20] [--devsets DIR]

Runs the same code as `faith score` and `faith calibrate` (in a temporary folder). Absent dev
sets: says so and exits 0.
"""

from __future__ import annotations

import argparse
import datetime as dt
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


def check_set(path: Path, folder: Path, labels: int, seed: int) -> dict[str, object]:
    """One set: held-out balanced accuracy of the default judge and of the calibrated one."""
    started = time.perf_counter()
    frame = pl.read_parquet(path).with_columns(logged_at=pl.lit(dt.datetime(2026, 1, 1)))
    source, db = folder / f"{path.stem}.parquet", folder / f"{path.stem}.duckdb"
    frame.select(CASE_COLUMNS).write_parquet(source)
    shuffled = frame.select("case_id", "label").sample(fraction=1.0, shuffle=True, seed=seed)
    train, rest = shuffled.head(labels), shuffled.tail(shuffled.height - labels)
    train.write_csv(folder / f"{path.stem}_labels.csv")
    default = run_score(ScoreSettings(source=str(source), db=str(db)))
    fitted = calibrate(folder / f"{path.stem}_labels.csv", db, path.stem)
    judge = JudgeSettings(calibration=path.stem)
    calibrated = run_score(ScoreSettings(source=str(source), db=str(db), judge=judge))
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
    ba = dict(held_out.rows())
    cv = fitted.validation.table.row(0, named=True)  # balanced accuracy
    cutoffs = fitted.validation.cutoffs
    return {
        "set": path.stem.removesuffix("_dev"),
        "held out": rest.height,
        "cut-offs": f"{cutoffs.supported:g} / {cutoffs.silent:g} / {cutoffs.threshold:g}",
        "CV calibrated": f"{cv['calibrated']:.3f}",
        "CV default": f"{cv['uncalibrated']:.3f}",
        "held-out default": f"{ba[default['config_id']]:.3f}",
        "held-out calibrated": f"{ba[calibrated['config_id']]:.3f}",
        "seconds": f"{time.perf_counter() - started:.0f}",
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labels", type=int, default=200, help="labelled cases (200)")
    parser.add_argument("--seed", type=int, default=20, help="seed of the labelled sample (20)")
    parser.add_argument("--devsets", type=Path, default=DEVSETS, help="folder of the dev sets")
    args = parser.parse_args()
    paths = [args.devsets / f"{name}_dev.parquet" for name in SETS]
    present = [path for path in paths if path.exists()]
    if not present:
        print(f"no development sets in {args.devsets}: nothing to check")
        return 0
    with tempfile.TemporaryDirectory() as folder:
        rows = [check_set(path, Path(folder), args.labels, args.seed) for path in present]
    columns = list(rows[0])
    print(f"calibrated on {args.labels} labelled cases (seed {args.seed}), balanced accuracy:")
    print(table(rows, columns))
    return 0


if __name__ == "__main__":
    sys.exit(main())
