"""The types of the two columns the metric reads, checked before anything is computed: a
wrong type is one TypeError that names the column and the fix, never an error from deep
inside polars, and a column of nulls is read as missing text (a blank answer, no passage)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import polars as pl

if TYPE_CHECKING:  # a private module of polars: types only, never imported at run time
    from polars._typing import PolarsDataType

# A frame of pandas or Arrow may carry text as categories (dictionary-encoded) or, with
# every value missing, as the Null type: both are text to the metric.
_TEXT = (pl.String, pl.Null)


def is_text(dtype: PolarsDataType) -> bool:
    """Whether a column of `dtype` holds text (or nothing at all)."""
    return dtype in _TEXT or isinstance(dtype, pl.Categorical | pl.Enum)


def check_case_columns(schema: pl.Schema) -> None:
    """Refuse an `actual_output` that is not text and a `retrieval_context` that is not a
    list of texts (one string is not a list of passages, at every entry point:
    docs/conversations.md)."""
    answer = schema.get("actual_output")
    if answer is not None and not is_text(answer):
        raise TypeError(f"actual_output must be text, got {answer}: one answer a row, as a string")
    context = schema.get("retrieval_context")
    if context is None or context == pl.Null:
        return
    if isinstance(context, pl.List | pl.Array) and is_text(context.inner):
        return
    if is_text(context):
        raise TypeError(
            f"retrieval_context must be a list of strings, got {context}: wrap one passage "
            "as [text] (the pipeline quarantines it as retrieval_context_not_a_list_of_strings)"
        )
    raise TypeError(
        f"retrieval_context must be a list of strings, got {context}: each passage a string"
    )


def as_case_columns(cases: pl.DataFrame) -> pl.DataFrame:
    """`cases` with `actual_output` as String and `retrieval_context` as List(String), once
    check_case_columns accepted them; a frame already so is returned as it is."""
    wanted = {"actual_output": pl.String(), "retrieval_context": pl.List(pl.String())}
    casts = {name: dtype for name, dtype in wanted.items() if cases.schema[name] != dtype}
    return cases.cast(casts) if casts else cases  # type: ignore[arg-type]
