"""Reading a team's labels for `faith calibrate`: a Parquet or CSV file of `case_id` and
`label` (1 faithful, 0 not), optionally `claim_labels` (one 1/0 per claim of the case, in the
order of its `claim_verdicts`), refused whole when a column, a value or an id is wrong."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from flows.errors import InputUnreadable

__all__ = ["read_labels"]

_TRUE = ("1", "true", "yes")
_FALSE = ("0", "false", "no")


def read_labels(path: Path | str) -> pl.DataFrame:
    """`case_id` (str), `label` (bool) and `claim_labels` (list of bool, null where not
    given) of each labelled case; other columns are ignored."""
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
    labels = labels.with_columns(claim_labels=_claim_labels(frame, path))
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


def _claim_labels(frame: pl.DataFrame, path: Path) -> pl.Series:
    """`claim_labels` as lists of bool: a Parquet list of 1/0, or text of 1/0 separated by
    spaces or commas (CSV); null or empty: the case's claims are not labelled."""
    if "claim_labels" not in frame.columns:
        return pl.Series("claim_labels", [None] * frame.height, dtype=pl.List(pl.Boolean))
    column = pl.col("claim_labels")
    if frame.schema["claim_labels"] == pl.String:
        items = column.str.replace_all(r"[,;\s]+", " ").str.strip_chars().str.split(" ")
    elif isinstance(frame.schema["claim_labels"], pl.List):
        items = column.list.eval(pl.element().cast(pl.String))
    else:
        raise InputUnreadable(
            f"labels {path}: claim_labels must be a list of 1/0, or text such as '1 0 1'"
        )
    texts = frame.select(
        items.list.eval(pl.element().str.strip_chars().str.to_lowercase())
        .list.eval(pl.element().filter(pl.element() != ""))
        .alias("claim_labels")
    )
    words = texts.select(pl.col("claim_labels").explode()).drop_nulls()["claim_labels"]
    bad = words.filter(~words.is_in([*_TRUE, *_FALSE]))
    if bad.len():
        raise InputUnreadable(
            f"labels {path}: claim_labels must be 1s and 0s, found {bad.head(3).to_list()}"
        )
    as_bool = pl.col("claim_labels").list.eval(pl.element().is_in(_TRUE))
    return texts.select(
        pl.when(pl.col("claim_labels").list.len() > 0).then(as_bool).alias("claim_labels")
    ).to_series()
