"""A run's worker thread: calls run in order on one daemon thread, and every future handed
out ends, so no wait on one can hang (concurrent.futures' executors cancel queued futures on
shutdown without ever telling `wait`).

A closed stage's thread, once its calls are done, waits for the next run's stage of the same
name instead of ending: polars keeps its compiled regexes per thread, and the grounded judge's
patterns cost ~65 CPU-ms to compile on each fresh thread (a 20-row batch scores in ~55), paid
again by every run of a process that runs many (`faith serve`, a notebook, the test suite)."""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

__all__ = ["Stage"]

T = TypeVar("T")

_Call = tuple[Future[Any], Callable[..., Any], tuple]


class _IdleThreads:
    """Threads of closed stages, by name, each waiting for a stage of that name; one a name."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.workers: dict[str, _Worker] = {}

    def keep(self, worker: _Worker) -> bool:
        """Park `worker` for the next stage of its name, unless another waits there already."""
        with self.lock:
            if worker.name in self.workers:
                return False
            self.workers[worker.name] = worker
            return True

    def take(self, name: str) -> _Worker | None:
        with self.lock:
            return self.workers.pop(name, None)

    def forget(self) -> None:
        """Leave the parked threads waiting and start new ones (a forked child has none of its
        parent's threads, and the lock may have been held as it forked)."""
        self.lock = threading.Lock()
        self.workers = {}


_IDLE = _IdleThreads()
os.register_at_fork(after_in_child=_IDLE.forget)


class _Worker:
    """One daemon thread running the calls of one stage at a time."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.calls: queue.SimpleQueue[_Call | None] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._work, name=name, daemon=True)
        self.thread.start()

    def _work(self) -> None:
        while True:
            item = self.calls.get()
            if item is None:  # its stage is closed and its calls are done
                if _IDLE.keep(self):
                    continue
                return
            _run(*item)
            del item  # nothing of a run outlives it on an idle thread


def _run(future: Future[Any], call: Callable[..., Any], args: tuple) -> None:
    future.set_running_or_notify_cancel()
    try:
        result = call(*args)
    except BaseException as exc:
        future.set_exception(exc)
    else:
        future.set_result(result)


class Stage:
    """One daemon thread: a call stuck in a judge can never keep the process from exiting."""

    def __init__(self, name: str) -> None:
        self._worker = _IDLE.take(name) or _Worker(name)
        self._closed = False

    def submit(self, call: Callable[..., T], *args: Any) -> Future[T]:
        """Run `call(*args)` after the calls before it; its future gets the result or error."""
        if self._closed:
            raise RuntimeError(f"stage {self._worker.name} is closed")
        future: Future[T] = Future()
        self._worker.calls.put((future, call, args))
        return future

    def close(self) -> None:
        """The thread is free after the calls already submitted (each stops early on its own
        once the run's stop flag is set); closing again changes nothing."""
        if not self._closed:
            self._closed = True
            self._worker.calls.put(None)
