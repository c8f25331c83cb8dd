"""`score_frame`: a DataFrame user's entry point. Any column names (the CLI's `--columns`
mapping), polars, pandas or pyarrow in, the caller's own frame type out, inputs kept."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import sys
from collections.abc import Iterator, Mapping
from datetime import datetime
from typing import Any

import polars as pl
import pyarrow as pa
import pyarrow.compute as pc

from faith_udfs.case_columns import check_case_columns
from faith_udfs.config import MetricConfig
from faith_udfs.deepeval_models import judge_of
from faith_udfs.grounded import GroundedJudge
from faith_udfs.metric import score_cases
from faith_udfs.sentence_pairs import DEFAULT_MAX_SENTENCE_PAIRS
from faith_udfs.timestamps import naive_utc
from faith_udfs.words import is_utf8

CONTRACT_NAMES = ("case_id", "input", "actual_output", "retrieval_context", "logged_at")
ACCEPTED = "a polars DataFrame, a pandas DataFrame or a pyarrow Table"
# What **metric_settings may hold: MetricConfig's fields but the rules version, the code's.
METRIC_SETTINGS = tuple(
    f.name for f in dataclasses.fields(MetricConfig) if f.name != "scoring_rules_version"
)
# The score columns joined onto the caller's rows (the rest of case_scores stays in the tables).
SCORE_COLUMNS = (
    "score", "success", "threshold", "status", "reason", "error", "no_claims",
    "n_truths", "n_claims", "n_yes", "n_no", "n_idk", "n_dropped", "config_id",
)  # fmt: skip


# One `NAME="COLUMN"` of `--columns`: a column in double quotes, a quote in it doubled, holds
# commas (`actual_output="answer, final"`).
_QUOTED = re.compile(r'\s*([^=,]*)=\s*"((?:[^"]|"")*)"\s*(?:,|$)')


def _mapping_parts(text: str) -> Iterator[tuple[str, str, str]]:
    """`--columns`' parts as (part, name, column): split at commas, but within double quotes."""
    at = 0
    while at < len(text):
        quoted = _QUOTED.match(text, at)
        if quoted:  # its column as written between the quotes, spaces too
            at = quoted.end()
            part = quoted.group(0).rstrip().removesuffix(",")
            yield part, quoted.group(1), quoted.group(2).replace('""', '"')
            continue
        end = text.find(",", at)
        end = len(text) if end < 0 else end
        part, at = text[at:end], end + 1
        name, _, column = part.partition("=")
        yield part, name, column.strip()


def parse_columns(text: str | Mapping[str, str] | None) -> dict[str, str]:
    """`input=question,actual_output=answer` (the CLI's `--columns`; a column whose name holds
    a comma in double quotes, `actual_output="answer, final"`) or a mapping ->
    {contract name: source column}."""
    if isinstance(text, Mapping):
        return {str(k): str(v) for k, v in text.items()}
    mapping: dict[str, str] = {}
    for part, written, column in _mapping_parts(text or ""):
        name = written.strip()
        if not part.strip():
            continue
        if not name or not column.strip():
            raise ValueError(
                f"--columns {part.strip()!r}: write CONTRACT_NAME=SOURCE_COLUMN (a column whose "
                'name holds a comma in double quotes: actual_output="answer, final")'
            )
        if mapping.get(name, column) != column:  # which one was meant cannot be told
            raise ValueError(f"--columns {name}: named twice, as {mapping[name]} and {column}")
        mapping[name] = column
    return mapping


def content_case_id(
    text: str | None, answer: str | None, passages: list[str] | None, at: datetime | None
) -> str:
    """`--case-id content`'s id: the first 32 hex digits of the SHA-256 of the compact JSON
    array [input, actual_output, retrieval_context, logged_at as ISO-8601]."""
    payload = [text, answer, passages, at.isoformat() if at else None]
    encoded = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()
    return hashlib.sha256(encoded).hexdigest()[:32]


def score_frame(
    frame: Any,
    *,
    judge: Any = None,
    columns: str | Mapping[str, str] | None = None,
    case_id: str = "given",
    claims: bool = False,
    max_sentence_pairs: int | None = DEFAULT_MAX_SENTENCE_PAIRS,
    **metric_settings: Any,
) -> Any:
    """Score every row of `frame`; return its rows with the score columns joined on (and, with
    `claims=True`, a pair (scores, claim_verdicts)), in the caller's frame type.

    `columns` maps contract names onto the frame's (`{"actual_output": "answer"}` or the CLI's
    `input=question,...`); `case_id="content"` makes ids from the content, `"row"` from the row
    number, `"given"` reads them (a frame without case_id gets row numbers).
    """
    check_settings(metric_settings)
    mapping = parse_columns(columns)
    kind, polars_frame = _to_polars(frame, {mapping.get(name, name) for name in CONTRACT_NAMES})
    names = frame.column_names if kind == "arrow" else polars_frame.columns
    unknown = sorted(set(mapping) - set(CONTRACT_NAMES))
    if unknown:  # a typo (`imput`) would leave its column unread, silently
        raise ValueError(
            f"columns maps {', '.join(unknown)}: not a case column "
            f"(choose from {', '.join(CONTRACT_NAMES)})"
        )
    missing = [source for source in mapping.values() if source not in names]
    if missing:
        raise ValueError(f"columns maps from {missing}, which the frame lacks")
    taken = [name for name in SCORE_COLUMNS if name in names]
    if taken:  # the join would keep the caller's and add ours as score_right
        raise ValueError(
            f"the frame has columns {', '.join(taken)} already, which score_frame adds: "
            "rename or drop them (to score a scored frame again, select its input columns)"
        )
    contract = polars_frame.select(
        pl.col(mapping.get(name, name)).alias(name)
        for name in CONTRACT_NAMES
        if mapping.get(name, name) in polars_frame.columns
    )
    for name in ("actual_output", "retrieval_context"):
        if name not in contract.columns:
            raise ValueError(f"the frame has no {name} column; map one with columns=")
    if kind == "pandas":  # pandas types a column of nothing but None as text, of NaN as float
        contract = contract.with_columns(
            pl.col(name).cast(pl.Null)
            for name in ("actual_output", "retrieval_context")
            if contract[name].null_count() == contract.height
        )
    check_case_columns(contract.schema)  # before the casts below turn a wrong type into text
    ids = _case_ids(contract, case_id)
    cases = pl.DataFrame(
        {
            "case_id": ids,
            "actual_output": contract["actual_output"].cast(pl.String),
            "retrieval_context": contract["retrieval_context"].cast(pl.List(pl.String)),
        }
    )
    if case_id == "content":  # a repeated row is the same case: scored once, on every copy
        cases = cases.unique("case_id", keep="first", maintain_order=True)
    elif cases["case_id"].n_unique() != cases.height:
        raise ValueError("case_id repeats: pass case_id='row' or case_id='content'")
    the_judge = GroundedJudge() if judge is None else judge_of(judge)
    config = MetricConfig(**metric_settings)
    frames = score_cases(cases, the_judge, config, max_sentence_pairs=max_sentence_pairs)
    scores = frames.case_scores.select("case_id", *SCORE_COLUMNS)
    joined = polars_frame.drop([c for c in ("case_id",) if c in polars_frame.columns]).hstack(
        [ids.cast(pl.String).alias("case_id")]
    )
    out = joined.join(scores, on="case_id", how="left", maintain_order="left")
    if kind == "arrow":  # the caller's own columns, as given (string_view stays string_view)
        added = out.select("case_id", *SCORE_COLUMNS).to_arrow()
        given = frame.drop_columns([c for c in ("case_id",) if c in names])
        result = pa.Table.from_arrays(
            [*given.columns, *added.columns], names=[*given.column_names, *added.column_names]
        )
    else:
        result = _from_polars(kind, out)
    if kind == "pandas":
        result.index = frame.index  # the caller's rows, under the caller's index
    if claims:
        return result, _from_polars(kind, frames.claim_verdicts)
    return result


def check_settings(settings: Mapping[str, Any]) -> None:
    """Refuse a keyword that is no metric setting, naming the settings (DeepEval's `model=`
    is `judge=` here; `scoring_rules_version` is the code's, never the caller's)."""
    for name in settings:
        if name not in METRIC_SETTINGS:
            hint = (
                "the judge is judge= (a FaithfulnessMetric model= value); "
                if name == "model"
                else ""
            )
            raise TypeError(
                f"score_frame() got an unexpected keyword argument {name!r}: {hint}metric "
                f"settings are {', '.join(METRIC_SETTINGS)}"
            )


def _case_ids(contract: pl.DataFrame, how: str) -> pl.Series:
    if how == "content":
        columns = ("input", "actual_output", "retrieval_context", "logged_at")
        rows = (
            contract.select(
                _id_part(contract, c) if c in contract.columns else pl.lit(None).alias(c)
                for c in columns
            )
            .with_columns(logged_at=_logged_at(contract))
            .iter_rows()
        )
        return pl.Series("case_id", [content_case_id(*row) for row in rows], dtype=pl.String)
    if how == "row" or (how == "given" and "case_id" not in contract.columns):
        return pl.int_range(contract.height, eager=True).cast(pl.String).alias("case_id")
    if how == "given":
        ids = contract["case_id"].cast(pl.String)
        if ids.null_count():  # a null id never joins its scores back onto its row
            nulls = ids.is_null().arg_true().to_list()
            shown = ", ".join(map(str, nulls[:5])) + (", ..." if len(nulls) > 5 else "")
            many = "s" if len(nulls) > 1 else ""
            raise ValueError(
                f"case_id is null in {len(nulls)} row{many} (row{many} {shown}): give every "
                "row an id, or pass case_id='row' or case_id='content'"
            )
        return ids
    raise ValueError(f"case_id={how!r}: choose given, row or content")


def _id_part(contract: pl.DataFrame, column: str) -> pl.Expr:
    """A column as the CLI's content id reads it: a whole-number question or answer as its
    text (the contract's cast, schemas/contract.py), so `5` hashes as `"5"` does there."""
    have = contract.schema[column]
    whole = have.is_integer() or (isinstance(have, pl.Decimal) and have.scale == 0)
    return pl.col(column).cast(pl.String) if whole else pl.col(column)


def _logged_at(contract: pl.DataFrame) -> pl.Series:
    """logged_at as `faith score` reads it (naive UTC, from text, an offset, a date or an
    epoch number), so that content ids are the CLI's; a value that reads as no time is a
    ValueError: the CLI quarantines its row."""
    if "logged_at" not in contract.columns:
        return pl.Series("logged_at", [None] * contract.height, dtype=pl.Datetime("us"))
    given = contract["logged_at"]
    times = naive_utc(pl.col("logged_at"), given.dtype)
    read = contract.select(pl.lit(None, pl.Datetime("us")) if times is None else times)
    lost = (given.is_not_null() & read.to_series().is_null()).arg_true()
    if len(lost):
        row = lost[0]
        raise ValueError(
            f"logged_at {given[row]!r} (row {row}) is no time: case_id='content' hashes "
            "logged_at as faith score reads it (a datetime, a date, ISO-8601 text or an epoch "
            "number); mend it, or drop logged_at"
        )
    return read.to_series().alias("logged_at")


def _to_polars(frame: Any, read: set[str]) -> tuple[str, pl.DataFrame]:
    """(the caller's frame type, the frame as polars); pandas is looked at only if loaded. Of
    an Arrow table only the columns named `read` are: the others go back as they came."""
    if isinstance(frame, pl.DataFrame):
        return "polars", frame
    if isinstance(frame, pl.LazyFrame):  # scored now, handed back lazy
        return "lazy", frame.collect()
    if isinstance(frame, pa.Table):
        return "arrow", pl.DataFrame(
            [_arrow_column(frame, name) for name in frame.column_names if name in read]
        )
    pandas = sys.modules.get("pandas")
    if pandas is not None and isinstance(frame, pandas.DataFrame):
        return "pandas", _from_pandas(frame.reset_index(drop=True))
    raise TypeError(f"score_frame takes {ACCEPTED}, got {type(frame).__name__}")


def _arrow_column(table: pa.Table, name: str) -> pl.Series:
    """One column of an Arrow table as polars; a list_view (pyarrow 16+) as the list it
    views, which polars cannot read; a type polars cannot hold is a TypeError naming it."""
    column = table.column(name)
    try:
        chunks = [_viewless(chunk) for chunk in column.chunks]
        return pl.Series(name, pa.chunked_array(chunks, type=_viewless_type(column.type)))
    except (pa.ArrowException, pl.exceptions.PolarsError) as exc:
        raise TypeError(
            f"column {name!r} is Arrow {column.type}, which cannot be read "
            f"({str(exc).strip().splitlines()[0]}): text for actual_output, a list of texts "
            "for retrieval_context"
        ) from None


def _viewless_type(kind: pa.DataType) -> pa.DataType:
    if pa.types.is_list_view(kind) or pa.types.is_large_list_view(kind):
        return pa.large_list(_viewless_type(kind.value_type))
    return kind


def _viewless(array: pa.Array) -> pa.Array:
    """A list_view as a large_list of the same lists. Built from its lengths and flattened
    values: pyarrow 26's cast from list_view to a list writes an invalid array."""
    if not (pa.types.is_list_view(array.type) or pa.types.is_large_list_view(array.type)):
        return array
    lengths = pc.fill_null(pc.list_value_length(array), 0).cast(pa.int64())
    offsets = pa.concat_arrays([pa.array([0], pa.int64()), pc.cumulative_sum(lengths)])
    values = _viewless(pc.list_flatten(array))
    return pa.LargeListArray.from_arrays(offsets, values, mask=array.is_null())


def _from_pandas(frame: Any) -> pl.DataFrame:
    """The pandas frame as polars; a column that mixes types (a list in one row, a string in
    the next) is a TypeError naming it, not Arrow's error without a name. Which error
    polars raises depends on the first row: a list first is Arrow's or polars', a string
    first a bare TypeError ("'list' object is not an instance of 'str'")."""
    unreadable = (pa.ArrowException, pl.exceptions.PolarsError, TypeError)
    _refuse_mixed_bytes(frame)
    try:
        return pl.from_pandas(frame)
    except UnicodeEncodeError:  # a lone surrogate (a JSON log's "\ud83d"), naming nothing
        raise ValueError(_not_utf8(frame)) from None
    except unreadable as exc:
        for name in frame.columns:
            try:
                pl.from_pandas(frame[[name]])
            except unreadable as column_exc:
                raise TypeError(
                    f"column {name!r} mixes types ({str(column_exc).splitlines()[0]}): "
                    "give every row the same type (retrieval_context: a list of strings)"
                ) from exc
        raise


def _refuse_mixed_bytes(frame: Any) -> None:
    """A TypeError for bytes among a column's strings: Arrow types such a column as text and
    decodes them quietly (bytes alone are typed Binary, and refused by name later)."""
    pandas = sys.modules["pandas"]
    infer_dtype, missing = pandas.api.types.infer_dtype, (None, pandas.NA)
    for name in frame.columns:
        column = frame[name]
        if column.dtype != object or infer_dtype(column, skipna=True) != "mixed":
            continue
        for row, value in enumerate(column):
            if isinstance(value, bytes | bytearray):
                raise TypeError(
                    f"column {name!r}, row {row}: bytes, not text: decode them first (one "
                    "string a row)"
                )
            if not isinstance(value, str | float) and not any(value is m for m in missing):
                break  # a list or another value: Arrow types the column as no text (refused)


def _not_utf8(frame: Any) -> str:
    """Which column and row of a pandas frame hold text that is no UTF-8, for one line."""
    for name in frame.columns:
        for row, value in enumerate(frame[name]):
            texts = [value] if isinstance(value, str) else value if _is_sequence(value) else []
            if any(isinstance(t, str) and not is_utf8(t) for t in texts):
                return (
                    f"column {name!r}, row {row}: holds a lone surrogate (half of an emoji cut "
                    "in two?), not UTF-8 text: mend or drop it"
                )
    return "the frame holds text that is not UTF-8"


def _is_sequence(value: object) -> bool:
    return hasattr(value, "__iter__") and not isinstance(value, str | bytes | Mapping)


def _from_polars(kind: str, frame: pl.DataFrame) -> Any:
    if kind == "lazy":
        return frame.lazy()
    if kind == "arrow":
        return frame.to_arrow()
    if kind == "pandas":
        return frame.to_pandas()
    return frame
