"""The judge's reply cache in DuckDB's `judge_cache` table: a re-run pays for nothing twice.

Replies are buffered and written in small transactions (every `flush_every` entries or
`flush_seconds`, and on `flush()`/`close()`), so a run killed at any moment loses at most one
small buffer of answers. Safe to share between threads: every database operation runs on the
cache's own cursor under one lock (a DuckDB connection refuses concurrent use, stack-notes §3).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable
from datetime import UTC, datetime
from types import TracebackType

import duckdb

from flows.store.db import sql

log = logging.getLogger(__name__)

# Columns of the public `judge_cache` (flows/store/sql/001_tables.sql), in buffered-row order; the
# queries are flows/store/sql/judge_cache_*.sql and bind each column as one list.
_COLUMNS = (
    "cache_key",
    "kind",
    "model",
    "prompt_version",
    "schema_name",
    "reply",
    "prompt_tokens",
    "completion_tokens",
    "created_at",
    "item",  # migration 018: the item's data, for `faith cache check`
)
# A buffer that cannot be written (disk full, ...) is kept for a later flush, up to this size.
_MAX_UNWRITTEN = 100_000


# What a cache read or write may raise: a run goes on without the cache.
CACHE_ERRORS = (duckdb.Error,)


class ReplyCache:
    """Buffered, thread-safe reads and writes of `judge_cache` on an open store connection."""

    def __init__(
        self,
        con: duckdb.DuckDBPyConnection,
        *,
        flush_every: int = 50,
        flush_seconds: float = 2.0,
    ) -> None:
        self._cursor = con.cursor()
        self._flush_every = max(1, flush_every)
        self._flush_seconds = flush_seconds
        self._lock = threading.Lock()
        self._buffer: dict[str, tuple[object, ...]] = {}
        self._last_flush = time.monotonic()
        self._closed = False

    def __repr__(self) -> str:
        return f"ReplyCache(buffered={len(self._buffer)})"

    def get_many(self, keys: Iterable[str]) -> dict[str, str]:
        """The stored replies' JSON text among `keys`, in one query (buffered ones included)."""
        wanted = list(dict.fromkeys(keys))
        if not wanted:
            return {}
        with self._lock:
            found: dict[str, str] = {
                key: str(row[5]) for key in wanted if (row := self._buffer.get(key)) is not None
            }
            missing = [key for key in wanted if key not in found]
            if missing:
                rows = self._cursor.execute(sql("judge_cache_select"), {"keys": missing}).fetchall()
                found.update((key, reply) for key, reply in rows)
        return found

    def put(
        self,
        key: str,
        *,
        kind: str,
        model: str,
        prompt_version: str,
        schema_name: str,
        reply: str,
        prompt_tokens: int = 0,
        completion_tokens: int = 0,
        item: str | None = None,
    ) -> None:
        """Buffer one reply (and the JSON of the item it answers); writes the buffer when it
        is full or old enough.

        A failed write here is logged and kept for the next flush: the answer in hand is
        still good, only a re-run would pay for it again.
        """
        row = (
            key,
            kind,
            model,
            prompt_version,
            schema_name,
            reply,
            int(prompt_tokens),
            int(completion_tokens),
            datetime.now(UTC).replace(tzinfo=None),
            item,
        )
        with self._lock:
            self._buffer[key] = row
            due = (
                len(self._buffer) >= self._flush_every
                or time.monotonic() - self._last_flush >= self._flush_seconds
            )
            if not due:
                return
            try:
                self._write()
            except duckdb.Error as exc:
                log.warning(
                    "judge cache: %d replies not written yet (%s); retrying at the next flush",
                    len(self._buffer),
                    type(exc).__name__,
                )
                self._trim()

    def flush(self) -> int:
        """Write every buffered reply in one transaction; returns how many were written."""
        with self._lock:
            return self._write()

    def close(self) -> None:
        """Flush, then release the cache's cursor (the store connection stays open)."""
        with self._lock:
            if self._closed:
                return
            try:
                self._write()
            finally:
                self._closed = True
                self._cursor.close()

    def __enter__(self) -> ReplyCache:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _write(self) -> int:
        self._last_flush = time.monotonic()
        if not self._buffer:
            return 0
        rows = list(self._buffer.values())
        params = {name: [row[i] for row in rows] for i, name in enumerate(_COLUMNS)}
        self._cursor.execute("BEGIN TRANSACTION")
        try:
            self._cursor.execute(sql("judge_cache_upsert"), params)
        except BaseException:
            self._cursor.execute("ROLLBACK")
            raise
        self._cursor.execute("COMMIT")
        self._buffer.clear()
        return len(rows)

    def _trim(self) -> None:
        while len(self._buffer) > _MAX_UNWRITTEN:
            self._buffer.pop(next(iter(self._buffer)))
