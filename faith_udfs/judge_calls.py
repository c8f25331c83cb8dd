"""Asking a judge for a batch so that one bad item cannot sink the others."""

from __future__ import annotations

from collections.abc import Callable

import polars as pl

from faith_udfs.errors import JudgeError
from faith_udfs.judges import crash_of, describe_error

_LEFT_OUT = "JudgeReplyError: the judge returned no answer for this item"

JudgeMethod = Callable[[pl.DataFrame], pl.DataFrame]
# A column's type as polars takes it: an instance (pl.List(pl.String)) or a class (pl.String).
ColumnType = pl.DataType | type[pl.DataType]


def ask_judge(
    method: JudgeMethod, items: pl.DataFrame, schema: dict[str, ColumnType]
) -> pl.DataFrame:
    """Call `method` on `items` and return one row per item key: the values of `schema`,
    `error` and `pending`.

    A judge that raises a judge error on the whole batch is asked again on halves until the
    failing items are isolated; each of those gets the error. An item the judge left out of
    its answer gets an error saying so. Any other exception, or an answer without the asked
    columns, is a bug in the judge: JudgeCrashed, naming the judge, stops the run.
    """
    columns: dict[str, ColumnType] = {
        "key": pl.UInt64,
        **schema,
        "error": pl.String,
        "pending": pl.Boolean,
    }
    if items.height == 0:
        return pl.DataFrame(schema=columns)
    try:
        answer = method(items)
        missing = [name for name in ("key", *schema) if name not in answer.columns]
        if missing:
            raise TypeError(f"judge answer lacks columns {missing}; has {answer.columns}")
    except JudgeError as exc:
        if items.height == 1:
            failed = pl.DataFrame(
                {
                    "key": items["key"],
                    "error": [describe_error(exc)],
                    "pending": [exc.case_status == "pending"],
                }
            )
            return _typed(failed, columns)
        half = items.height // 2
        return pl.concat(
            [
                ask_judge(method, items.slice(0, half), schema),
                ask_judge(method, items.slice(half), schema),
            ]
        )
    except Exception as exc:
        raise crash_of(method, exc) from exc
    return _conform(items.select("key"), answer, columns)


def _conform(
    keys: pl.DataFrame, answer: pl.DataFrame, columns: dict[str, ColumnType]
) -> pl.DataFrame:
    # one select (each eager step is a query of its own, the fixed cost of a small batch): no
    # `error` is null, no `pending` False, as typed as `columns`
    given = answer.columns
    pending = pl.col("pending").cast(pl.Boolean) if "pending" in given else pl.lit(False)
    answer = answer.select(
        pending.fill_null(False).alias(name)
        if name == "pending"
        else pl.col(name).cast(dtype)
        if name in given
        else pl.lit(None, dtype=dtype).alias(name)
        for name, dtype in columns.items()
    )
    if answer["key"].equals(keys["key"]) and answer["key"].is_unique().all():
        # One answer per item, in the items' order (what well-behaved judges return): nothing
        # to drop, nothing left out, no join needed.
        return answer
    answer = answer.unique("key", keep="first", maintain_order=True)
    joined = keys.join(answer, on="key", how="left", coalesce=True)
    left_out = pl.col("pending").is_null()
    return joined.with_columns(
        error=pl.when(left_out).then(pl.lit(_LEFT_OUT)).otherwise(pl.col("error")),
        pending=pl.col("pending").fill_null(False),
    )


def _typed(frame: pl.DataFrame, columns: dict[str, ColumnType]) -> pl.DataFrame:
    """`frame` with exactly `columns`, cast to their types; absent ones are null."""
    return frame.select(
        pl.col(name).cast(dtype) if name in frame.columns else pl.lit(None, dtype=dtype).alias(name)
        for name, dtype in columns.items()
    )
