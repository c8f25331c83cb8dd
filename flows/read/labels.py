"""Reading a team's labels for `faith calibrate`: a Parquet or CSV file of `case_id` and
`label` (1 faithful, 0 not), refused whole when a column, a value or an id is wrong."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from flows.errors import InputUnreadable

__all__ = ["read_labels"]

_TRUE = ("1", "true", "yes")
_FALSE = ("0", "false", "no")


def read_labels(path: Path | str) -> pl.DataFrame:
    """`case_id` (str) and `label` (bool) of each labelled case; other columns are ignored."""
    path = Path(path)
    kind = "CSV" if path.suffix.lower() == ".csv" else "Parquet"
    try:
        if kind == "CSV":
            frame = pl.read_csv(path, infer_schema=False)  # every column as text
        else:
            frame = pl.read_parquet(path, glob=False)
    except (OSError, pl.exceptions.PolarsError) as exc:
        raise InputUnreadable(
            f"labels {path}: not readable as {kind} ({type(exc).__name__})"
        ) from None
    missing = [name for name in ("case_id", "label") if name not in frame.columns]
    if missing:
        raise InputUnreadable(
            f"labels {path}: missing columns {missing}; expected case_id and label (1/0)"
        )
    text = pl.col("label").cast(pl.String).str.strip_chars().str.to_lowercase()
    labels = frame.select(
        case_id=pl.col("case_id").cast(pl.String),
        label=pl.when(text.is_in(_TRUE)).then(True).when(text.is_in(_FALSE)).then(False),
    )
    bad = frame.filter(labels["label"].is_null())["label"].head(3).to_list()
    if bad:
        raise InputUnreadable(f"labels {path}: label must be 1 or 0, found {bad}")
    if labels["case_id"].has_nulls():
        raise InputUnreadable(f"labels {path}: case_id must not be empty")
    repeated = labels.filter(pl.col("case_id").is_duplicated())["case_id"].unique().sort()
    if repeated.len():
        raise InputUnreadable(
            f"labels {path}: case_id must be unique, repeated: {repeated.head(3).to_list()}"
        )
    return labels
