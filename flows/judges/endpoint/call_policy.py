"""How a judge may use its endpoint: the limits the user sets (CallLimits, filled from
JudgeSettings) and the house's retry and pacing policy (CallPolicy, which tests shorten)."""

from __future__ import annotations

import random
from dataclasses import dataclass

__all__ = ["MAX_BATCH_WAIT", "MAX_TIMEOUT", "CallLimits", "CallPolicy"]

# The longest --timeout of one request: a day (inf or 1e300 overflowed a timer's timestamp at
# the first request, a crash: exit 1).
MAX_TIMEOUT = 24 * 3600.0
# The longest --batch-wait: 30 days, as --run-timeout's most (inf was taken, and a run polled a
# batch its provider held for as long as it held it: a night with no end).
MAX_BATCH_WAIT = 30 * 24 * 3600.0


@dataclass(frozen=True)
class CallLimits:
    """The user's limits on the endpoint (`--concurrency`, `--timeout`, `--max-calls`,
    `--max-tokens`, `--rpm`, `--tpm`, `--max-reply-bytes`, `--breaker-failures`); their
    defaults and bounds are JudgeSettings', which makes these (`call_limits()`)."""

    concurrency: int
    timeout: float
    max_calls: int | None
    max_tokens: int | None
    rpm: int | None
    tpm: int | None
    max_reply_bytes: int
    breaker_failures: int

    def room(self, calls: int, spent: int, in_flight: int, expected: int) -> tuple[str, str | None]:
        """Whether a call expected to cost `expected` tokens may go now, `calls` made and
        `spent` tokens counted, the calls in flight expected to cost `in_flight`: "go"; "wait",
        when it fits --max-tokens only if the calls in flight leave it room; or "refused" and
        why (a cap is reached: the run's budget is spent)."""
        if self.max_calls is not None and calls >= self.max_calls:
            return "refused", (
                f"the run's cap of {self.max_calls} judge calls is reached "
                "(--max-calls); the case stays pending for the next run"
            )
        if self.max_tokens is None:
            return "go", None
        if spent + expected > self.max_tokens:
            return "refused", (
                f"the run's cap of {self.max_tokens} judge tokens is reached "
                "(--max-tokens); the case stays pending for the next run"
            )
        return ("go" if spent + in_flight + expected <= self.max_tokens else "wait"), None


@dataclass(frozen=True)
class CallPolicy:
    """How a failed call is asked again (retries, jittered exponential backoff, the longest
    Retry-After waited for, the longest wait for a model to load), the window
    `--rpm`/`--tpm` count over, in seconds, and whether the breaker gives overload kinds
    the calls in flight as slack."""

    max_retries: int = 4
    backoff_base: float = 0.5
    backoff_max: float = 20.0
    max_retry_after: float = 60.0
    # A server answering 503 "Loading model" (llama.cpp's, just started) is waited for this
    # long at most (endpoint/loading.py), never past --run-timeout.
    max_loading_wait: float = 300.0
    rate_window: float = 60.0
    # Timeouts, 408s and 5xx open the breaker only past the calls in flight (an overloaded
    # server fails them together); a check's few calls, each tried twice, never got that far:
    # a server failing them all was "unusable" (exit 9), not unreachable (exit 6).
    overload_slack: bool = True

    def backoff(self, failures: int, retry_after: float | None, jitter: random.Random) -> float:
        """Seconds to wait after the `failures`-th failure in a row: half the doubling
        ceiling plus up to as much again at random, and never less than the server asked."""
        ceiling = min(self.backoff_max, self.backoff_base * 2 ** (failures - 1))
        delay = ceiling / 2 + jitter.uniform(0, ceiling / 2)
        return max(delay, retry_after or 0.0)
