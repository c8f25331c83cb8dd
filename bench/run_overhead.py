"""Bench (not a test): the fixed CPU cost of a run, apart from its rows: opening the database
(new: a copy of the process's template, made in place from sql/new_database.sql as a process's
first is, or walking every migration as before; existing), an in-process `faith score` of 5
rows and of the bundled sample (3,003 rows) on a new database, and what a further batch adds
(60 rows in 3 batches against 1), in this process; and the 5 rows on fresh stage threads, as
each run had before they were kept for the next (flows/run/stage.py).

    python bench/run_overhead.py [--repeat 10]

Prints median CPU-ms a time, and the ratios of a database made in place to a copy and of one
walked through every migration to one made in place.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import logging
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, table, whole_number

sys.path.insert(0, str(ROOT))
from flows.cli import main as faith
from flows.run import stage
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
    parser.add_argument("--repeat", type=whole_number, default=10)
    args = parser.parse_args()
    logging.disable(logging.INFO)  # the runs' own lines
    with tempfile.TemporaryDirectory(prefix="faithpipe-overhead-") as folder:
        root = Path(folder)

        few = root / "five.parquet"
        sixty = root / "sixty.parquet"
        pl.read_parquet(SAMPLE).head(5).write_parquet(few)
        pl.read_parquet(SAMPLE).head(60).write_parquet(sixty)

        def new_copy(i: int) -> None:
            open_store(root / f"copy{i}.duckdb").close()

        def new_in_place(i: int) -> None:
            con = connect(root / f"script{i}.duckdb")
            migrate(con)
            con.close()

        def new_walked(i: int) -> None:
            con = connect(root / f"walked{i}.duckdb")
            migrate(con, walk=True)
            con.close()

        def existing(i: int) -> None:
            open_store(root / "copy0.duckdb").close()

        def run(source: Path, *options: str) -> Callable[[int], None]:
            def scored(i: int) -> None:
                db = root / f"run-{source.stem}-{'-'.join(options)}-{i}.duckdb"
                argv = ["score", str(source), "--db", str(db), "--prefect", "no", *options]
                with contextlib.redirect_stdout(io.StringIO()):  # its summary line
                    assert faith(argv) == 0

            return scored

        def on_fresh_threads(step: Callable[[int], None]) -> Callable[[int], None]:
            def fresh(i: int) -> None:
                # as before stage threads were kept: the parked ones are left to wait (daemons)
                stage._IDLE.forget()
                step(10_000 + i)  # a database of its own, not the kept runs' (all scored)

            return fresh

        rows = [
            {"step": name, "CPU ms": f"{cpu_ms(args.repeat, step):.0f}"}
            for name, step in [
                ("new database (a copy of the process's template)", new_copy),
                ("new database (made in place, as a process's first)", new_in_place),
                ("new database (walking every migration)", new_walked),
                ("existing database", existing),
                ("faith score of 5 rows, new database", run(few)),
                ("the same on fresh stage threads (each run's own)", on_fresh_threads(run(few))),
                ("faith score of the sample, new database", run(SAMPLE)),
                ("faith score of 60 rows, 1 batch", run(sixty, "--batch-size", "60")),
                ("faith score of 60 rows, 3 batches", run(sixty, "--batch-size", "20")),
            ]
        ]
    print(table(rows, ["step", "CPU ms"]))
    copy, in_place, walked = (float(row["CPU ms"]) for row in rows[:3])
    print(f"a new database made in place / a copy of the template: {in_place / copy:.2f}x")
    print(f"a new database walked / made in place: {walked / in_place:.2f}x")
    kept, fresh = (float(row["CPU ms"]) for row in rows[4:6])
    print(f"5 rows on a kept thread / on fresh ones (polars' regex cache): {kept / fresh:.2f}x")
    one, three = (float(row["CPU ms"]) for row in rows[-2:])
    print(f"a further batch of 20 rows: {(three - one) / 2:.0f} CPU ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
