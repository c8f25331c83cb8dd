"""What faithpipe remembers of an LLM endpoint across runs (migrations 008, 018): the
structured-output mode it answers, the judge mode its model can use, the items whose calls
failed, and its judge checks.

Thread-safe like the reply cache: every query runs on the memory's own cursor under one lock.
A memory that cannot be read or written costs a negotiation or an ordering, never a run.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import duckdb

from flows.store.db import sql

__all__ = ["MEMORY_ERRORS", "JudgeMemory", "JudgeMode", "record_run_judge"]

log = logging.getLogger(__name__)

MEMORY_ERRORS = (duckdb.Error,)


@dataclass(frozen=True)
class JudgeMode:
    """A row of `judge_modes`: the mode a model can judge in, and the latency measured."""

    judge_mode: str
    seconds_per_call: float | None
    slowest_call: float | None
    concurrency: int
    checked_at: datetime | None = None


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class JudgeMemory:
    """`judge_formats`, `judge_failures` and `judge_preflights` on an open store connection."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self._cursor = con.cursor()
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return "JudgeMemory()"

    def close(self) -> None:
        with self._lock:
            self._cursor.close()

    def response_format(self, endpoint_key: str, model: str) -> str | None:
        """The mode remembered for this endpoint and model, or None."""
        with self._lock:
            rows = self._cursor.execute(
                sql("judge_format_select"), {"endpoint_key": endpoint_key, "model": model}
            ).fetchall()
        return rows[0][0] if rows else None

    def remember_format(self, endpoint_key: str, model: str, response_format: str) -> None:
        with self._lock:
            self._cursor.execute(
                sql("judge_format_upsert"),
                {
                    "endpoint_key": endpoint_key,
                    "model": model,
                    "response_format": response_format,
                    "now": _now(),
                },
            )

    def judge_mode(self, endpoint_key: str, model: str) -> JudgeMode | None:
        """The judge mode `faith judge-check` found for this endpoint and model, or None."""
        with self._lock:
            rows = self._cursor.execute(
                sql("judge_mode_select"), {"endpoint_key": endpoint_key, "model": model}
            ).fetchall()
        return JudgeMode(*rows[0]) if rows else None

    def remember_mode(self, endpoint_key: str, model: str, mode: JudgeMode) -> None:
        with self._lock:
            self._cursor.execute(
                sql("judge_mode_upsert"),
                {
                    "endpoint_key": endpoint_key,
                    "model": model,
                    "judge_mode": mode.judge_mode,
                    "seconds_per_call": mode.seconds_per_call,
                    "slowest_call": mode.slowest_call,
                    "concurrency": mode.concurrency,
                    "now": _now(),
                },
            )

    def failed_before(self, keys: Iterable[str]) -> set[str]:
        """The keys among `keys` whose last call failed in an earlier run."""
        wanted = list(dict.fromkeys(keys))
        if not wanted:
            return set()
        with self._lock:
            rows = self._cursor.execute(sql("judge_failures_select"), {"keys": wanted}).fetchall()
        return {row[0] for row in rows}

    def record_failures(self, failures: dict[str, str]) -> None:
        """Count one more failure for each item (cache key -> error)."""
        if not failures:
            return
        with self._lock:
            self._cursor.execute(
                sql("judge_failures_upsert"),
                {"keys": list(failures), "errors": list(failures.values()), "now": _now()},
            )

    def passed_check(
        self, endpoint_key: str, model: str, judge: str, *, within: timedelta
    ) -> tuple[datetime, str | None] | None:
        """(when, mode) of the latest passed check of this judge within `within`, or None."""
        params = {
            "endpoint_key": endpoint_key,
            "model": model,
            "judge": judge,
            "since": _now() - within,
        }
        with self._lock:
            rows = self._cursor.execute(sql("judge_preflight_latest"), params).fetchall()
        return (rows[0][0], rows[0][1]) if rows else None

    def record_check(self, endpoint_key: str, model: str, judge: str, **check: Any) -> None:
        """Store one judge check (see judge_preflights in 008_judge_protocol.sql)."""
        with self._lock:
            self._cursor.execute(
                sql("judge_preflight_insert"),
                {
                    "endpoint_key": endpoint_key,
                    "model": model,
                    "judge": judge,
                    "now": _now(),
                    **check,
                },
            )


def record_run_judge(
    con: duckdb.DuckDBPyConnection, run_id: str, response_format: str | None, estimated: int
) -> None:
    """Put the judge's structured-output mode and estimated-token calls on the run's row
    (nothing to put for judges that make no calls)."""
    if response_format is None and not estimated:
        return
    con.execute(
        sql("record_run_judge"),
        {"run_id": run_id, "response_format": response_format, "estimated": int(estimated)},
    )
