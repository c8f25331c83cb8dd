"""Bench (not a test): peak memory and batches of a source whose case_ids repeat, against the
same rows without repeats, each scored in a fresh process.

    python bench/duplicates.py [--rows 300000] [--batch-size 50000]

The duplicated source is the first half of the rows written twice (two overlapping exports:
50% of its rows repeat an id); the baseline is as many distinct rows. Prints both runs and the
peak-RSS ratio (target: at most 1.3x: duplicates are resolved as rows stream by, never held).
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import OUT, generated_cases, run_child, table, whole_number

SCORE = """
from flows.allocator import keep_freed_pages; keep_freed_pages()  # as the CLI does
import sys, time
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
source, db, batch_size = sys.argv[1], sys.argv[2], int(sys.argv[3])
started = time.perf_counter()
run = run_score(ScoreSettings(source=source, db=db, batch_size=batch_size, max_invalid_share=1))
result = {"source": sys.argv[4], "rows_in": run["rows_in"], "scored": run["rows_newly_scored"],
          "quarantined": run["rows_quarantined"], "batches": run["batches"],
          "seconds": round(time.perf_counter() - started, 2)}
"""


def sources(rows: int) -> tuple[Path, Path]:
    """(distinct rows, the first half of them exported twice), both `rows` rows long."""
    import polars as pl

    generated = generated_cases(rows)
    frame = pl.read_parquet(generated)
    half = frame.head(rows // 2)
    twice = OUT / f"duplicates-{rows}"
    twice.mkdir(parents=True, exist_ok=True)
    half.write_parquet(twice / "export-1.parquet")
    half.write_parquet(twice / "export-2.parquet")
    return generated, twice


def _remove(db: Path) -> None:
    """`db` and its WAL, if there."""
    for path in (db, db.with_name(db.name + ".wal")):
        path.unlink(missing_ok=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=whole_number, default=300_000)
    parser.add_argument("--batch-size", type=whole_number, default=50_000)
    args = parser.parse_args()
    distinct, twice = sources(args.rows)
    results = []
    db = OUT / "duplicates.duckdb"
    try:
        for name, source in (("distinct", distinct), ("50% repeated", twice)):
            _remove(db)
            results.append(run_child(SCORE, str(source), str(db), str(args.batch_size), name))
    finally:  # a scored database is ~1 kB a row: none is kept
        _remove(db)
        shutil.rmtree(twice, ignore_errors=True)
    columns = ["source", "rows_in", "scored", "quarantined", "batches", "seconds", "peak_rss_mb"]
    print(table(results, columns))
    ratio = results[1]["peak_rss_mb"] / results[0]["peak_rss_mb"]
    print(f"peak RSS, 50% repeated / distinct: {ratio:.2f}x (target <= 1.3x)")


if __name__ == "__main__":
    main()
