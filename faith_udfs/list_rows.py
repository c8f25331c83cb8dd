"""Lists taken apart and put back: a list column exploded for a flat step, then rebuilt with
the lengths it had (a flat Series is cheaper to filter, scatter and compute on in steps than a
`list.eval` expression, which cannot share a result between two of its uses)."""

from __future__ import annotations

import numpy as np
import polars as pl
import pyarrow as pa


def as_lists(values: pl.Series, like: pl.Series) -> pl.Series:
    """`values` (one per row of `like` exploded) as lists of `like`'s lengths: explode drops an
    empty list and makes a null one a null row."""
    lengths = like.list.len().fill_null(1).to_numpy()
    offsets = np.concatenate([[0], np.cumsum(lengths, dtype=np.int64)])
    if offsets[-1] != values.len():
        raise ValueError(f"{values.len()} values for lists of {offsets[-1]}")
    # (offsets through polars: pyarrow's pa.array() of a numpy array imports pandas to look)
    lists = pa.LargeListArray.from_arrays(pl.Series(offsets).to_arrow(), values.to_arrow())
    rebuilt = pl.Series(values.name, lists).cast(pl.List(values.dtype))
    return rebuilt if like.null_count() == 0 else rebuilt.zip_with(like.is_not_null(), like)
