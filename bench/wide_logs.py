"""Bench (not a test): validating logs with many segment columns costs per value, not per
column squared.

    python bench/wide_logs.py [--rows 200] [--columns 500,1000,5000]

Every extra column of a log is a segment (docs/input.md). `validate_cases` builds the
segments' JSON; it once read the frame's schema anew for each column, and a CSV of 5,000
columns and 200 rows took 27 s to score (1.9 s since). Prints the CPU-seconds of validating
`--rows` rows with each number of extra columns, per million values, and each one's ratio to
the narrowest (at most about 1 when the cost is linear in the values; before, 5,000 columns
cost 17x more a value than 500).
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import time
from pathlib import Path

import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common import whole_number, whole_numbers

from schemas.contract import validate_cases


def wide_frame(rows: int, columns: int) -> pl.DataFrame:
    """`rows` valid cases with `columns` extra text columns."""
    base = pl.DataFrame(
        {
            "case_id": [f"c{i}" for i in range(rows)],
            "logged_at": [dt.datetime(2026, 10, 1)] * rows,
            "input": ["Where is order A17?"] * rows,
            "actual_output": ["Order A17 shipped on 3 March."] * rows,
            "retrieval_context": [["Order A17 shipped on 3 March by courier."]] * rows,
        }
    )
    extra = pl.DataFrame({f"segment_{j}": [f"v{j}"] * rows for j in range(columns)})
    return pl.concat([base, extra], how="horizontal")


def cpu_seconds(frame: pl.DataFrame, rounds: int = 3) -> float:
    """The fastest of `rounds` validations, in CPU-seconds."""
    best = float("inf")
    for _ in range(rounds):
        started = time.process_time()
        checked = validate_cases(frame)
        best = min(best, time.process_time() - started)
        assert checked.valid.height == frame.height
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=whole_number, default=200)
    parser.add_argument("--columns", type=whole_numbers, default="500,1000,5000")
    args = parser.parse_args(argv)
    widths = args.columns
    print(f"{'extra columns':>13}  {'cpu s':>7}  {'s / 1M values':>13}  ratio")
    first = None
    for width in widths:
        seconds = cpu_seconds(wide_frame(args.rows, width))
        per_million = seconds / (args.rows * width) * 1e6
        first = first or per_million
        print(f"{width:>13,}  {seconds:>7.3f}  {per_million:>13.2f}  {per_million / first:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
