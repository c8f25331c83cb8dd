"""How much text one row may hold to be judged: larger rows are quarantined before anything
hashes, stores or judges them, so a single huge answer cannot exhaust memory every night."""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from faith_udfs.sentence_pairs import DEFAULT_MAX_SENTENCE_PAIRS, past_sentence_pairs
from faith_udfs.sentence_pairs import text_bytes as utf8_bytes

# A logged answer (or question) is rarely above a few KB; 1 MiB leaves room for any real one.
DEFAULT_MAX_ANSWER_BYTES = 1 << 20
# A case's passages together: RAG contexts are tens of KB; 8 MiB leaves room for long ones.
DEFAULT_MAX_CONTEXT_BYTES = 8 << 20
# The limit on answer sentences times context sentences, and how they are counted, are the
# metric's own (faith_udfs/sentence_pairs.py): score_cases, evaluate() and measure() refuse
# a case past it as `faith score` quarantines its row.
# What of an oversized value the quarantine keeps: its start, then how large it was.
KEPT_CHARS = 1024
KEPT_PASSAGES = 16


@dataclass(frozen=True)
class SizeLimits:
    """Bytes (UTF-8) of one row's text that may be judged: `answer_bytes` for `actual_output`
    and `input` each, `context_bytes` for the `retrieval_context` passages together."""

    answer_bytes: int = DEFAULT_MAX_ANSWER_BYTES
    context_bytes: int = DEFAULT_MAX_CONTEXT_BYTES
    # answer sentences times context sentences, counted as the judge cuts them (at most)
    sentence_pairs: int = DEFAULT_MAX_SENTENCE_PAIRS


# check name, column, option that sets its limit
SIZE_CHECKS = (
    ("actual_output_too_large", "actual_output", "--max-answer-bytes"),
    ("input_too_large", "input", "--max-answer-bytes"),
    ("retrieval_context_too_large", "retrieval_context", "--max-context-bytes"),
)


def text_bytes(column: str, dtype: pl.DataType) -> pl.Expr:
    """UTF-8 bytes of a text column, or of a list of texts added up (null counts 0)."""
    return utf8_bytes(column, dtype).fill_null(0)


def size_failures(typed: pl.DataFrame, row: str, limits: SizeLimits) -> pl.DataFrame:
    """One quarantine row (`row`, `check`, `column`, `value`) per text column of a row past
    its limit; `value` says how large it was, never the text itself."""
    found = []
    for check, column, option in SIZE_CHECKS:
        limit = limits.context_bytes if column == "retrieval_context" else limits.answer_bytes
        size = text_bytes(column, typed.schema[column])
        found.append(
            typed.filter(size > limit).select(
                row=pl.col(row),
                check=pl.lit(check),
                column=pl.lit(column),
                # not pl.format: after a filter of a frame with a row index, polars 2.1
                # panics in it ("assertion failed: i < self.len()"); concat_str does not
                value=pl.concat_str(
                    size.cast(pl.String), pl.lit(f" bytes, more than {option} {limit}")
                ),
            )
        )
    return pl.concat([*found, _pairs_failures(typed, row, limits)])


def _pairs_failures(typed: pl.DataFrame, row: str, limits: SizeLimits) -> pl.DataFrame:
    """`too_many_sentence_pairs` for a row within its byte limits whose answer sentences times
    context sentences pass `limits.sentence_pairs`: the judge's memory grows with that product."""
    schema = typed.schema
    within = [
        text_bytes(column, schema[column])
        <= (limits.context_bytes if column == "retrieval_context" else limits.answer_bytes)
        for _, column, _ in SIZE_CHECKS
    ]
    limit = limits.sentence_pairs
    answer, context = pl.col("answer_sentences"), pl.col("context_sentences")
    return past_sentence_pairs(typed.filter(pl.all_horizontal(within)), limit).select(
        row=pl.col(row),
        check=pl.lit("too_many_sentence_pairs"),
        column=pl.lit("actual_output"),
        value=pl.concat_str(
            answer.cast(pl.String),
            _sentences(answer, " answer"),
            pl.lit(" x "),
            context.cast(pl.String),
            _sentences(context, " context"),
            pl.lit(f", more than --max-sentence-pairs {limit}"),
        ),
    )


def _sentences(count: pl.Expr, kind: str) -> pl.Expr:
    """` answer sentence` after a count of 1, ` answer sentences` after any other."""
    return (
        pl.when(count == 1).then(pl.lit(f"{kind} sentence")).otherwise(pl.lit(f"{kind} sentences"))
    )


def capped(column: str, dtype: pl.DataType, limit: int) -> pl.Expr:
    """A text (or list of texts) column as the quarantine keeps it: values over `limit` bytes
    cut to their start plus how large they were; others as they are."""
    size = text_bytes(column, dtype)
    if isinstance(dtype, pl.List):
        cut = pl.concat_list(
            pl.col(column)
            .list.head(KEPT_PASSAGES)
            .list.eval(pl.element().str.slice(0, KEPT_CHARS)),
            pl.concat_str(
                pl.lit("… ["),
                size.cast(pl.String),
                pl.lit(" bytes in "),
                pl.col(column).list.len().cast(pl.String),
                pl.lit(" passages]"),
            ),
        )
    else:
        cut = pl.concat_str(
            pl.col(column).str.slice(0, KEPT_CHARS),
            pl.lit("… ["),
            size.cast(pl.String),
            pl.lit(" bytes]"),
        )
    return pl.when(size > limit).then(cut).otherwise(pl.col(column)).alias(column)


__all__ = [
    "DEFAULT_MAX_ANSWER_BYTES",
    "DEFAULT_MAX_CONTEXT_BYTES",
    "DEFAULT_MAX_SENTENCE_PAIRS",
    "SIZE_CHECKS",
    "SizeLimits",
    "capped",
    "size_failures",
]
