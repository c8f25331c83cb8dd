"""The judge as a Dask task builds it: no database, a cluster-wide cap on calls in flight.

- `ShardReplies` stands in for the reply cache (flows/store/reply_cache.py): it answers from
  the snapshot of `judge_cache` the flow process took, and keeps new replies for the shard,
  so they reach `judge_cache` when the shard is loaded.
- `ClusterLimiter` puts a `distributed.Semaphore` (one lease a request, `--concurrency`
  leases in the whole cluster) on top of the worker's own adaptive limiter, which still halves
  on 429s and creeps back up.
- `running_judge` keeps the judges of the tasks running in this worker process, so that a
  worker told to close (a stopped run closes its local cluster) stops them at once
  (`stop_running_judges`, from worker_preload.py) instead of waiting out their calls.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from typing import Any

import polars as pl

from faith_udfs import Judge
from faith_udfs.errors import JudgeTransientError
from flows.judges.endpoint.limiter import AdaptiveLimiter
from flows.judges.factory import build_judge, close_judge
from flows.judges.settings import JudgeSettings
from flows.store.reply_journal import ReplyJournal
from flows.store.shard_data import REPLY_COLUMNS

# How often a wait for a cluster lease looks at the judge's stop event.
_LEASE_POLL_SECONDS = 0.5
# The judges of the tasks running in this process (one a task), until each task ends.
_running: set[Judge] = set()
_running_lock = threading.Lock()
# The partition tasks running in this process, until each has written its shard.
_partitions = [0]
_partitions_done = threading.Condition()


class ShardReplies:
    """The reply cache of one partition's judge: stored replies from a Parquet snapshot,
    new ones kept in memory for the shard. Thread-safe, like the cache it replaces."""

    def __init__(
        self,
        snapshot: str | None,
        journal: ReplyJournal | None = None,
        earlier: pl.DataFrame | None = None,
    ) -> None:
        self._snapshot = snapshot
        self._lock = threading.Lock()
        # Replies an earlier attempt at the partition paid for (a killed worker's journal):
        # answered from here, and carried by this attempt's shard into judge_cache.
        self._new: dict[str, tuple[Any, ...]] = (
            {row[0]: row for row in earlier.select(list(REPLY_COLUMNS)).iter_rows()}
            if earlier is not None
            else {}
        )
        self.journal = journal

    def get_many(self, keys: Iterable[str]) -> dict[str, str]:
        wanted = list(dict.fromkeys(keys))
        with self._lock:
            found = {key: row[5] for key in wanted if (row := self._new.get(key)) is not None}
        missing = [key for key in wanted if key not in found]
        if missing and self._snapshot:
            stored = (
                pl.scan_parquet(self._snapshot).filter(pl.col("cache_key").is_in(missing)).collect()
            )
            found.update(zip(stored["cache_key"], stored["reply"], strict=True))
        return found

    def put(self, key: str, **fields: Any) -> None:
        row = {
            "cache_key": key,
            "prompt_tokens": 0,
            "completion_tokens": 0,
            "item": None,
            **fields,
            "created_at": datetime.now(UTC).replace(tzinfo=None),
        }
        with self._lock:
            self._new[key] = tuple(row[name] for name in REPLY_COLUMNS)
        if self.journal is not None:
            self.journal.append(row)

    def flush(self) -> int:
        return 0  # the shard carries the replies

    def close(self) -> None:
        return None

    def replies(self) -> pl.DataFrame:
        """The replies this partition paid for, in judge_cache's columns."""
        with self._lock:
            rows = list(self._new.values())
        return pl.DataFrame(rows, schema=REPLY_COLUMNS, orient="row")


class ClusterLimiter(AdaptiveLimiter):
    """A request slot is a slot of the worker's adaptive limiter AND a lease of the cluster's
    semaphore; a wait for either ends when the judge is stopped or after the local patience."""

    def __init__(self, local: AdaptiveLimiter, semaphore: Any) -> None:
        self._local = local
        self._semaphore = semaphore

    @property
    def limit(self) -> int:
        return self._local.limit

    @property
    def ceiling(self) -> int:  # type: ignore[override]
        return self._local.ceiling

    def acquire(self, stop: threading.Event | None = None) -> int:
        ticket = self._local.acquire(stop)
        give_up = time.monotonic() + self._local._patience
        try:
            while not self._semaphore.acquire(timeout=_LEASE_POLL_SECONDS):
                if stop is not None and stop.is_set():
                    raise JudgeTransientError("the judge was stopped while this call waited")
                if time.monotonic() > give_up:
                    raise JudgeTransientError("no cluster-wide request slot came free in time")
        except BaseException:
            self._local.release(ticket, ok=False)
            raise
        return ticket

    def wake(self) -> None:
        self._local.wake()

    def release(
        self, ticket: int, *, ok: bool, throttled: bool = False, retry_after: float | None = None
    ) -> None:
        try:
            self._semaphore.release()
        finally:
            self._local.release(ticket, ok=ok, throttled=throttled, retry_after=retry_after)


def build_worker_judge(
    settings: JudgeSettings, replies: ShardReplies, semaphore: str | None
) -> Judge:
    """The judge the settings ask for, built in a task: offline judges as usual, the LLM
    judge with `replies` as its cache and the cluster's semaphore `semaphore` as its cap."""
    if settings.kind in ("grounded", "lexical"):
        return build_judge(settings)  # a calibration's cut-offs included
    from distributed import Semaphore

    from flows.judges.live.judge import build_openai_judge

    lease = Semaphore(max_leases=settings.concurrency, name=semaphore) if semaphore else None
    return build_openai_judge(
        settings,
        cache=replies,  # type: ignore[arg-type]
        wrap_limiter=(lambda local: ClusterLimiter(local, lease)) if lease else None,
    )


@contextlib.contextmanager
def running_judge(
    settings: JudgeSettings, replies: ShardReplies, semaphore: str | None
) -> Iterator[Judge]:
    """A task's judge (build_worker_judge), known to `stop_running_judges` while the task
    runs, and closed when it ends."""
    judge = build_worker_judge(settings, replies, semaphore)
    with _running_lock:
        _running.add(judge)
    try:
        yield judge
    finally:
        with _running_lock:
            _running.discard(judge)
        close_judge(judge)


@contextlib.contextmanager
def partition_running() -> Iterator[None]:
    """A partition task at work, until its shard is written (`wait_for_partitions`)."""
    with _partitions_done:
        _partitions[0] += 1
    try:
        yield
    finally:
        with _partitions_done:
            _partitions[0] -= 1
            _partitions_done.notify_all()


def wait_for_partitions(seconds: float) -> bool:
    """Wait until no partition task of this process is at work, at most `seconds`; whether
    none is. A closing worker's tasks, their judges stopped, end within moments: the wait
    lets each write the shard holding the replies it paid for before the process exits."""
    with _partitions_done:
        return _partitions_done.wait_for(lambda: _partitions[0] == 0, timeout=seconds)


def stop_running_judges() -> int:
    """Stop every judge of this process's running tasks: no new call, calls in flight
    cancelled, so each task ends within moments (its cases unjudged, its shard never loaded:
    the run has stopped). Returns how many were stopped."""
    with _running_lock:
        judges = list(_running)
    for judge in judges:
        stop = getattr(judge, "stop", None)
        if callable(stop):
            stop()
    return len(judges)
