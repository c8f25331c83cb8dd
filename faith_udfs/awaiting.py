"""A custom model's coroutine run to its end from the synchronous batch path.

A DeepEval user often writes `async def generate` (or has `generate` return `a_generate(...)`):
the batch path calls `generate` from plain code, possibly inside a running event loop (Jupyter,
`a_measure`'s worker thread), where `asyncio.run` is refused. Every such coroutine runs on one
event loop of faith_udfs' own, in a daemon thread: one loop for every call, so an async client
(AsyncOpenAI, an httpx pool) that binds to the loop of its first call keeps working. A wait
has a deadline (`DEADLINE_SECONDS`), and hears Ctrl-C between short slices. Called from a
thread that runs an event loop, a sync `generate` runs in the worker threads of faith_udfs'
own loop (not the caller's), where its own `asyncio.run(...)` is allowed.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

from faith_udfs.errors import JudgeError, JudgeTransientError
from faith_udfs.judges import ItemOutcome, outcome_of_error

T = TypeVar("T")
R = TypeVar("R")

# How long one call of an async `generate` may take before its item is given up (an error).
DEADLINE_SECONDS = 600.0
_SLICE_SECONDS = 0.05


class _SharedLoop:
    """The one event loop, started in its daemon thread on first use."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.loop: asyncio.AbstractEventLoop | None = None

    def forget(self) -> None:
        """A forked child has the parent's loop object but not its thread: start another
        (and a lock of its own: the parent's may have been held by a thread not copied)."""
        self.lock = threading.Lock()
        self.loop = None

    def running(self) -> asyncio.AbstractEventLoop:
        with self.lock:
            if self.loop is None or self.loop.is_closed():
                loop = asyncio.new_event_loop()
                thread = threading.Thread(
                    target=loop.run_forever, name="faith-udfs-async-generate", daemon=True
                )
                thread.start()
                self.loop = loop
            return self.loop


_SHARED = _SharedLoop()
# The stop of the concurrent map a worker thread answers for (set when its caller is stopped).
_WORKER = threading.local()
os.register_at_fork(after_in_child=_SHARED.forget)


def loop_running_here() -> bool:
    """Whether this thread runs an event loop (a notebook's cell, an async app's handler)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def run_in_worker(call: Callable[[], Any], what: str) -> Any:
    """`call()` in a worker thread of faith_udfs' loop, waited for as `run_awaitable` waits:
    from a thread running an event loop, a `generate` that runs one of its own
    (`asyncio.run(self.a_generate(prompt))`) is refused by asyncio."""
    return run_awaitable(asyncio.to_thread(call), what)


class _Escaped(Exception):
    """A KeyboardInterrupt or SystemExit the coroutine raised, carried to its caller: raised
    on the loop, it would end run_forever and its thread, and every wait after it would run
    to its deadline on a loop no one runs."""


async def _awaited(awaitable: Awaitable[Any]) -> Any:
    try:
        return await awaitable
    except (KeyboardInterrupt, SystemExit) as exc:
        raise _Escaped(exc) from None


def run_awaitable(awaitable: Awaitable[Any], what: str) -> Any:
    """What `awaitable` (a coroutine `what` returned) gives, run on faith_udfs' event loop.
    Its exception is raised here; past the deadline it is cancelled and raises a
    `JudgeTransientError`, its item's error. A stop (Ctrl-C) while waiting cancels it too."""
    future = asyncio.run_coroutine_threadsafe(_awaited(awaitable), _SHARED.running())
    deadline = time.monotonic() + DEADLINE_SECONDS
    stop: threading.Event | None = getattr(_WORKER, "stop", None)
    try:
        while not future.done():
            left = deadline - time.monotonic()
            if left <= 0:
                raise JudgeTransientError(f"{what} did not finish within {DEADLINE_SECONDS:g} s")
            if stop is not None and stop.is_set():
                raise JudgeTransientError(f"{what} was stopped")
            concurrent.futures.wait([future], timeout=min(_SLICE_SECONDS, left))
    except BaseException:
        future.cancel()
        raise
    try:
        return future.result()  # the coroutine's own TimeoutError is its error, not our wait's
    except _Escaped as escaped:  # raised here, where a sync generate's would be
        raise escaped.args[0] from None


def stopped_by(stop: threading.Event, call: Callable[[], T]) -> T:
    """`call()`, its waits in this thread given up once `stop` is set (`a_measure`'s worker
    thread, whose caller was cancelled: a timeout, Ctrl-C)."""
    before = getattr(_WORKER, "stop", None)
    _WORKER.stop = stop
    try:
        return call()
    finally:
        _WORKER.stop = before


class Pacer:
    """Starts `spacing` seconds apart at least, across every call it paces (DeepEval's
    `throttle_value`: a rate-limited account's calls spread out, not sent together)."""

    def __init__(self, spacing: float) -> None:
        self.spacing = spacing
        self._lock = threading.Lock()
        self._next = time.monotonic()

    def wait(self, stop: threading.Event) -> None:
        """Wait for this start's slot (each start takes the next); JudgeTransientError when
        `stop` is set meanwhile."""
        with self._lock:
            start = max(self._next, time.monotonic())
            self._next = start + self.spacing
        if stop.wait(max(0.0, start - time.monotonic())):
            raise JudgeTransientError("the call was stopped before it started")


def map_together(
    answer: Callable[[T], R], items: Sequence[T], workers: int, pacer: Pacer | None = None
) -> list[ItemOutcome[R]]:
    """`answer` of every item, up to `workers` at once (each waits in a thread of its own for
    its coroutine on the shared loop), in the items' order, each started when `pacer` lets it;
    an item's judge error is its outcome, any other exception propagates. A stop (Ctrl-C, or
    the stop of the thread calling it: `stopped_by`) while waiting stops them all."""
    stop = threading.Event()
    outer: threading.Event | None = getattr(_WORKER, "stop", None)

    def one(item: T) -> ItemOutcome[R]:
        _WORKER.stop = stop
        try:
            if pacer is not None:
                pacer.wait(stop)
            return ItemOutcome(value=answer(item))
        except JudgeError as exc:
            return outcome_of_error(exc)
        finally:
            _WORKER.stop = None

    pool = concurrent.futures.ThreadPoolExecutor(workers, thread_name_prefix="faith-udfs-item")
    try:
        futures = [pool.submit(one, item) for item in items]
        while not all(future.done() for future in futures):  # short waits hear Ctrl-C
            if outer is not None and outer.is_set():
                stop.set()
            concurrent.futures.wait(futures, timeout=_SLICE_SECONDS)
        return [future.result() for future in futures]
    except BaseException:
        stop.set()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
