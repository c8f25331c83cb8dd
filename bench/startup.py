"""Bench (not a test): wall time of an ad-hoc `faith score` of a small file, per route.

    python bench/startup.py [--prefect]

The plain route (no Prefect server configured) must answer in under 5 s; `--prefect` also
times the same command as a Prefect flow on a temporary server, for comparison.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, table

FAITH = Path(sys.executable).with_name("faith")


def seed_file(folder: Path) -> Path:
    """The tutorial's three cases as a Parquet file."""
    sys.path.insert(0, str(ROOT))
    from data.generate import seed_cases

    path = folder / "seed.parquet"
    seed_cases().write_parquet(path)
    return path


def timed(argv: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, env=env, check=True, capture_output=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prefect", action="store_true", help="also time the flow route")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_API")}
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        source = seed_file(folder)
        baseline = timed([sys.executable, "-c", "pass"], env)
        rows.append({"command": "python -c pass (interpreter start)", "seconds": f"{baseline:.2f}"})
        for attempt in (1, 2):
            db = folder / f"plain{attempt}.duckdb"
            argv = [str(FAITH), "score", str(source), "--db", str(db)]
            rows.append(
                {"command": f"faith score seed.parquet (plain route, run {attempt})",
                 "seconds": f"{timed(argv, env):.2f}"}
            )  # fmt: skip
        if args.prefect:
            argv = [str(FAITH), "score", str(source), "--db", str(folder / "f.duckdb"),
                    "--prefect", "yes"]  # fmt: skip
            rows.append(
                {"command": "faith score seed.parquet --prefect yes (temporary server)",
                 "seconds": f"{timed(argv, env):.2f}"}
            )  # fmt: skip
    print(table(rows, ["command", "seconds"]))
    print("\ntarget: the plain route under 5 s wall")


if __name__ == "__main__":
    main()
