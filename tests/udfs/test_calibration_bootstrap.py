"""The bootstrap behind `faith calibrate`'s intervals draws its resamples a slice at a time: the
figures are those of one draw of them all, and memory stays bounded whatever labels x
resamples asks (5,000 labels x 100,000 resamples, both within their limits, once held ~40 GB)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import polars as pl
import pytest

import faith_udfs.calibration_stats as stats

ROOT = Path(__file__).resolve().parents[2]


def judged(n: int) -> tuple[pl.DataFrame, dict[str, pl.DataFrame]]:
    """`n` labelled cases and two judges' scores of them (the second a stricter pass mark)."""
    labels = pl.DataFrame(
        {"case_id": [f"c{i:03d}" for i in range(n)], "label": [i % 3 > 0 for i in range(n)]}
    )
    scores = labels.select("case_id", score=(pl.int_range(n) * 37 % 101) / 100)
    return labels, {
        "calibrated": scores.with_columns(success=pl.col("score") >= 0.4),
        "uncalibrated": scores.with_columns(success=pl.col("score") >= 0.6),
    }


def test_the_figures_do_not_depend_on_how_many_draws_are_held_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    labels, predictions = judged(80)
    monkeypatch.setattr(stats, "BOOTSTRAP_DRAWS", 10**9)  # every resample in one draw
    at_once = stats.agreement_table(labels, predictions, seed=7, resamples=300)
    monkeypatch.setattr(stats, "BOOTSTRAP_DRAWS", 1_000)  # 12 resamples a slice, 25 slices
    sliced = stats.agreement_table(labels, predictions, seed=7, resamples=300)
    assert sliced.equals(at_once)
    assert at_once["calibrated_low"][0] < at_once["calibrated"][0] < at_once["calibrated_high"][0]


def test_the_figures_do_not_depend_on_the_order_the_cases_come_in() -> None:
    """The resamples draw cases by their place in case_id order: a labels file in another
    order (or a caller's frames) draws the same cases, so the same seed prints the same
    intervals. The places were those of a join's output, which follows no promised order."""
    labels, predictions = judged(60)
    in_order = stats.agreement_table(labels, predictions, seed=3, resamples=200)
    reordered = {name: frame.reverse() for name, frame in predictions.items()}
    assert stats.agreement_table(labels.reverse(), reordered, seed=3, resamples=200).equals(
        in_order
    )


def test_cases_of_one_fold_group_are_drawn_together_so_the_interval_widens() -> None:
    """A conversation's turns were resampled one by one: ten near copies counted as ten
    pieces of evidence, and the interval read surer than the labels are. Drawn group by
    group it is wider; groups of one case draw exactly as before."""
    labels, predictions = judged(60)
    alone = stats.agreement_table(labels, predictions, seed=5, resamples=400)
    singles = labels.with_columns(fold_group=pl.lit("content ") + pl.col("case_id"))
    assert stats.agreement_table(singles, predictions, seed=5, resamples=400).equals(alone)
    # six conversations of ten turns, the judge right on every turn of three, wrong on the
    # others': its turns are no ten independent cases
    talk = pl.int_range(pl.len()) // 10
    talks = labels.with_columns(fold_group=pl.lit("conversation ") + talk.cast(pl.String))
    right = (pl.int_range(pl.len()) // 10) % 2 == 0
    judged_by_talk = {
        name: frame.with_columns(
            success=pl.when(right).then(labels["label"]).otherwise(~labels["label"])
        )
        for name, frame in predictions.items()
    }

    def width(table: pl.DataFrame) -> float:
        row = table.row(0, named=True)  # balanced accuracy
        return row["calibrated_high"] - row["calibrated_low"]

    by_case = stats.agreement_table(labels, judged_by_talk, seed=5, resamples=400)
    by_talk = stats.agreement_table(talks, judged_by_talk, seed=5, resamples=400)
    assert by_talk["calibrated"].equals(by_case["calibrated"])  # the figure: all the cases
    assert width(by_talk) > 1.5 * width(by_case)


def test_memory_grows_with_a_slice_of_the_draws_not_with_all_of_them(tmp_path: Path) -> None:
    """2,000,000 draws (500 labels x 4,000 resamples) held at once grew the process by ~200 MB;
    a slice of 100,000 at a time by ~20 MB. Measured in a fresh process (its peak RSS)."""
    script = tmp_path / "bootstrap.py"
    script.write_text(
        textwrap.dedent(
            """
            import resource

            import faith_udfs.calibration_stats as stats
            from tests.udfs.test_calibration_bootstrap import judged

            labels, predictions = judged(500)
            stats.agreement_table(labels, predictions, 0, 10)  # everything loaded once
            stats.BOOTSTRAP_DRAWS = 100_000
            before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            stats.agreement_table(labels, predictions, 0, 4_000)
            print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) // 1024)
            """
        )
    )
    done = subprocess.run(
        [sys.executable, str(script)],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    grown_mb = int(done.stdout.strip())
    assert grown_mb < 100, f"the bootstrap grew the process by {grown_mb} MB"
