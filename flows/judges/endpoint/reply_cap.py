"""The cap on a judge reply's size, apart from the HTTP client that enforces it
(flows/judges/endpoint/capped_http.py): option defaults and error handling need these
without importing the openai client, which a run with a local judge never uses."""

from __future__ import annotations

from typing import TypeVar

__all__ = [
    "DEFAULT_MAX_REPLY_BYTES",
    "MAX_REPLY_BYTES_RANGE",
    "ReplyTooLarge",
    "cause_of",
    "too_large",
]

E = TypeVar("E", bound=BaseException)

# 8 MiB: a packed reply of 8 items is a few KB; a 100 MB one is a broken or hostile server.
DEFAULT_MAX_REPLY_BYTES = 8 * 1024 * 1024
# What the cap may be: 1 KiB (no chat completion is smaller) to 1 GiB (past it, no cap at all:
# a petabyte was taken, and a hostile server's answer read whole into memory).
MAX_REPLY_BYTES_RANGE = (1024, 1024**3)


class ReplyTooLarge(Exception):
    """An answer's body passed the cap; reading stopped there."""

    def __init__(self, limit: int, declared: int | None = None, encoding: str = "") -> None:
        said = f" (Content-Length {declared:,})" if declared is not None else ""
        if encoding:
            said += f" once decompressed (Content-Encoding {encoding}, though asked identity)"
        super().__init__(f"the answer is larger than {limit:,} bytes{said}")
        self.limit = limit


def too_large(exc: BaseException) -> ReplyTooLarge | None:
    """The ReplyTooLarge behind an exception (the openai client wraps it), if any."""
    return cause_of(exc, ReplyTooLarge)


def cause_of(exc: BaseException, kind: type[E]) -> E | None:
    """The first exception of `kind` in `exc` or its chain of causes: what the HTTP client
    raised under the openai client's wrapper (this cap's error, a refused redirect)."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, kind):
            return current
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return None
