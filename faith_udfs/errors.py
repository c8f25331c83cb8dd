"""The few named errors of the metric, each saying who must act.

Retry-or-fail is a property of the class (`case_status`, `retryable`), never a string match.
"""

from __future__ import annotations


class FaithError(Exception):
    """Base of every error faithpipe raises on purpose."""


class JudgeError(FaithError):
    """A judge could not answer an item; the cases that need the item are not scored.

    `case_status` is what those cases become: `invalid` (kept with the error, retried by the
    next run) or `pending` (not attempted, e.g. a call cap was reached). `retryable` says
    whether asking again at once may help: the LLM judge's transport retries only those.
    """

    case_status = "invalid"
    retryable = False


class JudgeTransientError(JudgeError):
    """The judge failed in a way that may pass (timeout, 429, 5xx, a reply that is not a
    chat completion): retry with backoff, then invalid."""

    retryable = True


class JudgeReplyError(JudgeError):
    """The judge answered, but the reply is unusable (bad JSON, wrong shape, wrong count)."""


class JudgeBudgetExhausted(JudgeError):
    """A per-run cap on calls or tokens was reached: the case stays pending for the next run."""

    case_status = "pending"


def first_line_of(error: BaseException) -> str:
    """`Type: first line of the message`: how an error is named in one line."""
    message = str(error).strip().splitlines()
    return f"{type(error).__name__}: {message[0]}" if message else type(error).__name__


class JudgeCrashed(FaithError):
    """A judge raised something that is not a JudgeError: a bug in the judge, not a bad case.

    The run stops (after committing the batches before) instead of storing every case as
    invalid and failing them again on every later run.
    """

    exit_code = 1

    def __init__(self, judge: str, error: BaseException) -> None:
        detail = first_line_of(error)
        super().__init__(f"judge {judge} crashed (a bug, not a judge error): {detail}")
        self.judge = judge


class ConfigError(FaithError, ValueError):
    """A metric or judge setting is wrong; the message says how to fix it."""
