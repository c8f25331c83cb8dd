"""Requests and tokens per minute (`--rpm`, `--tpm`): a sliding window over the calls sent.

A call is let through only when, counting it, the calls sent in the last `window` seconds
number at most `rpm` and hold at most `tpm` tokens. Tokens are estimated before the call
(conservatively, learning from replies) and corrected to the reply's usage after it, so the
limit holds over every window, not per clock minute. The adaptive limit on calls in flight
(limiter.py) and the 429 handling work on top of this, unchanged.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from faith_udfs.errors import JudgeError, JudgeTransientError

# A request's time here is when it was let through; the server stamps its arrival a little
# later (a new connection, a busy machine), and not always in the same order. The window is
# kept this much longer (0.5 s plus 1% of it) so that two requests the server sees `window`
# seconds apart were too.
_MARGIN_SHARE = 0.01
_MARGIN_SECONDS = 0.5
# Characters a token, the usual rule for English text (OpenAI's tokenizers give ~4).
CHARS_PER_TOKEN = 4.0
# Before any reply has shown the real ratio, a call is assumed to cost this many times its
# prompt's estimate (prompt plus an answer as long); replies then set the ratio.
_FIRST_FACTOR = 2.0
# The largest ratio of the latest replies is used, plus this headroom.
_HEADROOM = 1.1
_RECENT_REPLIES = 64
# How often a wait looks at the stop event.
_POLL_SECONDS = 0.1

_SHARED: dict[tuple[object, ...], RateWindow] = {}
_SHARED_LOCK = threading.Lock()


def shared_window(
    endpoint: object, model: str, rpm: int | None, tpm: int | None, *, window: float = 60.0
) -> RateWindow:
    """The one window of this process for an endpoint, model and limits: judges built one
    after another (a nightly run, then its judge check) count against the same minute."""
    key = (endpoint, model, rpm, tpm, window)
    with _SHARED_LOCK:
        if key not in _SHARED:
            _SHARED[key] = RateWindow(rpm, tpm, window=window)
        return _SHARED[key]


@dataclass
class _Sent:
    at: float
    tokens: int


class RateWindow:
    """At most `rpm` requests and `tpm` tokens in any `window` seconds (None: no limit).

    `admit(prompt_chars)` waits until a call of that size fits, records it and returns its
    entry; `settle(entry, tokens)` puts the reply's real token count in its place. Waits end
    when `stop` is set, and never last longer than the window: a call that could never fit
    (bigger than `tpm` on its own) is refused at once.
    """

    def __init__(
        self,
        rpm: int | None,
        tpm: int | None,
        *,
        window: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
        wait: Callable[[threading.Condition, float], object] | None = None,
    ) -> None:
        self.rpm = rpm
        self.tpm = tpm
        self.window = window
        self._span = window * (1 + _MARGIN_SHARE) + _MARGIN_SECONDS
        self._clock = clock
        self._wait = wait or (lambda cond, seconds: cond.wait(seconds))
        self._cond = threading.Condition()
        self._sent: deque[_Sent] = deque()
        self._tokens = 0
        self._ratios: deque[float] = deque(maxlen=_RECENT_REPLIES)

    @property
    def active(self) -> bool:
        return self.rpm is not None or self.tpm is not None

    @property
    def longest_wait(self) -> float:
        """The longest a call can wait here (every call sent before it leaving the window)."""
        return self._span if self.active else 0.0

    def estimate(self, prompt_chars: int) -> int:
        """Tokens a call with a prompt of `prompt_chars` characters is assumed to cost."""
        base = prompt_chars / CHARS_PER_TOKEN
        factor = max(self._ratios) * _HEADROOM if self._ratios else _FIRST_FACTOR
        return max(1, int(base * factor + 0.5))

    def admit(self, prompt_chars: int, stop: threading.Event | None = None) -> _Sent | None:
        """Wait until a call fits, record it as sent now, and return its entry (None when no
        limit is set). Raises JudgeTransientError when `stop` is set while waiting."""
        if not self.active:
            return None
        with self._cond:
            tokens = self.estimate(prompt_chars)
            if self.tpm is not None and tokens > self.tpm:
                raise JudgeError(
                    f"a judge call of about {tokens:,} tokens is more than --tpm {self.tpm:,} "
                    "allows in a minute; raise --tpm or lower the pack size"
                )
            while True:
                if stop is not None and stop.is_set():
                    raise JudgeTransientError("the judge was stopped while this call waited")
                now = self._clock()
                self._expire(now)
                pause = self._pause(now, tokens)
                if pause <= 0:
                    entry = _Sent(now, tokens)
                    self._sent.append(entry)
                    self._tokens += tokens
                    return entry
                self._wait(self._cond, min(pause, _POLL_SECONDS))

    def settle(self, entry: _Sent | None, prompt_chars: int, tokens: int | None) -> None:
        """Replace a call's estimate with the tokens its reply reported (None: keep the
        estimate, e.g. for a call that failed), and learn the ratio for later estimates."""
        if entry is None or tokens is None:
            return
        with self._cond:
            base = max(prompt_chars / CHARS_PER_TOKEN, 1.0)
            self._ratios.append(tokens / base)
            if any(sent is entry for sent in self._sent):
                self._tokens += tokens - entry.tokens
            entry.tokens = tokens
            self._cond.notify_all()

    def wake(self) -> None:
        """Make every waiter look at its stop event now."""
        with self._cond:
            self._cond.notify_all()

    def _expire(self, now: float) -> None:
        while self._sent and self._sent[0].at <= now - self._span:
            self._tokens -= self._sent.popleft().tokens

    def _pause(self, now: float, tokens: int) -> float:
        """Seconds until a call of `tokens` fits (0: now)."""
        if self.rpm is not None and len(self._sent) >= self.rpm:
            return self._sent[len(self._sent) - self.rpm].at + self._span - now
        if self.tpm is not None and self._tokens + tokens > self.tpm:
            freed = self._tokens + tokens - self.tpm
            for sent in self._sent:  # oldest first: wait until enough of them have left
                freed -= sent.tokens
                if freed <= 0:
                    return sent.at + self._span - now
        return 0.0
