"""The values an option takes, as argparse types: each refuses what the command could not use
in one line (exit 2), before anything is read or written."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

from flows.judges.endpoint.call_policy import MAX_BATCH_WAIT, MAX_TIMEOUT
from flows.judges.endpoint.reply_cap import MAX_REPLY_BYTES_RANGE

# The most rows a listing option (--limit, --periods) asks for: more than any terminal shows.
MAX_LISTED = 1_000_000


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """An option's whole number from `low` to `high` (a --limit of -1 reached DuckDB's LIMIT
    as exit 1, 2**63 its BIGINT, a huge --periods Python's date arithmetic)."""

    def number(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = low - 1
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"must be a whole number from {low:,} to {high:,}, got {text}"
            )
        return value

    return number


def _number(text: str) -> float:
    """The option's text as a float; nan when it is none, so every range check refuses it."""
    try:
        return float(text)
    except ValueError:
        return math.nan


def share(text: str) -> float:
    """An option's share, a number from 0 to 1 (`nan` compared as nothing: no period flagged)."""
    value = _number(text)
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be a number from 0 to 1, got {text}")
    return value


def price(text: str) -> float:
    """An option's price in USD: a finite number, 0 or more (-5 made a negative cost)."""
    value = _number(text)
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"must be a price in USD, 0 or more, got {text}")
    return value


def seconds(text: str) -> float:
    """A wait in seconds, as an option gives it: a finite number, 0 or more (`nan` made a wait
    that never ended, a negative one the same as 0)."""
    value = _number(text)
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"must be a number of seconds, 0 or more, got {text}")
    return value


def request_seconds(text: str) -> float:
    """--timeout of one request: more than 0, at most MAX_TIMEOUT (a day); nan, inf refused."""
    value = _number(text)
    if not 0 < value <= MAX_TIMEOUT:
        raise argparse.ArgumentTypeError(
            f"must be a number of seconds above 0, at most {MAX_TIMEOUT:,.0f} (a day), got {text!r}"
        )
    return value


def batch_seconds(text: str) -> float:
    """--batch-wait's seconds: 0 (no wait) to MAX_BATCH_WAIT (30 days); nan, inf refused."""
    return _seconds_to(text, MAX_BATCH_WAIT, zero="no wait")


def byte_count(text: str) -> int:
    """--max-reply-bytes: bytes, with an optional K or M suffix (binary: 8M is 8 MiB), from 1K
    to 1024M (MAX_REPLY_BYTES_RANGE). 0 and 1023 were refused in pydantic's words, a
    negative one as no byte count, and a petabyte (or 10**29 bytes) taken: no cap at all."""
    scale = {"K": 1024, "M": 1024 * 1024}.get(text[-1:].upper(), 1)
    digits = text[:-1] if scale > 1 else text
    low, high = MAX_REPLY_BYTES_RANGE
    # (past 16 digits it is out of range: int() refuses 4,300 of them, argparse's own words)
    value = int(digits) * scale if digits.isdigit() and len(digits) <= 16 else -1
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(
            f"must be a byte count from 1K ({low:,}) to 1024M ({high:,}), e.g. 512K or 8M, "
            f"got {text!r}"
        )
    return value


# The longest --run-timeout: 30 days (inf and 1e10 overflowed the timer's timestamp, exit 1).
MAX_RUN_TIMEOUT = 30 * 24 * 3600


def run_seconds(text: str) -> float:
    """--run-timeout's seconds: 0 (none) to MAX_RUN_TIMEOUT; nan, inf and '' refused."""
    return _seconds_to(text, MAX_RUN_TIMEOUT, zero="none")


def _seconds_to(text: str, most: float, *, zero: str) -> float:
    """Seconds from 0 (what `zero` says it means) to `most` (30 days); nan, inf, '' refused."""
    value = _number(text)
    if not 0 <= value <= most:
        raise argparse.ArgumentTypeError(
            f"must be a number of seconds from 0 ({zero}) to {most:,.0f} (30 days), got {text!r}"
        )
    return value
