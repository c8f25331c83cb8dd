"""Content words: what the lexical and grounded judges compare between a claim and the truths."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, wraps
from typing import Any, TypeVar, cast

import polars as pl

_F = TypeVar("_F", bound=Callable[..., Any])
# The longest text the one-case twin's caches keep: a longer one is read again each time.
CACHED_CHARS = 4_096


def cached_when_short(maxsize: int) -> Callable[[_F], _F]:
    """lru_cache(maxsize) of a function of a text (its first argument) and hashables, that
    keeps no text longer than CACHED_CHARS: an lru_cache holds each text it is given, and a loop
    of measure() over cases with 200 KB sentences (no . ! ? in a table, a code dump) held
    0.57 MB more each case, toward 4,096 entries a cache (1 MB texts: gigabytes)."""

    def wrap(fn: _F) -> _F:
        cached = lru_cache(maxsize=maxsize)(fn)

        @wraps(fn)
        def read(text: str, *args: Any) -> Any:
            return cached(text, *args) if len(text) <= CACHED_CHARS else fn(text, *args)

        read.cache_info = cached.cache_info  # type: ignore[attr-defined]
        read.cache_clear = cached.cache_clear  # type: ignore[attr-defined]
        return cast(_F, read)

    return wrap


# Runs of letters and digits, so "A17," -> "a17" and "3 March" -> "3", "march".
WORD_PATTERN = r"[^\W_]+"
# What lies between those runs: a split on it gives the same words, and an empty string where a
# text starts or ends with one (a split is cheaper than extract_all in polars).
WORD_SEPARATOR = r"[\W_]+"

# Unicode format characters (category Cf: zero-width space and joiners, word joiner, BOM, soft
# hyphen, bidi marks): invisible, yet they split or change a word ("ship\u200bped").
FORMAT_CHARACTERS = r"\p{Cf}"

# A short English stop-word list (after NLTK's): words that carry no fact of their own.
# Negations ("no", "not", "never", "don" of "don't", ...) are kept as content words on purpose:
# "Refunds are not paid" must not pass as "Refunds are paid". Numbers and ids are never stop words,
# nor is "may" (the month: "shipped on 12 May").
STOP_WORDS: frozenset[str] = frozenset(
    """
    a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further
    had has have having he her here hers herself him himself his how i if in into is it its
    itself just me more most my myself now of off on once only or other our ours
    ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours yourself
    yourselves s t d ll m o re ve y let us also might must shall
    """.split()
)


# What a blank text may hold: white space, control characters (a NUL a logger wrote for a
# missing answer: a "\u0000" answer was scored, its one claim idk, 1.0), format characters,
# combining and enclosing marks with nothing to sit on, variation selectors, and the
# characters Unicode draws as nothing (braille blank U+2800, the Hangul fillers U+115F,
# U+1160, U+3164, U+FFA0).
BLANK_TEXT = r"^[\s\p{Cc}\p{Cf}\p{Mn}\p{Me}\x{2800}\x{115F}\x{1160}\x{3164}\x{FFA0}]*$"


def is_blank(text: pl.Expr) -> pl.Expr:
    """Nothing to read: empty, or only white space and invisible format characters. The one
    rule for answers and passages, in the contract, the metric and the SQL functions alike."""
    return text.str.contains(BLANK_TEXT)


def is_utf8(text: str) -> bool:
    """Whether the text can be UTF-8: not when it holds half a UTF-16 pair ("\\ud83d" alone,
    a text cut in the middle of an emoji), which polars, Arrow and DuckDB cannot store."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def normalized_text(text: pl.Expr) -> pl.Expr:
    """NFC-composed text without format characters, so "café" typed either way is one word."""
    return text.str.normalize("NFC").str.replace_all(FORMAT_CHARACTERS, "")


def normalized(frame: pl.DataFrame, column: str) -> pl.DataFrame:
    """`frame` with `column` as `normalized_text`; a column of plain ASCII (most logs) needs
    nothing and is returned as is, for the price of one scan: a text is ASCII when its bytes
    are as many as its characters (a tenth of the cost of a regex looking for a non-ASCII one)."""
    text = pl.col(column)
    if not frame.select((text.str.len_bytes() != text.str.len_chars()).any()).item():
        return frame
    return frame.with_columns(normalized_text(pl.col(column)))


def content_words(text: pl.Expr) -> pl.Expr:
    """Lower-cased words of each string with punctuation and stop words removed; the text is
    compared `normalized` (words of raw text may differ by invisible characters)."""
    return (
        text.str.to_lowercase()
        .str.extract_all(WORD_PATTERN)
        .list.filter(~pl.element().is_in(list(STOP_WORDS)))
    )
