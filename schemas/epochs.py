"""`logged_at` as a number: seconds, milliseconds, microseconds or nanoseconds since 1970, as
pandas' `to_json` (milliseconds), JavaScript's `Date.now()` and Python's `time.time()` write
it. The unit is told by the size: each unit's values from 2000 to 2100 lie in a range no other
unit's reach, so a number outside all four (a `20261101` date, a row count) is no time."""

from __future__ import annotations

import polars as pl

# Seconds since 1970 of 2000-01-01 and of 2100-01-01.
_FROM, _UNTIL = 946_684_800, 4_102_444_800
# Each unit in seconds: a second, a millisecond, a microsecond, a nanosecond.
_UNITS = (1.0, 1e-3, 1e-6, 1e-9)


def epoch_timestamps(number: pl.Expr) -> pl.Expr:
    """Naive UTC times of epoch numbers in any of the four units; null for any other number
    (to the microsecond: a float cannot hold a nanosecond count exactly)."""
    value = number.cast(pl.Float64)
    micros = pl.lit(None, dtype=pl.Float64)
    for unit in _UNITS:
        inside = (value >= _FROM / unit) & (value < _UNTIL / unit)
        micros = pl.when(inside).then(value * unit * 1e6).otherwise(micros)
    return micros.round(0).cast(pl.Int64).cast(pl.Datetime("us"))


def epoch_text(text: pl.Expr) -> pl.Expr:
    """Times of text that is an epoch number in digits (a CSV of pandas' numbers); null for
    any other text."""
    digits = text.str.strip_chars()
    number = pl.when(digits.str.contains(r"^\d{9,19}(\.\d+)?$")).then(digits)
    return epoch_timestamps(number.cast(pl.Float64, strict=False))
