"""Named calibrations of the offline judge (`calibrations`), and the content of labelled cases
that `faith calibrate` re-judges."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import polars as pl

from flows.store.db import run_sql_file, sql, transaction

if TYPE_CHECKING:
    import duckdb

__all__ = [
    "calibration_names",
    "labelled_cases",
    "load_calibration",
    "save_calibration",
    "unscored_rows",
]

CASE_SCHEMA: dict[str, pl.DataType] = {
    "case_id": pl.String(),
    "input": pl.String(),
    "actual_output": pl.String(),
    "retrieval_context": pl.List(pl.String),
    "whole_passages": pl.Boolean(),
    "fold_group": pl.String(),
}


def labelled_cases(con: duckdb.DuckDBPyConnection, case_ids: list[str]) -> pl.DataFrame:
    """`case_id`, `input`, `actual_output`, `retrieval_context` of the given cases that are
    stored as scored (their passages as the truths stored with them), `whole_passages`:
    whether those truths are the passages whole (an offline judge's, without a truths limit),
    and `fold_group`: its conversation, else its content (one cross-validation fold each)."""
    frame = con.sql(sql("calibration_cases"), params={"case_ids": case_ids}).pl()
    return frame.cast(CASE_SCHEMA) if frame.height else pl.DataFrame(schema=CASE_SCHEMA)


def unscored_rows(con: duckdb.DuckDBPyConnection, case_ids: list[str]) -> dict[str, int]:
    """How many of `case_ids` (none scored) the database holds as invalid, pending or
    quarantined rows."""
    found = con.sql(sql("calibration_unscored"), params={"case_ids": case_ids}).pl()
    return {name: int(found[name][0]) for name in ("invalid", "pending", "quarantined")}


def save_calibration(con: duckdb.DuckDBPyConnection, row: dict[str, Any]) -> None:
    """Store one calibration (replacing one of the same name), in one transaction; without
    `weights`, the judge's own (NULL)."""
    with transaction(con):
        run_sql_file(con, "calibration_upsert", {"weights": None, **row})


def load_calibration(con: duckdb.DuckDBPyConnection, name: str) -> dict[str, Any] | None:
    """The named calibration's row, or None."""
    found = con.sql(sql("calibration_select"), params={"name": name}).pl()
    return found.row(0, named=True) if found.height else None


def calibration_names(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Every stored calibration's name, sorted."""
    return con.sql(sql("calibration_names")).pl()["name"].to_list()
