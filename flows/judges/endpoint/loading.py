"""A server still loading its model: llama.cpp's server answers every request
`503 {"error": {"code": 503, "message": "Loading model", ...}}` for its first seconds to
minutes (a TGI-style server: `Model … is currently loading`). Counted as any 5xx, a nightly
run started right after a server restart ended in seconds (exit 6, 13 in a row).

So a 503 whose message says it is loading is waited for, asked again every few seconds,
without counting toward the circuit breaker or a call's retries, up to the judge's most
(CallPolicy.max_loading_wait, 300 s, counted from the first such answer since the last
answer) and never past --run-timeout. Past that the breaker opens at once (exit 6), its line
quoting what the server said."""

from __future__ import annotations

import logging
import random
import re
import threading
import time
from collections.abc import Callable

from flows.judges.endpoint.call_policy import CallPolicy

__all__ = ["LoadingWait", "failure_kind", "says_loading"]

log = logging.getLogger(__name__)

_LOADING = re.compile(r"\bloading\b", re.IGNORECASE)
# A poll while the model loads waits the backoff of this many failures at most (0.5 s doubling:
# 2-4 s), or what the server's Retry-After asks.
_POLL_FAILURES = 4


def says_loading(status: object, message: str) -> bool:
    """Whether an error answer is a server saying it is still loading its model."""
    return status == 503 and bool(_LOADING.search(message))


def failure_kind(status: int, message: str) -> str | None:
    """The breaker's kind of a transient error answer (408, 409, 429 or 5xx): "loading"
    (waited for), "5xx", "rate" (a 429: counted only when a call gives up on it), "408" (the
    server or a proxy timed the request out: counted as a timeout), "409" or None (any
    other)."""
    if says_loading(status, message):
        return "loading"
    if status == 429:
        return "rate"
    if status in (408, 409):
        return str(status)
    return "5xx" if status >= 500 else None


class LoadingWait:
    """How long the endpoint has said it is loading; shared by every call of the endpoint."""

    def __init__(
        self, longest: float, endpoint: str = "", clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.longest = longest
        self.endpoint = endpoint
        self._clock = clock
        self._lock = threading.Lock()
        self._since: float | None = None
        self._polls = 0

    def answered(self) -> None:
        """The endpoint answered: a later load (a restart) is waited for afresh."""
        with self._lock:
            self._since, self._polls = None, 0

    def next_wait(
        self,
        policy: CallPolicy,
        retry_after: float | None,
        jitter: random.Random,
        left: float | None,
        words: str = "",
    ) -> float | None:
        """Seconds to wait before asking again (the policy's backoff, or the server's
        Retry-After), or None when the wait is over: the server has said it is loading for
        `longest` seconds, or the run has no time left (`left`). A wait that begins is said
        on one line, with the server's `words` (scrubbed), so a quiet minute says why."""
        with self._lock:
            now = self._clock()
            if self._since is None:
                self._since = now
                log.warning(
                    "the judge endpoint %s is loading its model (HTTP 503: %s): asking again "
                    "every few seconds, for %.0f s at most",
                    self.endpoint, words, self.longest if left is None else min(self.longest, left),
                )  # fmt: skip
            self._polls += 1
            polls = self._polls
            waited = now - self._since
        wait_left = self.longest - waited
        if left is not None:
            wait_left = min(wait_left, left)
        if wait_left <= 0:
            return None
        return min(policy.backoff(min(polls, _POLL_FAILURES), retry_after, jitter), wait_left)

    def gave_up(self, words: str, left: float | None) -> str:
        """What the breaker's line says after the endpoint's name: how long the server said
        it was loading, what bound ended the wait, and its own words (scrubbed, clipped)."""
        with self._lock:
            waited = 0.0 if self._since is None else self._clock() - self._since
        bound = (
            "the most a judge waits for a model to load"
            if left is None or left > 0
            else "when the run's deadline (--run-timeout) came"
        )
        return f"was still loading its model after {waited:.0f} s, {bound} (HTTP 503: {words})"
