"""Keys stored in the database and compared across runs: specified, and the same under every
version of every library (polars' own `hash()` is promised stable within one version only)."""

from __future__ import annotations

import array
import hashlib
import sys

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
    fast = texts.hash()
    first = fast.is_first_distinct() & texts.is_not_null()
    if first.all():  # every text distinct (long documents): nothing to join back
        return _md5_lower(texts)
    keyed = pl.DataFrame({"fast": fast.filter(first), "key": _md5_lower(texts.filter(first))})
    joined = fast.to_frame("fast").join(keyed, on="fast", how="left", maintain_order="left")
    return joined["key"]


def _md5_lower(texts: pl.Series) -> pl.Series:
    """`text_key` of each (non-null) text, in bulk: the digests' bytes read as 64-bit words
    (no Python int per text), the low half of each."""
    md5 = hashlib.md5
    encoded = texts.cast(pl.Binary).to_list()
    digests = b"".join([md5(b, usedforsecurity=False).digest() for b in encoded])
    words = array.array("Q")
    words.frombytes(digests)
    if sys.byteorder != "little":
        words.byteswap()
    return pl.Series(texts.name, words[1::2], dtype=pl.UInt64)
