"""`logged_at` as the contract reads it, naive UTC, from any form a log writes it in: a time
with or without an offset, a date, ISO-8601 text (docs/input.md, Timestamps) or an epoch number.

A number is seconds, milliseconds, microseconds or nanoseconds since 1970, as pandas'
`to_json` (milliseconds), JavaScript's `Date.now()` and Python's `time.time()` write it. The
unit is told by the size: each unit's values from 2000 to 2100 lie in a range no other unit's
reach, so a number outside all four (a `20261101` date, a row count) is no time.

Pure: the pipeline's contract (schemas/contract.py) and `score_frame`'s content ids
(faith_udfs/frames.py) read times with these same rules, so both make the same ids."""

from __future__ import annotations

import polars as pl

# ISO-8601 shapes accepted for a text `logged_at`, each tried on every value (never inferred
# from the first one). `%#z` takes `Z`, `+02`, `+0200` and `+02:00` (and a trailing ` UTC` is
# spelled `Z`); `%.f` is optional.
_AWARE_FORMATS = ("%Y-%m-%dT%H:%M:%S%.f%#z", "%Y-%m-%dT%H:%M%#z")
_NAIVE_FORMATS = ("%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%dT%H:%M", "%Y-%m-%d")
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


def naive_utc(column: pl.Expr, have: pl.DataType) -> pl.Expr | None:
    """`column` (of type `have`) as naive UTC microseconds, null where a value reads as no
    time; None when no value of that type is a time (a bool, a list)."""
    if isinstance(have, pl.Datetime):
        if have.time_zone is not None:
            column = column.dt.convert_time_zone("UTC").dt.replace_time_zone(None)
        return column.cast(pl.Datetime("us"))
    if have == pl.Date:
        return column.cast(pl.Datetime("us"))
    if have == pl.String or isinstance(have, pl.Categorical | pl.Enum):
        return parse_timestamps(column.cast(pl.String))
    if have.is_numeric():
        return epoch_timestamps(column)
    return None


def parse_timestamps(text: pl.Expr) -> pl.Expr:
    """ISO-8601 text to naive UTC, value by value: offsets converted, naive taken as UTC,
    date-only as midnight; null where no accepted shape matches the whole value."""
    # A function of the whole column, so that the spelling is made once for every format
    # tried (as one expression, polars made it again for each: 1.5 s instead of 0.4 s a 1M).
    return text.map_batches(_parse_timestamps, return_dtype=pl.Datetime("us"), is_elementwise=True)


def _parse_timestamps(text: pl.Series) -> pl.Series:
    # One spelling first: ` 2026-11-01 12:00:00,5z` -> `2026-11-01T12:00:00.5Z`.
    spelled = (
        text.str.strip_chars()
        .str.to_uppercase()
        .str.replace(r"^(\d{4}-\d{2}-\d{2}) ", "${1}T")
        .str.replace(r"(T\d{2}:\d{2}:\d{2}),(\d)", "${1}.${2}")
        # BigQuery's CSV export writes a TIMESTAMP `2026-11-01 12:00:00 UTC`
        .str.replace(r"(T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?) ?UTC$", "${1}Z")
    )
    # chrono's %Y also takes a sign and more digits ("+12026-", "-2026-": 2027 BC)
    spelled = spelled.zip_with(spelled.str.contains(r"^\d{4}-"), pl.Series([None], dtype=pl.String))
    aware = [
        spelled.str.to_datetime(fmt, strict=False, time_unit="us").dt.replace_time_zone(None)
        for fmt in _AWARE_FORMATS
    ]
    naive = [spelled.str.to_datetime(fmt, strict=False, time_unit="us") for fmt in _NAIVE_FORMATS]
    parsed = pl.select(pl.coalesce(*aware, *naive)).to_series()
    if parsed.null_count() > text.null_count():  # epoch digits (a CSV of pandas' numbers)?
        epochs = pl.select(epoch_text(pl.lit(text))).to_series()
        parsed = pl.select(pl.coalesce(pl.lit(parsed), pl.lit(epochs))).to_series()
    return parsed.alias(text.name)
