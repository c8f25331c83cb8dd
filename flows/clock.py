"""The run's deadline (`--run-timeout`), readable by every room: how long a wait may still
take. Set by flows/run/deadline.py while a deadline is armed; None when the run has none."""

from __future__ import annotations

import time

__all__ = ["remaining", "set_deadline"]

_deadline: list[float | None] = [None]  # time.monotonic() at which the run stops


def set_deadline(seconds: float | None) -> None:
    """The run stops `seconds` from now; None: no deadline."""
    _deadline[0] = None if seconds is None else time.monotonic() + seconds


def remaining() -> float | None:
    """Seconds left before the run's deadline (0 once past it); None without a deadline."""
    deadline = _deadline[0]
    return None if deadline is None else max(0.0, deadline - time.monotonic())
