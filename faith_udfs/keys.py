"""Keys stored in the database and compared across runs: specified, and the same under every
version of every library (polars' own `hash()` is promised stable within one version only)."""

from __future__ import annotations

import hashlib

import polars as pl


def text_key(text: str) -> int:
    """The low 64 bits of the MD5 of the UTF-8 text: DuckDB's `md5_number_lower(text)`, so a
    key can be computed by hand in SQL or Python (`int.from_bytes(md5(b).digest()[8:],
    "little")`) and matched against the stored one."""
    return int.from_bytes(hashlib.md5(text.encode(), usedforsecurity=False).digest()[8:], "little")


def text_keys(texts: pl.Expr) -> pl.Expr:
    """`text_key` of every value, hashing each distinct text once."""
    return texts.map_batches(_keys_of_series, return_dtype=pl.UInt64, is_elementwise=True)


def _keys_of_series(texts: pl.Series) -> pl.Series:
    # Texts repeat (a knowledge base's passages are retrieved again and again): hash the
    # distinct ones and join back on polars' fast in-process hash. A null text has no key.
    rows = pl.DataFrame({"fast": texts.hash(), "text": texts})
    distinct = rows.drop_nulls("text").unique("fast")
    keyed = distinct.select(
        "fast", key=pl.Series([text_key(t) for t in distinct["text"]], dtype=pl.UInt64)
    )
    return rows.join(keyed, on="fast", how="left", maintain_order="left")["key"]
