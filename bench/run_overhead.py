"""Bench (not a test): the fixed CPU cost of a run, apart from its rows: opening the database
(new, walking every migration as before, or existing) and an in-process `faith score` of the
bundled sample (3,003 rows) on a new database, in this process.

    python bench/run_overhead.py [--repeat 10]

Prints CPU-ms a time, and the ratio of a new database walked through every migration to one
made from sql/new_database.sql (the way a first run makes it now).
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, table

sys.path.insert(0, str(ROOT))
from flows.cli import main as faith
from flows.store.db import connect, migrate, open_store

SAMPLE = ROOT / "data" / "sample" / "cases.parquet"


def cpu_ms(repeat: int, step: Callable[[int], None]) -> float:
    """Median CPU milliseconds of `step(i)` over `repeat` times, after one warm-up."""
    step(-1)
    times = []
    for i in range(repeat):
        started = time.process_time()
        step(i)
        times.append((time.process_time() - started) * 1000)
    return sorted(times)[len(times) // 2]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    logging.disable(logging.INFO)  # the runs' own lines
    with tempfile.TemporaryDirectory(prefix="faithpipe-overhead-") as folder:
        root = Path(folder)

        def new_script(i: int) -> None:
            open_store(root / f"script{i}.duckdb").close()

        def new_walked(i: int) -> None:
            con = connect(root / f"walked{i}.duckdb")
            migrate(con, walk=True)
            con.close()

        def existing(i: int) -> None:
            open_store(root / "script0.duckdb").close()

        def sample_run(i: int) -> None:
            db = root / f"run{i}.duckdb"
            assert faith(["score", str(SAMPLE), "--db", str(db), "--prefect", "no"]) == 0

        rows = [
            {"step": name, "CPU ms": f"{cpu_ms(args.repeat, step):.0f}"}
            for name, step in [
                ("new database (script)", new_script),
                ("new database (walking every migration)", new_walked),
                ("existing database", existing),
                ("faith score of the sample, new database", sample_run),
            ]
        ]
    print(table(rows, ["step", "CPU ms"]))
    script, walked = (float(row["CPU ms"]) for row in rows[:2])
    print(f"a new database walked / made from the script: {walked / script:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
