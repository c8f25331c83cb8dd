"""The circuit breaker of an endpoint: after N failures of one kind in a row (refused, DNS,
TLS, timeout or 408, 409, 5xx, an answer that is no chat completion, a Retry-After longer
than the run can wait, a call given up after a 429 at its every retry; a redirect to another
origin at the first) no further call is made and the run ends with exit 6, the cases left
pending. An answer in between closes it again."""

from __future__ import annotations

import socket
import ssl
import threading
from typing import Any

from faith_udfs.errors import JudgeError, JudgeReplyError, JudgeTransientError
from flows.errors import JudgeUnreachable
from flows.judges.endpoint.redirects import RedirectRefused
from flows.judges.endpoint.reply_cap import cause_of, too_large

__all__ = [
    "BATCH_SAID",
    "DEFAULT_BREAKER_FAILURES",
    "CircuitBreaker",
    "EndpointFailure",
    "WaitTooLong",
    "connection_error",
    "connection_kind",
]

# Five in a row: one call's retries (4) and a first attempt, or the first few of the calls in
# flight failing together; a healthy endpoint's odd failure is followed by an answer.
DEFAULT_BREAKER_FAILURES = 5
_WHAT = {
    "refused": "refused the connection",
    "dns": "has a host name that does not resolve",
    "tls": "failed the TLS handshake (an http:// server at an https:// URL?)",
    "timeout": "did not answer within the call deadline",
    "408": "answered HTTP 408 (request timeout: its own or a proxy's time limit, shorter "
    "than the model's answers?)",
    "reset": "reset the connection",
    "closed": "closed the connection before its answer was complete",
    "protocol": "answered with something that is not HTTP",
    "connection": "could not be connected to",
    "5xx": "answered with a server error (5xx)",
    "409": "answered HTTP 409 (conflict)",
    "loading": "was still loading its model",
    "answer": "answered with something that is not a chat completion (a proxy's page?)",
    "throttled": "asked to wait longer than the run can (Retry-After)",
    "rate": "answered HTTP 429 (rate limited) to every retry of a call, N calls in a row: "
    "lower --concurrency, or set --rpm and --tpm to the account's limits",
    "redirect": "redirected the call to another host, where the prompts are not sent (point "
    "--base-url there if it is yours)",  # with the host, where the failure names it
    "loop": "redirected every call back to itself, past the client's 20 redirects (a "
    "misrouted gateway?)",
}
# What a Batch API's breaker says of a kind (batch/api.py): its `rate` counts requests given
# up after a 429 at their every attempt, where --concurrency and --rpm do not apply.
BATCH_SAID = {
    "rate": "answered HTTP 429 (rate limited) to every retry of a request, N requests in a "
    "row: the account's Batch API limits (requests, files, queued tokens) are reached; run "
    "again later, or use --judge-mode packed",
}
# Kinds that will not pass by themselves: the breaker opens at the first. "loading": a server
# still loading its model once its wait is over (loading.py; `detail` is the whole saying).
_PERMANENT = frozenset({"redirect", "loading"})
# Kinds counted by call, not by attempt (`gave_up`): a 429 waited for and asked again is the
# server pacing the run; a call given up on it at every retry, N in a row, is a run that
# would crawl to its deadline (58 requests in 4 minutes, no case done).
_BY_CALL = frozenset({"rate"})
# Kinds counted as one in a row: a server dying mid-answer shows as either, by the timing of
# its close against the request still being sent; counted apart, a mix of them kept the
# breaker shut past its N (12 requests where N and the calls in flight allow 9).
_FAMILY = {"reset": "hung up", "closed": "hung up", "408": "timeout"}
# A 408 is a timeout said by the server (or a proxy): counted with the run's own timeouts,
# past the calls in flight; it counted for nothing, and a server answering 408 to every
# request had each call given up after its retries, its cases invalid, to the run's end.


# The kind each cause class stands for, looked for in this order (subclasses before bases).
_KINDS: tuple[tuple[type[BaseException], str], ...] = (
    (RedirectRefused, "redirect"),
    (socket.gaierror, "dns"),
    (ssl.SSLError, "tls"),
    (ConnectionRefusedError, "refused"),
    (ConnectionResetError, "reset"),
)


def connection_kind(exc: BaseException) -> str:
    """What kind of connection failure an exception stands for, read from its causes' classes
    (the HTTP client wraps the socket's error): redirect (to another origin, not followed),
    loop (redirects within the origin past the client's most), refused, dns, tls, reset,
    closed (the server hung up mid-answer, or before it), protocol (no HTTP came back) or
    connection."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        kind = next((kind for cls, kind in _KINDS if isinstance(current, cls)), None)
        if kind is not None:
            return kind
        # the HTTP client's, matched by name as h11's below: redirects within the origin
        # that never end (it was "could not be connected to", of a server that answered)
        if type(current).__name__ == "TooManyRedirects":
            return "loop"
        # h11's error, whichever HTTP client wraps it: matched by name, as each has its own
        if type(current).__name__ == "RemoteProtocolError":
            said = str(current).lower()
            return "closed" if "closed" in said or "disconnected" in said else "protocol"
        current = current.__cause__ or current.__context__
    return "connection"


class EndpointFailure(JudgeTransientError):
    """A transient failure of a kind the circuit breaker counts, or None (not counted); with
    the wait the server asked for (Retry-After, as sent), if it did."""

    def __init__(
        self,
        message: str,
        kind: str | None,
        retry_after: float | None = None,
        detail: str | None = None,
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.retry_after = retry_after
        self.detail = detail  # what the breaker's line names: a redirect's target


def connection_error(exc: Any) -> JudgeError:
    """A reply over the size cap (a reply error: never read whole, never parsed), or the
    kind of connection failure it was, for the circuit breaker."""
    large = too_large(exc)
    if large is not None:
        return JudgeReplyError(f"the endpoint's answer was not read: {large} (--max-reply-bytes)")
    kind = connection_kind(exc)
    if kind == "redirect":
        redirect = cause_of(exc, RedirectRefused)
        return EndpointFailure(str(redirect), kind, detail=redirect.target if redirect else None)
    cause = type(exc.__cause__).__name__ if exc.__cause__ else "no response"
    return EndpointFailure(f"connection to the endpoint failed ({cause}, {kind})", kind)


# Kinds an overloaded but living server shows: every call in flight may end in one together
# (a stall of a second times them all out), so these open the breaker only past the calls in
# flight plus `threshold`; the others (refused, DNS, TLS) do not come and go.
_OVERLOAD = frozenset({"timeout", "408", "5xx"})


# What the breaker's error tells a run; a judge check, which has no cases, leaves it out.
LEFT_PENDING = (
    "no further calls are made this run and the cases left stay pending: fix the endpoint "
    "(or --base-url) and run again"
)


class CircuitBreaker:
    """Counts failures of one kind in a row; opens at `threshold` (plus `in_flight` for the
    kinds an overloaded server shows; at the first failure for the kinds `at_once`), then
    stays open. `said`: what its line says of a kind, in place of the chat endpoint's words
    (the Batch API's `rate` names requests, not calls)."""

    def __init__(
        self,
        threshold: int,
        endpoint: str,
        *,
        in_flight: int = 0,
        at_once: frozenset[str] | set[str] = frozenset(),
        said: dict[str, str] | None = None,
    ) -> None:
        self._threshold = threshold
        self._said = {**_WHAT, **(said or {})}  # what the line says of each kind
        self._in_flight = in_flight
        self._at_once = frozenset(at_once)
        self._endpoint = endpoint
        self._lock = threading.Lock()
        self._kind: str | None = None
        self._count = 0
        self._open: str | None = None

    @property
    def open(self) -> str | None:
        """Why no further call is made, once the breaker opened."""
        return self._open

    def success(self) -> None:
        """The endpoint answered: the count starts again."""
        with self._lock:
            self._kind, self._count = None, 0

    def failure(self, kind: str, detail: str | None = None) -> JudgeUnreachable | None:
        """Count a failure; the error every call gets from now on, if this one opened it.
        `detail`: a redirect's target, named in that error; for "loading", the error's words
        after the endpoint's name (loading.py)."""
        if kind in _BY_CALL:  # an attempt of a call: counted when the call gives up
            return JudgeUnreachable(self._open) if self._open is not None else None
        return self._counted(kind, detail)

    def gave_up(self, kind: str | None) -> JudgeUnreachable | None:
        """A call gave up past its retries, its last failure of `kind`: counted for the kinds
        counted by call (a 429), as `failure` counts the others."""
        return self._counted(kind, None) if kind in _BY_CALL else None

    def _counted(self, kind: str, detail: str | None) -> JudgeUnreachable | None:
        with self._lock:
            if self._open is None:
                family = _FAMILY.get(kind, kind)
                self._count = self._count + 1 if family == self._kind else 1
                self._kind = family
                slack = self._in_flight if kind in _OVERLOAD else 0
                at_once = kind in self._at_once or kind in _PERMANENT
                if at_once or self._count >= self._threshold + slack:
                    times = "once" if self._count == 1 else f"{self._count} times in a row"
                    what = self._said.get(kind, kind)
                    if kind == "redirect" and detail:
                        what = what.replace("to another host", f"to {detail}, another host")
                    if kind == "loading":
                        what, times = detail or what, ""
                    if kind == "rate":
                        what, times = what.replace("N ", f"{self._count} ", 1), ""
                    said = f"{what} {times}".rstrip()
                    self._open = f"the judge endpoint {self._endpoint} {said}; {LEFT_PENDING}"
            return JudgeUnreachable(self._open) if self._open is not None else None

    def check(self) -> None:
        """Raise JudgeUnreachable when the breaker is open (before a call is made)."""
        if self._open is not None:
            raise JudgeUnreachable(self._open)


class WaitTooLong(JudgeError):
    """The endpoint asked to wait (Retry-After) longer than the run can: not waited for, the
    case stays pending for the next run."""

    case_status = "pending"
