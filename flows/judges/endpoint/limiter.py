"""How many requests are in flight: an adaptive limit that backs off on 429s and creeps
back up."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from faith_udfs.errors import (
    JudgeTransientError,
)

# How often a wait for a slot looks at the stop event.
_POLL_SECONDS = 0.1


class AdaptiveLimiter:
    """At most `limit` requests in flight; a 429 halves the limit (once per round of requests)
    and pauses everyone for its Retry-After; `limit` successes in a row add one back.

    A wait for a slot ends when `stop` is set or after `patience` seconds: a slot that was
    never handed back shows as an error, never as a hang.
    """

    def __init__(
        self,
        ceiling: int,
        *,
        clock: Callable[[], float] = time.monotonic,
        patience: float = 3600.0,
    ) -> None:
        self.ceiling = ceiling
        self._limit = ceiling
        self._clock = clock
        self._patience = patience
        self._cond = threading.Condition()
        self._in_flight = 0
        self._epoch = 0
        self._successes = 0
        self._paused_until = 0.0

    @property
    def limit(self) -> int:
        return self._limit

    def acquire(self, stop: threading.Event | None = None) -> int:
        """Wait for a slot; returns a ticket to hand back to `release`.

        Raises JudgeTransientError when `stop` is set or no slot came free in time.
        """
        give_up = time.monotonic() + self._patience
        with self._cond:
            while True:
                if stop is not None and stop.is_set():
                    raise JudgeTransientError("the judge was stopped while this call waited")
                left = give_up - time.monotonic()
                if left <= 0:
                    raise JudgeTransientError(
                        f"no request slot came free within {self._patience:g} s"
                    )
                pause = self._paused_until - self._clock()
                if pause <= 0 and self._in_flight < self._limit:
                    break
                self._cond.wait(min(_POLL_SECONDS, left, pause if pause > 0 else left))
            self._in_flight += 1
            return self._epoch

    def wake(self) -> None:
        """Make every waiter look at its stop event now."""
        with self._cond:
            self._cond.notify_all()

    def release(
        self, ticket: int, *, ok: bool, throttled: bool = False, retry_after: float | None = None
    ) -> None:
        """Free the slot and adapt: grow on success, halve on a throttle, stay on other errors."""
        with self._cond:
            self._in_flight -= 1
            if throttled:
                self._successes = 0
                # Requests sent before the last decrease were sent at the old limit: their 429s
                # say nothing new, so one burst halves the limit once.
                if ticket == self._epoch:
                    self._limit = max(1, self._limit // 2)
                    self._epoch += 1
                if retry_after:
                    self._paused_until = max(self._paused_until, self._clock() + retry_after)
            elif ok:
                self._successes += 1
                if self._limit < self.ceiling and self._successes >= self._limit:
                    self._limit += 1
                    self._successes = 0
            self._cond.notify_all()
