"""Shapes of log for the benches: the project's generator, reshaped chunk by chunk.

- `support`: short answers (the first sentence), one or two short passages (support bots);
- `rag`: five passages of ~1 kB each, answers of about four sentences (RAG over documents);
- `repetitive`: nine cases in ten carry one of 64 (question, answer, passages), with their own
  case_id (an FAQ bot: the same passages across most cases);
- `chat`: the generator's answers as a chat bot words them, led by "Yes, " (so no answer is
  only sentences of its passages: the grounded judge computes every case's features), with
  the generator's passages (2.8 a case on average, ~80 B each).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator

import numpy as np
import polars as pl
import pyarrow as pa

SHAPES = ("support", "rag", "repetitive", "chat")


def shape_names(text: str) -> list[str]:
    """`--shape`'s argparse type: comma-separated shapes, one refused in argparse's line."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    if unknown := [name for name in names if name not in SHAPES]:
        raise argparse.ArgumentTypeError(f"no shape {', '.join(unknown)} ({', '.join(SHAPES)})")
    return names


_RAG_PASSAGES = 5
_RAG_PIECES = 13  # pool passages (~80 B) joined into one ~1 kB passage
_REPEATED = 64
_REPEATED_SHARE = 0.9


def _first_sentence(column: str) -> pl.Expr:
    first = pl.col(column).str.split(". ").list.first()
    return pl.when(first.str.ends_with(".")).then(first).otherwise(first + ".")


def support(frame: pl.DataFrame, rng: np.random.Generator) -> pl.DataFrame:
    """Short answers, few short passages."""
    keep = pl.Series(rng.integers(1, 3, frame.height), dtype=pl.Int64)
    return frame.with_columns(
        actual_output=_first_sentence("actual_output"),
        retrieval_context=pl.col("retrieval_context").list.head(pl.lit(keep)),
    )


def rag(frame: pl.DataFrame, rng: np.random.Generator) -> pl.DataFrame:
    """Five ~1 kB passages (each a case's own passage, or a drawn one, then twelve drawn ones),
    and an answer of the case's own plus the first sentence of three of its passages' pieces."""
    n = frame.height
    own = frame["retrieval_context"]
    lengths = own.list.len().to_numpy()
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    pool = own.explode().drop_nulls().to_arrow()
    picks = rng.integers(0, len(pool), (n, _RAG_PASSAGES, _RAG_PIECES))
    slot = np.arange(_RAG_PASSAGES)[None, :]
    mine = np.minimum(starts[:, None] + slot, len(pool) - 1)
    picks[:, :, 0] = np.where(slot < lengths[:, None], mine, picks[:, :, 0])
    pieces = pl.Series(pool.take(pa.array(picks.ravel())))
    passages = pieces.reshape((n * _RAG_PASSAGES, _RAG_PIECES)).arr.join(" ")
    context = passages.reshape((n, _RAG_PASSAGES)).arr.to_list()
    extra = pl.Series(pool.take(pa.array(picks[:, 0, 1:4].ravel()))).to_frame("s")
    sentences = extra.select(_first_sentence("s")).to_series().reshape((n, 3)).arr.join(" ")
    return frame.with_columns(
        retrieval_context=context,
        actual_output=pl.col("actual_output") + " " + sentences,
    )


def chat(frame: pl.DataFrame, rng: np.random.Generator) -> pl.DataFrame:
    """Answers led by "Yes, " and their first letter lower-cased: no longer word for word a
    passage's sentences; passages as generated."""
    answer = pl.col("actual_output")
    return frame.with_columns(
        actual_output=pl.lit("Yes, ") + answer.str.head(1).str.to_lowercase() + answer.str.slice(1)
    )


class Repetitive:
    """Most cases repeat one of a few (input, answer, passages), taken from the first chunk."""

    def __init__(self) -> None:
        self.pool: pl.DataFrame | None = None

    def __call__(self, frame: pl.DataFrame, rng: np.random.Generator) -> pl.DataFrame:
        content = ["input", "actual_output", "retrieval_context"]
        if self.pool is None:
            self.pool = frame.head(_REPEATED).select(content)
        pick = pl.Series(rng.integers(0, self.pool.height, frame.height))
        drawn = self.pool[pick.to_list()]
        repeat = pl.Series(rng.random(frame.height) < _REPEATED_SHARE)
        return frame.with_columns(
            pl.when(repeat).then(drawn[name]).otherwise(pl.col(name)).alias(name)
            for name in content
        )


def iter_shaped(rows: int, shape: str, *, seed: int = 1) -> Iterator[pl.DataFrame]:
    """The generator's chunks of `rows` cases, reshaped as `shape`."""
    from data.generate import iter_cases

    if shape not in SHAPES:
        raise ValueError(f"shape must be one of {SHAPES}, got {shape!r}")
    shapes: dict[str, Callable[[pl.DataFrame, np.random.Generator], pl.DataFrame]] = {
        "support": support,
        "rag": rag,
        "repetitive": Repetitive(),
        "chat": chat,
    }
    reshape = shapes[shape]
    rng = np.random.default_rng(seed + 1000)
    for frame in iter_cases(rows, seed=seed):
        yield reshape(frame, rng)
