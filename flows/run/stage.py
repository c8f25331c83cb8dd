"""A run's worker thread: calls run in order on one daemon thread, and every future handed
out ends, so no wait on one can hang (concurrent.futures' executors cancel queued futures on
shutdown without ever telling `wait`)."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

__all__ = ["Stage"]

T = TypeVar("T")


class Stage:
    """One daemon thread: a call stuck in a judge can never keep the process from exiting."""

    def __init__(self, name: str) -> None:
        self._calls: queue.SimpleQueue[tuple[Future[Any], Callable[..., Any], tuple] | None]
        self._calls = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._work, name=name, daemon=True)
        self._thread.start()

    def submit(self, call: Callable[..., T], *args: Any) -> Future[T]:
        """Run `call(*args)` after the calls before it; its future gets the result or error."""
        future: Future[T] = Future()
        self._calls.put((future, call, args))
        return future

    def close(self) -> None:
        """The thread ends after the calls already submitted (each stops early on its own
        once the run's stop flag is set)."""
        self._calls.put(None)

    def _work(self) -> None:
        while (item := self._calls.get()) is not None:
            future, call, args = item
            future.set_running_or_notify_cancel()
            try:
                result = call(*args)
            except BaseException as exc:
                future.set_exception(exc)
            else:
                future.set_result(result)
