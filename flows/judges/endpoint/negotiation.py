"""What the endpoint accepts, found by asking: the structured-output request (json_schema,
stepping down on a refusal, refusals.py; back up when a refusal proves to be about the prompt)
and the name of the reply-length field."""

from __future__ import annotations

import logging
import threading
from typing import Any

import openai

from flows.judges.endpoint.refusals import (
    FORMATS,
    TRANSIENT_STATUS,
    format_refusal,
    wants_completion_tokens,
)

__all__ = ["Negotiation"]

log = logging.getLogger(__name__)


class Negotiation:
    """The request shape the endpoint answers, shared by every call of one endpoint; starts
    at a format remembered from earlier runs (`response_format`), else json_schema."""

    def __init__(self, response_format: str | None = None) -> None:
        self._lock = threading.Lock()
        self.format = FORMATS.index(response_format) if response_format in FORMATS else 0
        self._answered: set[int] = set()  # formats in which a request was answered
        self._floor = self.format  # the best format no refusal naming it has ruled out
        # Requests (by prompt) that stepped down on a refusal naming nothing: the format they
        # were first asked in (restored if they are refused in the lower formats too) and the
        # last they were refused in (never asked again: each request only steps down).
        self._unproven: dict[str, tuple[int, int]] = {}
        self.limit_field = "max_tokens"  # max_completion_tokens where max_tokens is refused

    @property
    def confirmed(self) -> bool:
        """Whether a request in the current format was answered (worth remembering)."""
        return self.format in self._answered

    def format_for(self, prompt: str) -> int:
        """The format to ask `prompt` in: the current one, below any it was refused in."""
        with self._lock:
            refused = self._unproven.get(prompt)
            return self.format if refused is None else max(self.format, refused[1] + 1)

    def answered(self, used_format: int, prompt: str) -> None:
        """The request of `prompt` was answered in `used_format`: that format works, and any
        step down the request made on the way was the right one."""
        with self._lock:
            self._answered.add(used_format)
            self._unproven.pop(prompt, None)

    def refused_limit_field(self, exc: openai.APIStatusError, body: dict[str, Any]) -> bool:
        """True when the server wants `max_completion_tokens` instead of `max_tokens`: ask so."""
        if not wants_completion_tokens(exc, body):
            return False
        with self._lock:
            if self.limit_field == "max_tokens":
                self.limit_field = "max_completion_tokens"
                log.info("the judge endpoint wants max_completion_tokens; sending that from now on")
        return True

    def refused_format(self, exc: openai.APIStatusError, used_format: int, prompt: str) -> bool:
        """True when the server refused our response_format (refusals.py): step down to the
        next one, if there is one. A request that stepped down on a refusal naming nothing and
        is refused again, for another reason or in the last format (no response_format at
        all), was never refused for its format (a content filter, a bad prompt): the format it
        started in is asked again from now on, so one such prompt cannot lower every call's."""
        kind = format_refusal(exc, prompt)
        with self._lock:
            if kind is None or used_format + 1 >= len(FORMATS):
                self._restore(prompt, exc.status_code)
                return False
            if kind == "named":
                self._floor = max(self._floor, used_format + 1)
            else:
                started = self._unproven.get(prompt, (used_format, used_format))[0]
                self._unproven[prompt] = (started, used_format)
            if self.format == used_format:
                self.format = used_format + 1
                log.info(
                    "the judge endpoint refused response_format %s (HTTP %d); asking with %s "
                    "from now on",
                    FORMATS[used_format],
                    exc.status_code,
                    FORMATS[self.format],
                )
        return True

    def _restore(self, prompt: str, status: int) -> None:
        """Back to the format `prompt` was first asked in (never above one a named refusal
        ruled out), when the request had stepped down on an unproven refusal (under _lock)."""
        if not 400 <= status < 500 or status in TRANSIENT_STATUS:
            return  # a passing failure proves nothing either way
        tried = self._unproven.pop(prompt, None)
        if tried is None:
            return
        best = max(tried[0], self._floor)
        if self.format > best:
            log.info(
                "the judge endpoint refused a request in response_format %s too (HTTP %d): "
                "its refusal was not of the format; asking with %s again",
                FORMATS[self.format],
                status,
                FORMATS[best],
            )
            self.format = best
