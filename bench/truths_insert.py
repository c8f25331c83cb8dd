"""Bench (not a test): what storing a batch's truths costs as the `truths` table grows. The
shipped statement (insert_results.sql) against the one before it, which hashed every stored
truth to find the batch's new passages, on the same growing table in one process.

    python bench/truths_insert.py [--batches 7] [--passages 750000] [--per-passage 13]

The database is a real store (`open_store`: its tables, memory limit and checkpoints). Each
batch (`--passages` new passages of `--per-passage` truths, as a RAG batch of 1 kB
passages brings; a quarter of them already stored, as a nightly run's repeats) is inserted by
both statements in turns, each rolled back, then committed by the shipped one. Prints each
batch's CPU-seconds under both, their ratio (shipped / before), and checks both insert the
same rows.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import duckdb
import numpy as np
import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from common import table, whole_number

from flows.store.db import open_store
from flows.store.sql_files import statements

BEFORE = """
INSERT INTO truths BY NAME
SELECT n.* FROM new_truths AS n
WHERE NOT EXISTS (
    SELECT 1 FROM truths AS t WHERE t.config_id = n.config_id AND t.passage_id = n.passage_id
)
"""


def shipped() -> str:
    """The truths statement of insert_results.sql, as a batch's write runs it."""
    (statement,) = [s for s in statements("insert_results") if "INTO truths" in s]
    return statement


def batch_truths(batch: int, passages: int, per_passage: int) -> pl.DataFrame:
    """`passages` passages' truths: three quarters new, a quarter from the batch before."""
    first = batch * (passages - passages // 4)
    ids = (np.arange(first, first + passages, dtype=np.uint64) * 0x9E3779B97F4A7C15) >> 1
    sentences = [
        f"Sentence {i} of the knowledge base says something about {i % 97}." for i in range(4096)
    ]
    picks = np.random.default_rng(batch).integers(0, len(sentences), passages * per_passage)
    return pl.DataFrame(
        {
            "config_id": "bench",
            "passage_id": np.repeat(ids, per_passage),
            "truth_index": np.tile(np.arange(per_passage, dtype=np.int32), passages),
            "truth": pl.Series([sentences[i] for i in picks]),
        }
    )


def stored(con: duckdb.DuckDBPyConnection) -> int:
    return int(con.execute("SELECT count(*) FROM truths").fetchall()[0][0])


def inserted(con: duckdb.DuckDBPyConnection, statement: str) -> tuple[float, int]:
    """CPU-seconds of the statement and the rows it inserted, rolled back."""
    before = stored(con)
    con.execute("BEGIN")
    started = time.process_time()
    con.execute(statement)
    spent = time.process_time() - started
    added = stored(con) - before
    con.execute("ROLLBACK")
    return spent, added


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=whole_number, default=7)
    parser.add_argument("--passages", type=whole_number, default=750_000)
    parser.add_argument("--per-passage", type=whole_number, default=13)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        con = open_store(Path(folder) / "truths.duckdb")
        for batch in range(args.batches):
            con.register("new_truths", batch_truths(batch, args.passages, args.per_passage))
            times: dict[str, list[float]] = {"before": [], "shipped": []}
            counts = set()
            for name in ("before", "shipped", "shipped", "before"):
                spent, count = inserted(con, BEFORE if name == "before" else shipped())
                times[name].append(spent)
                counts.add(count)
            if len(counts) != 1:
                raise SystemExit(f"batch {batch}: the statements inserted {counts} rows")
            held = stored(con)
            con.execute("BEGIN")
            con.execute(shipped())
            con.execute("COMMIT")
            con.unregister("new_truths")
            before, now = min(times["before"]), min(times["shipped"])
            rows.append(
                {
                    "batch": batch + 1,
                    "stored truths": f"{held:,}",
                    "inserted": f"{counts.pop():,}",
                    "before cpu_s": round(before, 2),
                    "shipped cpu_s": round(now, 2),
                    "ratio": f"{now / before:.2f}x",
                }
            )
            print(f"batch {batch + 1}: before {before:.2f} CPU-s, shipped {now:.2f}", flush=True)
        con.close()
    print()
    print(table(rows, list(rows[0])))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
