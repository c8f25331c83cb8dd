"""Bench (not a test): whole-process `faith score --prefect no` of this checkout against an
earlier commit's, on the same generated Parquet, runs alternating so machine noise hits both.

    python bench/commits_ab.py BASE [--shape support] [--rows 1000000] [--rounds 2]

BASE (a commit, branch or tag) is checked out in a temporary git worktree, removed at the end,
and run with this venv's `faith`, its code first on PYTHONPATH. Round 1 runs base then this
checkout, round 2 the other way, and so on. Prints every run, both sides' medians and the
wall and CPU-second ratios (this checkout / base), then compares the two first runs' output
tables (bench/tables_check.py) and exits 1 if any differs: a speed change must keep them.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import OUT, ROOT, generated_cases, refuse_unless_commit, whole_number
from pipeline import FAITH, quiet
from shapes import SHAPES
from tables_check import differences, save


def faith_run(source: Path, db: Path, code: Path | None) -> dict:
    """One `faith score` in a fresh process on a fresh database; `code`: the base's checkout."""
    shutil.rmtree(db.parent, ignore_errors=True)
    db.parent.mkdir(parents=True)
    command = [FAITH, "score", str(source), "--db", str(db), "--prefect", "no"]
    # PYTHONPATH comes before the editable install of this checkout on sys.path.
    return quiet(command if code is None else ["env", f"PYTHONPATH={code}", *command])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", help="the commit to compare with")
    parser.add_argument("--shape", default="support", choices=list(SHAPES))
    parser.add_argument("--rows", type=whole_number, default=1_000_000)
    parser.add_argument("--rounds", type=whole_number, default=2)
    args = parser.parse_args()
    refuse_unless_commit(parser, args.base)

    source = generated_cases(args.rows, rows_per_file=100_000, shape=args.shape).parent
    work = OUT / "commits-ab"
    checkout = Path(tempfile.mkdtemp(prefix="faithpipe-base-")) / "base"
    git = ["git", "-C", str(ROOT)]
    runs: dict[str, list[dict]] = {"base": [], "this": []}
    try:  # the worktree's folder goes even when `worktree add` fails or is interrupted
        subprocess.run([*git, "worktree", "add", "--detach", str(checkout), args.base], check=True)
        for number in range(args.rounds):
            order = ("base", "this") if number % 2 == 0 else ("this", "base")
            for side in order:
                db = work / side / "faith.duckdb"
                run = faith_run(source, db, checkout if side == "base" else None)
                runs[side].append(run)
                print(f"round {number + 1} {side}: {run['seconds']} s, {run['cpu_s']} CPU-s")
                if number == 0 and side == order[1]:
                    save(work / "base" / "faith.duckdb", work / "tables-base")
                    found = differences(work / "this" / "faith.duckdb", work / "tables-base")
    finally:
        subprocess.run([*git, "worktree", "remove", "--force", str(checkout)], check=False)
        shutil.rmtree(checkout.parent, ignore_errors=True)

    medians = {
        side: {key: statistics.median(run[key] for run in done) for key in ("seconds", "cpu_s")}
        for side, done in runs.items()
    }
    for side, median in medians.items():
        print(f"{side}: median {median['seconds']:.2f} s, {median['cpu_s']:.2f} CPU-s")
    wall = medians["this"]["seconds"] / medians["base"]["seconds"]
    cpu = medians["this"]["cpu_s"] / medians["base"]["cpu_s"]
    print(
        f"{args.shape} {args.rows:,} rows, this / {args.base}: wall {wall:.3f}x, "
        f"CPU-seconds {cpu:.3f}x over {args.rounds} rounds"
    )
    print("; ".join(found) or "every table identical")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
