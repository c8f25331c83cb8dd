"""Bench (not a test): `faith rekey`'s SQL on N legacy passage ids and N cases, in memory.

    python bench/rekey.py [N ...]     (default: 40000 400000)

Prints the seconds the mapping transaction takes; it must grow about linearly with N (the
former per-row map lookup grew with N x N: 20.5 s at 40,000).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import duckdb
import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from flows.store.db import statements


def seconds_to_rekey(n: int) -> float:
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE truths(config_id VARCHAR, passage_id UBIGINT, truth_index INT, truth VARCHAR)"
    )
    con.execute(
        "CREATE TABLE case_scores(config_id VARCHAR, case_id VARCHAR, passage_ids UBIGINT[], "
        "PRIMARY KEY (config_id, case_id))"
    )
    con.execute("CREATE TABLE legacy_passage_keys(config_id VARCHAR, passage_id UBIGINT)")
    con.execute("INSERT INTO truths SELECT 'c', i, 0, 't' FROM range(1, $n + 1) r(i)", {"n": n})
    con.execute(
        "INSERT INTO case_scores SELECT 'c', 'k' || i, [1 + (i % $n), 1 + ((i + 1) % $n), 0] "
        "FROM range($n) r(i)",
        {"n": n},
    )
    old = pl.Series(range(1, n + 1), dtype=pl.UInt64)
    con.register("key_map", pl.DataFrame({"old_id": old, "new_id": old + 10**12}))
    started = time.perf_counter()
    con.execute("BEGIN")
    for statement in statements("rekey_passages"):
        con.execute(statement)
    con.execute("COMMIT")
    return time.perf_counter() - started


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("n", type=int, nargs="*", help="legacy ids and cases (40000 400000)")
    for n in parser.parse_args().n or [40_000, 400_000]:
        print(f"{n:>9,} legacy ids x {n:,} cases: {seconds_to_rekey(n):.2f} s")
