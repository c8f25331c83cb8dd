"""Bringing a raw batch to the data contract: cast what can be cast, quarantine the rest.

Every row of the batch ends either valid or in the quarantine frame with each check it failed
and the offending value; nothing is dropped. Pure: no I/O.
"""

from __future__ import annotations

import hashlib
import json
from contextlib import AbstractContextManager
from dataclasses import dataclass

import polars as pl
from pandera.api.polars.container import DataFrameSchema
from pandera.backends.polars.container import DataFrameSchemaBackend
from pandera.backends.polars.register import register_polars_backends
from pandera.config import ValidationDepth, config_context, get_config_global
from pandera.errors import SchemaErrors
from polars.datatypes import DataTypeClass

from faith_udfs.timestamps import naive_utc, parse_timestamps
from faith_udfs.words import is_utf8
from schemas.inputs import Cases
from schemas.sizes import SizeLimits, capped, size_failures

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
# The reader's column naming, for a row of a JSON file, its columns whose text held half a
# UTF-16 pair ("\\ud83d" alone), which no UTF-8 text can hold (flows/read/lone_surrogates.py).
LONE_SURROGATES = "__faithpipe_lone_surrogates"
# The same for a row of a CSV file, its columns that held a byte UTF-8 cannot hold
# (flows/read/not_utf8.py).
NOT_UTF8 = "__faithpipe_not_utf8"
# What the mended copy writes before the escape of such a byte (U+FFFD, then "\xe9").
NOT_UTF8_MARK = "\ufffd\\x"
# The same for a row of a JSON file, its contract columns whose value is a list, an object or
# true/false among text values (flows/read/json_values.py): as in a file of such values alone.
WRONG_TYPE = "__faithpipe_wrong_type"
# Each reader's mark, and the check a column it names fails.
_MARKS = {LONE_SURROGATES: "lone_surrogate", NOT_UTF8: "not_utf8", WRONG_TYPE: "wrong_type"}


@dataclass(frozen=True)
class ValidatedBatch:
    """A batch split in two: `valid` rows (contract columns, typed, plus `segments` as JSON) and
    `quarantined` (`row`, `check`, `column`, `value`, `row_json`, `case_id`), one row a failed
    check: every input row is in exactly one of them."""

    valid: pl.DataFrame
    quarantined: pl.DataFrame


def validate_cases(
    raw: pl.DataFrame,
    limits: SizeLimits | None = None,
    *,
    lists_as_json: bool = False,
    content_ids: bool = False,
) -> ValidatedBatch:
    """Cast the contract columns, run the `Cases` checks, and split good rows from bad; a
    row whose text is past `limits` is quarantined as too large, unchecked otherwise.

    `lists_as_json`: a text `retrieval_context` holds each list as JSON text (CSV cannot hold
    lists); otherwise a text value is a breach, whatever it holds (one string is not a list of
    passages, at every entry point). `content_ids`: the case_id is `content_case_ids`'.
    """
    limits = limits or SizeLimits()
    if content_ids:
        raw = raw.with_columns(case_id=content_case_ids(raw, lists_as_json=lists_as_json))
    indexed = raw.with_row_index(_ROW)
    marks = _MARKS.items()
    unreadable = pl.concat([_marked_failures(indexed, mark, check) for mark, check in marks])
    indexed = indexed.drop(*_MARKS, strict=False)
    typed, type_failures = _cast_to_contract(indexed, lists_as_json=lists_as_json)
    # A row whose text the reader could not read as written fails for that alone: its mended
    # text ("\xe9" in passages' JSON) would fail other checks for the reader's doing.
    marked_rows = unreadable.select(pl.col("row").alias(_ROW))
    type_failures = type_failures.join(unreadable, on="row", how="anti")
    too_large = size_failures(typed, _ROW, limits).cast(QUARANTINE_COLUMNS)  # type: ignore[arg-type]
    # A value lost in the cast would also fail "is_null": report only the cast failure.
    unchecked = pl.concat([too_large.select(pl.col("row").alias(_ROW)), marked_rows])
    check_failures = _check_failures(typed.join(unchecked, on=_ROW, how="anti")).join(
        type_failures.select("row", "column"), on=["row", "column"], how="anti"
    )
    failures = pl.concat([unreadable, type_failures, too_large, check_failures])
    failures = failures.unique(maintain_order=True)
    if failures.height == 0:  # the usual batch: nothing to take out
        valid = typed.drop(_ROW)
    else:
        bad_rows = failures.select(pl.col("row").alias(_ROW)).unique()
        valid = typed.join(bad_rows, on=_ROW, how="anti").sort(_ROW).drop(_ROW)
    return ValidatedBatch(
        valid=valid.select(*CONTRACT_TYPES, segments=_segments(valid)),
        quarantined=_with_rows(failures, indexed, limits),
    )


def _marked_failures(frame: pl.DataFrame, mark: str, check: str) -> pl.DataFrame:
    """`<column>_<check>` for each column the reader named under `mark`: half a UTF-16 pair
    (`lone_surrogate`) or a byte UTF-8 cannot hold (`not_utf8`), its value as the file spells
    it (`\\ud83d`, six characters; `\\xe9`, four)."""
    if mark not in frame.columns:
        return pl.DataFrame(schema=QUARANTINE_COLUMNS)
    named = frame.select(_ROW, column=pl.col(mark)).explode("column").drop_nulls()
    if mark == WRONG_TYPE:  # a segment holds any value
        named = named.filter(pl.col("column").is_in(list(CONTRACT_TYPES)))
    found = [
        frame.join(named.filter(pl.col("column") == name), on=_ROW, how="semi").select(
            row=pl.col(_ROW),
            check=pl.lit(f"{name}_{check}"),
            column=pl.lit(name),
            value=_as_text(pl.col(name), frame.schema[name])
            if name in frame.columns
            else pl.lit(None, dtype=pl.String),
        )
        for name in named["column"].unique(maintain_order=True)
    ]
    return pl.concat([pl.DataFrame(schema=QUARANTINE_COLUMNS), *found]).cast(QUARANTINE_COLUMNS)  # type: ignore[arg-type]


def _segments(frame: pl.DataFrame) -> pl.Expr:
    """Every non-contract column, as text, in one JSON object per row: the row's segments.

    JSON (not a list of structs) because it is ~50x cheaper to build here, and DuckDB stores
    it as it is, in the JSON column `case_scores.segments`. polars' encoder writes the keys,
    so a column named with quotes, backslashes or newlines round-trips exactly.
    """
    extra = sorted(name for name in frame.columns if name not in CONTRACT_TYPES)
    if not extra:
        return pl.lit("{}", dtype=pl.String)
    schema = frame.schema  # built anew at each call: once, not once a column (5,000: 40 s)
    values = [_as_text(pl.col(name), schema[name]).alias(name) for name in extra]
    return pl.struct(values).struct.json_encode()


def content_case_ids(raw: pl.DataFrame, *, lists_as_json: bool = False) -> pl.Series:
    """`--case-id content`: each row's id from its content as the contract reads it, the
    first 32 hex digits of the SHA-256 of the JSON array [input, actual_output,
    retrieval_context, logged_at as ISO-8601 UTC] (compact, UTF-8): the same row read from
    Parquet, CSV or JSON gets the same id, and any change to those four is a new case."""
    parts = {}
    for column in ("input", "actual_output", "retrieval_context", "logged_at"):
        wanted = CONTRACT_TYPES[column]
        if column not in raw.columns:
            parts[column] = pl.lit(None, dtype=wanted)
            continue
        cast, _ = _cast_expr(pl.col(column), raw.schema[column], wanted, lists_as_json)
        parts[column] = cast
    typed = raw.select(**parts)
    ids = [
        hashlib.sha256(
            json.dumps(
                [text, answer, passages, at.isoformat() if at else None],
                ensure_ascii=False,
                separators=(",", ":"),
            ).encode()
        ).hexdigest()[:32]
        for text, answer, passages, at in typed.iter_rows()
    ]
    return pl.Series("case_id", ids, dtype=pl.String)


def _cast_to_contract(
    frame: pl.DataFrame, *, lists_as_json: bool = False
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Each contract column cast to its type; a value that cannot be cast is a failure."""
    casts = []
    checked: dict[str, str] = {}  # column -> the check naming values its cast loses
    for column, wanted in CONTRACT_TYPES.items():
        if column not in frame.columns:
            casts.append(pl.lit(None, dtype=wanted).alias(column))
            continue
        cast, check = _cast_expr(pl.col(column), frame.schema[column], wanted, lists_as_json)
        casts.append(cast.alias(column))
        if check is not None:
            checked[column] = check
    typed = frame.with_columns(casts)
    # Each cast is computed once (parsing text timestamps is the costly one): losses are
    # read off the typed frame.
    failures = [
        frame.filter(pl.col(column).is_not_null() & typed[column].is_null()).select(
            row=pl.col(_ROW),
            check=pl.lit(check),
            column=pl.lit(column),
            value=_as_text(pl.col(column), frame.schema[column]),
        )
        for column, check in checked.items()
    ]
    found = pl.concat(failures) if failures else pl.DataFrame(schema=QUARANTINE_COLUMNS)
    return typed, found.cast(pl.Schema(QUARANTINE_COLUMNS))


def _cast_expr(  # noqa: PLR0911 - one return per kind of cast reads best
    column: pl.Expr, have: pl.DataType, wanted: pl.DataType, lists_as_json: bool = False
) -> tuple[pl.Expr, str | None]:
    """The cast of one column and the check name for values it loses (None: loses nothing)."""
    if have == wanted:
        return column, None
    if wanted == pl.Datetime("us"):  # faith_udfs/timestamps.py: epoch numbers too
        times = naive_utc(column, have)
        if times is None:
            return pl.lit(None, dtype=wanted), "logged_at_wrong_type"
        if isinstance(have, pl.Datetime) or have == pl.Date:
            return times, None
        return times, "logged_at_unparseable" if _is_text(have) else "logged_at_wrong_type"
    if isinstance(wanted, pl.List):
        # list[null]: a file whose every list is [] or [null] (nothing to tell the type by)
        if isinstance(have, pl.List | pl.Array) and (_is_text(have.inner) or have.inner == pl.Null):
            return column.cast(wanted), None
        if isinstance(have, pl.Null):
            return column.cast(wanted), None
        if lists_as_json and _is_text(have):
            decoded = column.cast(pl.String).map_batches(
                _json_lists, return_dtype=wanted, is_elementwise=True
            )
            return decoded, "retrieval_context_not_a_list_of_strings"
        return pl.lit(None, dtype=wanted), "retrieval_context_not_a_list_of_strings"
    # A whole number read as a decimal of scale 0 too: DuckDB's HUGEINT, a JSON id past int64
    if _is_text(have) or have.is_integer() or (isinstance(have, pl.Decimal) and have.scale == 0):
        return column.cast(pl.String), None
    return pl.lit(None, dtype=wanted), f"{_name(column)}_wrong_type"


def _json_lists(text: pl.Series) -> pl.Series:
    """JSON text to lists of strings, value by value; null where a value is not a JSON array
    of strings (its cast fails, and the row is quarantined with the text as it was)."""
    decoded: list[list[str] | None] = []
    for value in text:
        try:
            found = json.loads(value) if value is not None else None
        except (ValueError, RecursionError):  # RecursionError: nested past Python's limit
            found = None
        ok = isinstance(found, list) and all(isinstance(item, str | None) for item in found)
        if ok and "\\u" in value:  # an escape may write half a UTF-16 pair, no UTF-8 text's
            ok = all(item is None or is_utf8(item) for item in found or [])
        decoded.append(found if ok else None)
    return pl.Series(text.name, decoded, dtype=pl.List(pl.String))


def _is_text(dtype: pl.DataType | DataTypeClass) -> bool:
    return dtype == pl.String or isinstance(dtype, pl.Categorical | pl.Enum)


def _name(column: pl.Expr) -> str:
    return column.meta.output_name()


def _as_text(column: pl.Expr, dtype: pl.DataType) -> pl.Expr:
    """A value as text: strings, numbers, times and booleans as polars writes them, binary
    as base64, durations as ISO-8601 (`PT90S`), lists and structs as JSON."""
    if dtype == pl.Binary:
        return column.bin.encode("base64")
    if (
        _is_text(dtype)
        or dtype.is_numeric()
        or (dtype.is_temporal() and dtype != pl.Duration)
        or dtype in (pl.Boolean, pl.Null)
    ):
        return column.cast(pl.String)
    # Anything else through the JSON encoder, under a fixed key read back by path: a text
    # value comes out unquoted, a list or struct as its JSON, a null as null.
    encoded = pl.struct(_json_ready(column, dtype).alias("v")).struct.json_encode()
    return encoded.str.json_path_match("$.v")


def _json_ready(column: pl.Expr, dtype: pl.DataType | DataTypeClass) -> pl.Expr:
    """The column with every binary value inside it as base64 text: polars' JSON encoder
    panics on binary (polars 2.1), at any depth."""
    if not _holds_binary(dtype):
        return column
    if dtype == pl.Binary:
        return column.bin.encode("base64")
    if isinstance(dtype, pl.List | pl.Array):
        listed = column.cast(pl.List(dtype.inner)) if isinstance(dtype, pl.Array) else column
        return listed.list.eval(_json_ready(pl.element(), dtype.inner))
    if not isinstance(dtype, pl.Struct):  # _holds_binary found binary: a struct holds it
        return column
    fields = [_json_ready(column.struct.field(f.name), f.dtype).alias(f.name) for f in dtype.fields]
    return pl.when(column.is_not_null()).then(pl.struct(fields))


def _holds_binary(dtype: pl.DataType | DataTypeClass) -> bool:
    if isinstance(dtype, pl.List | pl.Array):
        return _holds_binary(dtype.inner)
    if isinstance(dtype, pl.Struct):
        return any(_holds_binary(f.dtype) for f in dtype.fields)
    return dtype == pl.Binary


def _check_failures(typed: pl.DataFrame) -> pl.DataFrame:
    """Row-level failures of the `Cases` model (all of them: lazy validation)."""
    contract = typed.select(_ROW, *CONTRACT_TYPES)
    try:
        with _contract_settings():
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


def _contract_settings() -> AbstractContextManager[None]:
    """Pandera settings of the contract, over whatever its environment or global config says:
    `PANDERA_VALIDATION_ENABLED=False` or `..._DEPTH=SCHEMA_ONLY` must not let rows through."""
    _use_native_polars_backends()
    return config_context(
        validation_enabled=True,
        validation_depth=ValidationDepth.SCHEMA_AND_DATA,
        cache_dataframe=False,
        keep_cached_dataframe=False,
    )


def _use_native_polars_backends() -> None:
    """Validate with pandera's own polars backends even under `PANDERA_USE_NARWHALS_BACKEND`,
    whose backend fails on valid batches (pandera 0.35). Process-wide, as pandera's registry is."""
    # Let pandera register what its config asks for (cached per flag), then put the native
    # backends back over it: later registration calls hit that cache and change nothing.
    register_polars_backends(use_narwhals_backend=get_config_global().use_narwhals_backend)
    registered = DataFrameSchema.BACKEND_REGISTRY.get((DataFrameSchema, pl.DataFrame))
    if registered is not DataFrameSchemaBackend:
        register_polars_backends.__wrapped__(use_narwhals_backend=False)


def _with_rows(failures: pl.DataFrame, indexed: pl.DataFrame, limits: SizeLimits) -> pl.DataFrame:
    """Attach the offending row (as JSON) and its case_id to each failure; text past its
    limit is kept as its start and its size (schemas/sizes.py)."""
    if failures.height == 0:
        return failures.with_columns(
            case_id=pl.lit(None, dtype=pl.String), row_json=pl.lit(None, dtype=pl.String)
        )
    failed = indexed.join(failures.select(pl.col("row").alias(_ROW)).unique(), on=_ROW, how="semi")
    failed = failed.with_columns(_capped_texts(failed.schema, limits))
    columns = [_json_ready(pl.col(name), dtype) for name, dtype in failed.schema.items()]
    rows = failed.select(
        pl.col(_ROW).alias("row"),
        case_id=_case_id_text(failed),
        row_json=pl.struct(columns[1:]).struct.json_encode(),  # [0] is the row index
    )
    return failures.join(rows, on="row", how="left").sort("row", "check")


def _capped_texts(schema: pl.Schema, limits: SizeLimits) -> list[pl.Expr]:
    """The text columns that size limits apply to, capped, where they hold text."""
    limited = {
        "input": limits.answer_bytes,
        "actual_output": limits.answer_bytes,
        "retrieval_context": limits.context_bytes,
    }
    return [
        capped(name, schema[name], limit)
        for name, limit in limited.items()
        if name in schema and schema[name] in (pl.String, pl.List(pl.String))
    ]


def _case_id_text(frame: pl.DataFrame) -> pl.Expr:
    if "case_id" not in frame.columns:
        return pl.lit(None, dtype=pl.String)
    dtype = frame.schema["case_id"]
    return _as_text(pl.col("case_id"), dtype) if dtype != pl.String else pl.col("case_id")


__all__ = [
    "CONTRACT_TYPES",
    "LONE_SURROGATES",
    "NOT_UTF8",
    "NOT_UTF8_MARK",
    "WRONG_TYPE",
    "ValidatedBatch",
    "content_case_ids",
    "parse_timestamps",
    "validate_cases",
]
