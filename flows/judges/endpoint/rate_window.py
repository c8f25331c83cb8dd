"""Requests and tokens per minute (`--rpm`, `--tpm`): a sliding window over the calls sent.

A call is let through only when, counting it, the calls sent in the last `window` seconds
number at most `rpm` and hold at most `tpm` tokens. A call counts at an upper bound of its
tokens (`call_bound`: the UTF-8 bytes of its prompt, a token being at least a byte, plus the
`max_tokens` its reply may take) until its reply reports the real usage, so the limit holds
over every window whatever the tokenizer, not per clock minute. The adaptive limit on calls
in flight (limiter.py) and the 429 handling work on top of this, unchanged.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from faith_udfs.errors import JudgeError, JudgeTransientError
from flows.judges.endpoint.usage import Usage

# A request's time here is when it was let through; the server stamps its arrival a little
# later (a new connection, a busy machine), and not always in the same order. The window is
# kept this much longer (0.5 s plus 1% of it) so that two requests the server sees `window`
# seconds apart were too.
_MARGIN_SHARE = 0.01
_MARGIN_SECONDS = 0.5
# Characters a token, the usual rule for English text (OpenAI's tokenizers give ~4): the dry
# run's estimate (live/dry_run.py). The window counts an upper bound instead (call_bound).
CHARS_PER_TOKEN = 4.0
# Tokens a chat template may add around each message (role markers, separators): OpenAI's
# count 3-4; llama.cpp's templates a few more.
_TOKENS_PER_MESSAGE = 8
# How often a wait looks at the stop event.
_POLL_SECONDS = 0.1

_SHARED: dict[tuple[object, ...], RateWindow] = {}
_SHARED_LOCK = threading.Lock()


def call_bound(messages: list[dict[str, str]], schema: str, max_tokens: int) -> int:
    """The most tokens a call can cost: every token of a prompt (byte-level BPE, or
    SentencePiece with byte fallback) covers at least one UTF-8 byte, so its bytes (the
    response schema's included, which some servers add to the prompt) bound its tokens; the
    reply is at most `max_tokens`."""
    prompt = sum(len(message["content"].encode()) for message in messages)
    overhead = _TOKENS_PER_MESSAGE * (len(messages) + 1)
    return prompt + len(schema.encode()) + overhead + max_tokens


def expected_tokens(
    messages: list[dict[str, str]], max_tokens: int, usage: Usage, *, replies: int
) -> int:
    """What a call is expected to cost, for --max-tokens: its prompt at 4 characters a token
    (the estimate of a reply without usage), and a reply as long as this run's `replies`
    (the calls answered so far) have been on average (a quarter of `max_tokens` before the
    first). Not over every call counted: those in flight have no reply yet, and counting them
    took a reply for a fraction of its length. An estimate, not a bound: call_bound would
    refuse most calls a small cap could pay for."""
    prompt = sum(len(message["content"]) for message in messages) // 4
    completion = usage.get("completion_tokens")
    reply = completion // replies if replies and completion else max_tokens // 4
    return prompt + min(reply, max_tokens)


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

    `admit(bound)` waits until a call that may cost `bound` tokens fits, records it and
    returns its entry; `settle(entry, tokens)` puts the reply's real token count in its place.
    Waits end when `stop` is set, and never last longer than the window: a call that could
    never fit (bigger than `tpm` on its own) is refused at once.
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

    @property
    def active(self) -> bool:
        return self.rpm is not None or self.tpm is not None

    @property
    def longest_wait(self) -> float:
        """The longest a call can wait here (every call sent before it leaving the window)."""
        return self._span if self.active else 0.0

    def admit(self, bound: int, stop: threading.Event | None = None) -> _Sent | None:
        """Wait until a call of at most `bound` tokens fits, record it as sent now, and return
        its entry (None when no limit is set). Raises JudgeTransientError when `stop` is set
        while waiting."""
        if not self.active:
            return None
        with self._cond:
            tokens = max(bound, 1)
            if self.tpm is not None and tokens > self.tpm:
                raise JudgeError(
                    f"a judge call of up to {tokens:,} tokens (its prompt's bytes and its "
                    f"max_tokens) is more than --tpm {self.tpm:,} allows in a minute; raise "
                    "--tpm or lower --max-output-tokens"
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

    def settle(self, entry: _Sent | None, tokens: int | None) -> None:
        """Replace a call's bound with the tokens its reply reported (None: keep the bound,
        e.g. for a call that failed or a reply without usage)."""
        if entry is None or tokens is None:
            return
        with self._cond:
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
