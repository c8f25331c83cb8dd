"""Bench (not a test): `score_cases` of this checkout against an earlier commit's, in one
process on the same batch, calls alternating so machine noise hits both alike.

    python bench/judge_ab.py BASE [--shape support] [--rows 143000] [--rounds 10] [--inner N]
    python bench/judge_ab.py BASE --source PATH [--rows N] ...   # the first rows of your Parquet

BASE's `faith_udfs` is exported (`git archive`) to a temporary folder as the package
`faith_udfs_base` (its imports renamed) and imported beside this checkout's. `--shape tiny`
scores the first 5 rows of the support shape `--inner` times a call (a batch's fixed cost).
Both sides' frames are compared first (exit 1 if any differs); then CPU-seconds per call of
each side, their medians and min, and the ratios this / base (of the medians, of the mins, and
the median of each round's ratio). `bench/commits_ab.py` compares whole processes. With other
work on the machine, `POLARS_MAX_THREADS=1` gives steadier ratios (no thread pool spinning
against the other work): on 2026-12-07 at load 3-6 the same pair gave 1.006, 0.905 and 0.946
with polars' threads, 0.915, 0.881 and 0.911 on one.
"""

from __future__ import annotations

import argparse
import importlib
import io
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl
from polars.testing import assert_frame_equal

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, generated_cases, refuse_unless_commit, whole_number
from shapes import SHAPES

FRAMES = ("case_scores", "claim_verdicts", "truths", "item_keys")


def export_base(commit: str, into: Path) -> None:
    """BASE's faith_udfs as `into`/faith_udfs_base, every `faith_udfs` import renamed."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", commit, "faith_udfs"],
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    package = into / "faith_udfs_base"
    (into / "faith_udfs").rename(package)
    for path in package.rglob("*.py"):
        path.write_text(re.sub(r"\bfaith_udfs\b", "faith_udfs_base", path.read_text()))


def side(package: str) -> Callable[[pl.DataFrame], Any]:
    metric = importlib.import_module(f"{package}.metric")
    grounded = importlib.import_module(f"{package}.grounded")
    config = importlib.import_module(f"{package}.config")
    judge, settings = grounded.grounded_judge(), config.MetricConfig()
    return lambda cases: metric.score_cases(cases, judge, settings)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", help="the commit to compare with")
    parser.add_argument("--shape", default="support", choices=[*SHAPES, "tiny"])
    parser.add_argument("--rows", type=whole_number, default=143_000)
    parser.add_argument("--rounds", type=whole_number, default=10)
    parser.add_argument("--inner", type=whole_number, help="calls a round (default 1; tiny: 40)")
    parser.add_argument("--source", type=Path, help="a Parquet file of cases instead of a shape")
    args = parser.parse_args()
    refuse_unless_commit(parser, args.base)
    tiny = args.shape == "tiny" and args.source is None
    inner = args.inner or (40 if tiny else 1)
    if args.source is not None:
        cases, args.shape = pl.read_parquet(args.source, n_rows=args.rows), "source"
    else:
        source = generated_cases(1_000_000, shape="support" if tiny else args.shape)
        cases = pl.read_parquet(source, n_rows=5 if tiny else args.rows)

    sys.path.insert(0, str(ROOT))
    from flows.allocator import keep_freed_pages

    keep_freed_pages()
    with tempfile.TemporaryDirectory(prefix="faithpipe-judge-ab-") as folder:
        export_base(args.base, Path(folder))
        sys.path.insert(0, folder)
        score = {"base": side("faith_udfs_base"), "this": side("faith_udfs")}
        first = {name: run(cases) for name, run in score.items()}
        for frame in FRAMES:
            try:
                assert_frame_equal(getattr(first["base"], frame), getattr(first["this"], frame))
            except AssertionError as error:
                print(f"{frame} differs: {error}")
                return 1
        times: dict[str, list[float]] = {"base": [], "this": []}
        for number in range(args.rounds):
            for name in ("base", "this") if number % 2 == 0 else ("this", "base"):
                start = time.process_time()
                for _ in range(inner):
                    score[name](cases)
                times[name].append((time.process_time() - start) / inner)
    unit, scale = ("CPU-ms", 1000) if tiny else ("CPU-s", 1)
    for name, values in times.items():
        middle, least = statistics.median(values) * scale, min(values) * scale
        print(f"{name}: median {middle:.3f}, min {least:.3f} {unit} a call")
    median = statistics.median(times["this"]) / statistics.median(times["base"])
    least = min(times["this"]) / min(times["base"])
    rounds = statistics.median(a / b for a, b in zip(times["this"], times["base"], strict=True))
    print(
        f"{args.shape} {cases.height} rows, {args.rounds} rounds x {inner}: this / base "
        f"{median:.3f} (medians), {least:.3f} (mins), {rounds:.3f} (median of the rounds'); "
        f"frames {', '.join(FRAMES)} identical"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
