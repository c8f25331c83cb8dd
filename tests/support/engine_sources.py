"""Sources and comparisons for the engine tests: a source with every kind of row a run
treats apart (contract breaches, exact and conflicting duplicate ids across files, identical
bad rows in different batches), and the output tables as comparable frames."""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl

from data.generate import generate_cases
from flows.run.summary import COUNTS

# Columns that name the run or the moment, never the result.
_RUN_COLUMNS = {"run_id", "scored_at", "quarantined_at", "created_at"}
OUTPUT_TABLES = ("case_scores", "claim_verdicts", "truths", "quarantine", "judge_cache")


def mixed_source(folder: Path, rows: int) -> Path:
    """`rows` generated cases in three files, with blank answers, a null id, exact and
    conflicting copies of ids across files, and identical bad rows far apart."""
    cases = generate_cases(rows, seed=7)
    third = rows // 3
    parts = [cases.slice(0, third), cases.slice(third, third), cases.slice(2 * third)]
    blank = cases.slice(5, 1).with_columns(actual_output=pl.lit("  "))
    parts[0] = pl.concat([parts[0], blank, cases.slice(10, 1).with_columns(case_id=pl.lit(None))])
    # the same bad row again in the last file: its quarantine key counts occurrences
    parts[2] = pl.concat([parts[2], blank])
    # exact copies of two ids of the first file, and a differing copy of a third
    parts[1] = pl.concat([parts[1], cases.slice(20, 2)])
    parts[2] = pl.concat([parts[2], cases.slice(30, 1).with_columns(input=pl.lit("changed?"))])
    folder.mkdir(parents=True, exist_ok=True)
    for index, part in enumerate(parts):
        part.write_parquet(folder / f"part-{index}.parquet", row_group_size=500)
    return folder


def output_tables(db: Path) -> dict[str, pl.DataFrame]:
    """Every output table, without the columns that name the run or the time, sorted."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        tables = {}
        for table in OUTPUT_TABLES:
            frame = con.sql(f"SELECT * FROM {table}").pl()
            frame = frame.drop([c for c in frame.columns if c in _RUN_COLUMNS])
            sortable = [c for c, t in frame.schema.items() if not t.is_nested()]
            tables[table] = frame.sort(sortable)
        return tables
    finally:
        con.close()


def run_counts(db: Path) -> list[dict]:
    """The counts of every run, oldest first."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        runs = con.sql("SELECT * FROM runs ORDER BY started_at").pl()
    finally:
        con.close()
    return runs.select(COUNTS).to_dicts()
