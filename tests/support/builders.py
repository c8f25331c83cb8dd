"""Small, readable input tables for pipeline tests, written as real Parquet files."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import polars as pl

from data.generate import POLICY

CONTEXT = list(POLICY)  # the seed's two policy lines
# The case_scores columns two judges must agree on to give the same scores.
COMPARED = ["case_id", "n_claims", "n_yes", "n_no", "n_idk", "score", "success", "status"]
SCHEMA = {
    "case_id": pl.String,
    "input": pl.String,
    "actual_output": pl.String,
    "retrieval_context": pl.List(pl.String),
    "logged_at": pl.Datetime("us"),
    "app_version": pl.String,
}


def case_row(case_id: str, answer: str = "Order A17 shipped on 3 March.", **extra: Any) -> dict:
    """One valid logged case; keyword arguments override any column."""
    row = {
        "case_id": case_id,
        "input": "Where is order A17?",
        "actual_output": answer,
        "retrieval_context": CONTEXT,
        "logged_at": dt.datetime(2026, 10, 1, 9, 0),
        "app_version": "2.4.0",
    }
    row.update(extra)
    return row


def cases(rows: list[dict], schema: dict | None = None) -> pl.DataFrame:
    return pl.DataFrame(rows, schema=schema or SCHEMA, orient="row")


def write(frame: pl.DataFrame, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    frame.write_parquet(path)
    return path


ANSWERS = [
    "Order A17 shipped on 3 March.",
    "Order A17 shipped on 3 March. It arrives tomorrow.",
    "Order A17 was cancelled. We are sorry.",
    "Refunds are paid within 5 working days.",
    "Refunds are paid within 9 days. Thanks!",
]


def many_cases(n: int, *, days: int = 3) -> pl.DataFrame:
    """n valid cases over `days` days and two app versions, answers cycling through ANSWERS."""
    start = dt.datetime(2026, 10, 1, 8, 0)
    return cases(
        [
            case_row(
                f"c{i:05d}",
                ANSWERS[i % len(ANSWERS)],
                logged_at=start + dt.timedelta(days=i % days, minutes=i),
                app_version="2.4.0" if i % 2 else "2.5.0",
            )
            for i in range(n)
        ]
    )


def metric_cases(rows: list[tuple[str, str, list[str] | None]]) -> pl.DataFrame:
    """(case_id, actual_output, retrieval_context) rows as the frame `score_cases` takes."""
    return pl.DataFrame(
        rows,
        schema={
            "case_id": pl.String,
            "actual_output": pl.String,
            "retrieval_context": pl.List(pl.String),
        },
        orient="row",
    )
