"""What the endpoint accepts, found by asking: the structured-output request (json_schema,
stepping down on a refusal, refusals.py) and the name of the reply-length field."""

from __future__ import annotations

import logging
import threading
from typing import Any

import openai

from flows.judges.endpoint.refusals import FORMATS, refuses_format, wants_completion_tokens

__all__ = ["Negotiation"]

log = logging.getLogger(__name__)


class Negotiation:
    """The request shape the endpoint answers, shared by every call of one endpoint; starts
    at a format remembered from earlier runs (`response_format`), else json_schema."""

    def __init__(self, response_format: str | None = None) -> None:
        self._lock = threading.Lock()
        self.format = FORMATS.index(response_format) if response_format in FORMATS else 0
        self.confirmed = False  # a request in the current format was answered
        self.limit_field = "max_tokens"  # max_completion_tokens where max_tokens is refused

    def answered(self, used_format: int) -> None:
        """A request in `used_format` was answered: the current format, if it still is."""
        with self._lock:
            if self.format == used_format:
                self.confirmed = True

    def refused_limit_field(self, exc: openai.APIStatusError, body: dict[str, Any]) -> bool:
        """True when the server wants `max_completion_tokens` instead of `max_tokens`: ask so."""
        if not wants_completion_tokens(exc, body):
            return False
        with self._lock:
            if self.limit_field == "max_tokens":
                self.limit_field = "max_completion_tokens"
                log.info("the judge endpoint wants max_completion_tokens; sending that from now on")
        return True

    def refused_format(self, exc: openai.APIStatusError, used_format: int) -> bool:
        """True when the server refused our response_format (refusals.py): step down to the
        next one, if there is one."""
        if used_format + 1 >= len(FORMATS) or not refuses_format(exc):
            return False
        with self._lock:
            if self.format == used_format:
                self.format = used_format + 1
                self.confirmed = False
                log.info(
                    "the judge endpoint refused response_format %s (HTTP %d); asking with %s "
                    "from now on",
                    FORMATS[used_format],
                    exc.status_code,
                    FORMATS[self.format],
                )
        return True
