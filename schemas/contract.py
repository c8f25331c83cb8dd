"""Bringing a raw batch to the data contract: cast what can be cast, quarantine the rest.

Every row of the batch ends either valid or in the quarantine frame with each check it failed
and the offending value; nothing is dropped. Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl
from pandera.errors import SchemaErrors

from schemas.inputs import Cases

CONTRACT_TYPES: dict[str, pl.DataType] = {
    "case_id": pl.String(),
    "input": pl.String(),
    "actual_output": pl.String(),
    "retrieval_context": pl.List(pl.String()),
    "logged_at": pl.Datetime("us"),
}
QUARANTINE_COLUMNS: dict[str, pl.DataType] = {
    "row": pl.UInt32(),
    "check": pl.String(),
    "column": pl.String(),
    "value": pl.String(),
}
_ROW = "__row"


@dataclass(frozen=True)
class ValidatedBatch:
    """A batch split in two: `valid` rows (contract columns, typed, plus `segments` as JSON) and
    `quarantined` (`row`, `check`, `column`, `value`, `row_json`, `case_id`), one row a failed
    check: every input row is in exactly one of them."""

    valid: pl.DataFrame
    quarantined: pl.DataFrame


def validate_cases(raw: pl.DataFrame) -> ValidatedBatch:
    """Cast the contract columns, run the `Cases` checks, and split good rows from bad."""
    indexed = raw.with_row_index(_ROW)
    typed, type_failures = _cast_to_contract(indexed)
    # A value lost in the cast would also fail "is_null": report only the cast failure.
    check_failures = _check_failures(typed).join(
        type_failures.select("row", "column"), on=["row", "column"], how="anti"
    )
    failures = pl.concat([type_failures, check_failures]).unique(maintain_order=True)
    if failures.height == 0:  # the usual batch: nothing to take out
        valid = typed.drop(_ROW)
    else:
        bad_rows = failures.select(pl.col("row").alias(_ROW)).unique()
        valid = typed.join(bad_rows, on=_ROW, how="anti").sort(_ROW).drop(_ROW)
    return ValidatedBatch(
        valid=valid.select(*CONTRACT_TYPES, segments=_segments(valid)),
        quarantined=_with_rows(failures, indexed),
    )


def _segments(frame: pl.DataFrame) -> pl.Expr:
    """Every non-contract column, as text, in one JSON object per row: the row's segments.

    JSON (not a list of structs) because it is ~50x cheaper to build here, and DuckDB stores
    it as it is, in the JSON column `case_scores.segments`.
    """
    extra = sorted(name for name in frame.columns if name not in CONTRACT_TYPES)
    if not extra:
        return pl.lit("{}", dtype=pl.String)
    values = [_as_text(pl.col(name), frame.schema[name]).alias(name) for name in extra]
    return pl.struct(values).struct.json_encode()


def _cast_to_contract(frame: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Each contract column cast to its type; a value that cannot be cast is a failure."""
    failures = []
    casts = []
    for column, wanted in CONTRACT_TYPES.items():
        if column not in frame.columns:
            casts.append(pl.lit(None, dtype=wanted).alias(column))
            continue
        have = frame.schema[column]
        cast, check = _cast_expr(pl.col(column), have, wanted)
        casts.append(cast.alias(column))
        if check is None:
            continue
        lost = pl.col(column).is_not_null() & cast.is_null()
        failures.append(
            frame.filter(lost).select(
                row=pl.col(_ROW),
                check=pl.lit(check),
                column=pl.lit(column),
                value=_as_text(pl.col(column), have),
            )
        )
    typed = frame.with_columns(casts)
    found = pl.concat(failures) if failures else pl.DataFrame(schema=QUARANTINE_COLUMNS)
    return typed, found.cast(QUARANTINE_COLUMNS)


def _cast_expr(  # noqa: PLR0911 - one return per kind of cast reads best
    column: pl.Expr, have: pl.DataType, wanted: pl.DataType
) -> tuple[pl.Expr, str | None]:
    """The cast of one column and the check name for values it loses (None: loses nothing)."""
    if have == wanted:
        return column, None
    if wanted == pl.Datetime("us"):
        if isinstance(have, pl.Datetime):
            if have.time_zone is not None:
                column = column.dt.convert_time_zone("UTC").dt.replace_time_zone(None)
            return column.cast(pl.Datetime("us")), None
        if have == pl.Date:
            return column.cast(pl.Datetime("us")), None
        if have == pl.String:
            parsed = column.str.to_datetime(strict=False, time_unit="us", time_zone="UTC")
            return parsed.dt.replace_time_zone(None), "logged_at_unparseable"
        return pl.lit(None, dtype=wanted), "logged_at_wrong_type"
    if isinstance(wanted, pl.List):
        if isinstance(have, pl.List | pl.Array) and _is_text(have.inner):
            return column.cast(wanted), None
        return pl.lit(None, dtype=wanted), "retrieval_context_not_a_list_of_strings"
    if _is_text(have) or have.is_integer():
        return column.cast(pl.String), None
    return pl.lit(None, dtype=wanted), f"{_name(column)}_wrong_type"


def _is_text(dtype: pl.DataType) -> bool:
    return dtype == pl.String or isinstance(dtype, pl.Categorical | pl.Enum)


def _name(column: pl.Expr) -> str:
    return column.meta.output_name()


def _as_text(column: pl.Expr, dtype: pl.DataType) -> pl.Expr:
    """The offending value as text: strings as they are, anything else as JSON."""
    if _is_text(dtype):
        return column.cast(pl.String)
    if dtype.is_numeric() or dtype.is_temporal() or dtype == pl.Boolean:
        return column.cast(pl.String)
    name = _name(column)
    return pl.struct(column).struct.json_encode().str.slice(len(name) + 4).str.strip_suffix("}")


def _check_failures(typed: pl.DataFrame) -> pl.DataFrame:
    """Row-level failures of the `Cases` model (all of them: lazy validation)."""
    contract = typed.select(_ROW, *CONTRACT_TYPES)
    try:
        Cases.validate(contract.drop(_ROW), lazy=True)
    except SchemaErrors as errors:
        cases = errors.failure_cases
        if cases["index"].null_count():
            # A schema-level failure cannot happen after the casts above; if it does, it is a bug.
            raise
        positions = contract.select(_ROW).with_row_index("index")
        return (
            cases.select(
                pl.col("index").cast(pl.UInt32),
                check=pl.when(pl.col("check") == "not_nullable")
                .then(pl.col("column") + "_is_null")
                .otherwise(pl.col("check")),
                column="column",
                value="failure_case",
            )
            .join(positions, on="index")
            .select(row=pl.col(_ROW), check="check", column="column", value="value")
            .cast(QUARANTINE_COLUMNS)
        )
    return pl.DataFrame(schema=QUARANTINE_COLUMNS)


def _with_rows(failures: pl.DataFrame, indexed: pl.DataFrame) -> pl.DataFrame:
    """Attach the whole offending row (as JSON) and its case_id to each failure."""
    if failures.height == 0:
        return failures.with_columns(
            case_id=pl.lit(None, dtype=pl.String), row_json=pl.lit(None, dtype=pl.String)
        )
    failed = indexed.join(failures.select(pl.col("row").alias(_ROW)).unique(), on=_ROW, how="semi")
    rows = failed.select(
        pl.col(_ROW).alias("row"),
        case_id=_case_id_text(failed),
        row_json=pl.struct(pl.exclude(_ROW)).struct.json_encode(),
    )
    return failures.join(rows, on="row", how="left").sort("row", "check")


def _case_id_text(frame: pl.DataFrame) -> pl.Expr:
    if "case_id" not in frame.columns:
        return pl.lit(None, dtype=pl.String)
    dtype = frame.schema["case_id"]
    return _as_text(pl.col("case_id"), dtype) if dtype != pl.String else pl.col("case_id")


__all__ = ["CONTRACT_TYPES", "ValidatedBatch", "validate_cases"]
