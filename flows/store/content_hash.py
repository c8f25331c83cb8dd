"""Each case's content hash (`case_scores.content_hash`): DuckDB's MD5 of its JSON, made once
for each distinct content of a batch, in slices of bounded size.

An FAQ bot logs the same (question, answer, passages) under many case_ids; building the JSON
text of each copy was most of the cost of classifying such a batch (bench/pipeline.py, shape
`repetitive`). Copies are found exactly (polars compares the values, not a hash of them), so a
case's hash is always the MD5 of its own content.
"""

from __future__ import annotations

from collections.abc import Iterator

import duckdb
import numpy as np
import polars as pl

from flows.store.db import register, sql

# Content DuckDB hashes at a time: its JSON text of a case takes ~12 times the case's
# bytes while it is built (a 50 MB answer asked for 512 MiB), so a batch is hashed in slices
# of about this many bytes of content (plus, at most, the one case that starts last in it).
# It shares the store's 384 MB with a commit: 32 MB ran 12 cases of 3 MB passages out of it.
# Each slice is a query (~4 ms): a RAG batch of 150,000 cases takes ~100, 0.3 CPU-s more.
_HASH_SLICE_BYTES = 8 << 20
_HASHED = {"case_id": pl.String, "content_hash": pl.String}
_CONTENT = ("input", "actual_output", "retrieval_context")
# Copies are looked for only when at most this share of a sample of the batch is distinct:
# grouping a batch of distinct contents costs about as much as hashing them.
_DISTINCT_SHARE = 0.5
_SAMPLE_ROWS = 4096


def content_hashes(
    cases: pl.DataFrame, con: duckdb.DuckDBPyConnection | None = None
) -> pl.DataFrame:
    """`case_id` and `content_hash` of each case, in order, by hash_cases.sql: on `con`, or in
    an in-memory DuckDB (no database file), so a Dask worker's hashes are the store's."""
    own = con is None
    hasher = duckdb.connect() if con is None else con
    try:
        groups = _content_groups(cases)
        if groups is None:
            return _hashed(hasher, cases)
        firsts, group_of_row = groups
        hashed = _hashed(hasher, cases.gather(firsts))["content_hash"]
        return cases.select("case_id", content_hash=hashed.gather(group_of_row))
    finally:
        if own:
            hasher.close()


def _hashed(con: duckdb.DuckDBPyConnection, cases: pl.DataFrame) -> pl.DataFrame:
    found = []
    for piece in hashable_slices(cases):
        register(con, "incoming", piece)
        try:
            hashed = pl.from_arrow(con.sql(sql("hash_cases")).to_arrow_table())
        finally:
            con.unregister("incoming")
        assert isinstance(hashed, pl.DataFrame)
        found.append(hashed.select("case_id", "content_hash"))
    return pl.concat(found) if found else pl.DataFrame(schema=_HASHED)


def _content_groups(cases: pl.DataFrame) -> tuple[pl.Series, pl.Series] | None:
    """The row of each distinct content's first case and each row's group (an index into
    those), or None when a batch repeats too little for grouping to pay."""
    if cases.height < 2:
        return None
    # Rows spread evenly over the batch: a log sorted by content still shows its copies.
    step = max(cases.height // _SAMPLE_ROWS, 1)
    sample = cases.select(_CONTENT).gather_every(step)
    if _distinct_share(sample.select(pl.struct(_CONTENT).hash()).to_series()) > _DISTINCT_SHARE:
        return None
    groups = (
        cases.select(_CONTENT)
        .with_row_index("row")
        .group_by(_CONTENT, maintain_order=True)
        .agg("row")["row"]
    )
    if groups.len() > _DISTINCT_SHARE * cases.height:
        return None
    group_of_row = np.empty(cases.height, dtype=np.uint32)
    group_of_row[groups.explode().to_numpy()] = np.repeat(
        np.arange(groups.len(), dtype=np.uint32), groups.list.len().to_numpy()
    )
    return groups.list.first(), pl.Series("group", group_of_row)


def _distinct_share(keys: pl.Series) -> float:
    return keys.n_unique() / max(keys.len(), 1)


def hashable_slices(cases: pl.DataFrame) -> Iterator[pl.DataFrame]:
    """The columns a case's content hash covers, in slices of about `_HASH_SLICE_BYTES` bytes
    of content, in order: DuckDB's memory for hashing stays bounded whatever a batch holds."""
    content = cases.select("case_id", *_CONTENT)
    size = (
        pl.col("input").str.len_bytes().fill_null(0)
        + pl.col("actual_output").str.len_bytes().fill_null(0)
        + pl.col("retrieval_context")
        .list.eval(pl.element().str.len_bytes())
        .list.sum()
        .fill_null(0)
    )
    # A slice is the cases starting within one `_HASH_SLICE_BYTES` stretch of the content: a
    # run of rows, taken as a view of the frame (no copy of its text).
    slice_no = content.select((size.cum_sum() - size) // _HASH_SLICE_BYTES).to_series()
    if content.height == 0 or slice_no[-1] == 0:
        yield content
        return
    starts = slice_no.search_sorted(slice_no.unique(maintain_order=True), side="left")
    ends = [*starts.to_list()[1:], content.height]
    for start, end in zip(starts.to_list(), ends, strict=True):
        yield content.slice(start, end - start)
