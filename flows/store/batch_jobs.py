"""Submitted judge batches in DuckDB (`judge_batches`, `judge_batch_items`, migration 010):
what was asked in which batch, which batches are still waited for, and what collecting them
brought. The record that lets a later process collect what an earlier one submitted.

Safe to share between threads: every operation runs on the store's own cursor under one lock
(a DuckDB connection refuses concurrent use, stack-notes §3).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import UTC, datetime

import duckdb

from flows.store.db import run_sql_file, sql, transaction

__all__ = [
    "SUBMITTING",
    "BatchItem",
    "BatchJobs",
    "JudgeOf",
    "Standing",
    "submission_file",
    "submitting_id",
    "utc_now",
]

# A batch is recorded before it is created (state `submitting`), under this prefix and its
# input file's id, so that a create whose answer is lost is found and adopted, never repeated.
SUBMITTING = "submitting"
_PLACEHOLDER = SUBMITTING + ":"


def submitting_id(input_file_id: str) -> str:
    """The batch_id a batch is recorded under until the server's id is known."""
    return _PLACEHOLDER + input_file_id


def submission_file(batch_id: str) -> str | None:
    """The input file of a batch still recorded under its placeholder, else None."""
    return batch_id.removeprefix(_PLACEHOLDER) if batch_id.startswith(_PLACEHOLDER) else None


def utc_now() -> datetime:
    """Now, as the tables store times: naive UTC."""
    return datetime.now(UTC).replace(tzinfo=None)


@dataclass(frozen=True)
class JudgeOf:
    """Whose batches: the endpoint (host[:port]), model and judge identity (JSON) they were
    asked under. Only batches of the same three can be collected and waited for."""

    endpoint: str
    model: str
    config: str

    def params(self) -> dict[str, str]:
        return {"endpoint": self.endpoint, "model": self.model, "config": self.config}


@dataclass(frozen=True)
class BatchItem:
    """One judge item of a request line: its place in the pack, what it is, its cache key."""

    custom_id: str
    position: int
    stage: str
    item: str  # JSON of the item as it enters the cache key
    cache_key: str


@dataclass(frozen=True)
class Standing:
    """An item's latest batch: still waited for, or collected with (or without) an error."""

    batch_id: str
    submitted_at: datetime
    waiting: bool
    custom_id: str
    position: int
    error: str | None
    error_reported: bool
    unanswered: int = 0  # batches of the key collected without a usable answer for it


class BatchJobs:
    """Reads and writes of the batch tables on an open store connection."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self._cursor = con.cursor()
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return "BatchJobs()"

    def close(self) -> None:
        with self._lock:
            self._cursor.close()

    def record(
        self,
        *,
        batch_id: str,
        input_file_id: str,
        judge: JudgeOf,
        state: str,
        requests: int,
        items: list[BatchItem],
        submitted_at: datetime,
    ) -> None:
        """A batch, and its items, in one transaction: one the server accepted, or one about
        to be created (state `submitting`, batch_id from submitting_id)."""
        columns = {
            name: [getattr(item, name) for item in items]
            for name in ("custom_id", "position", "stage", "item", "cache_key")
        }
        with self._lock, transaction(self._cursor):
            run_sql_file(
                self._cursor,
                "judge_batch_record",
                {
                    **judge.params(),
                    **columns,
                    "batch_id": batch_id,
                    "input_file_id": input_file_id,
                    "state": state,
                    "requests": requests,
                    "submitted_at": submitted_at,
                },
            )

    def adopt(self, placeholder: str, *, batch_id: str, state: str) -> None:
        """A batch recorded as submitting now has the server's id (and state)."""
        with self._lock, transaction(self._cursor):
            run_sql_file(
                self._cursor,
                "judge_batch_adopt",
                {
                    "placeholder": placeholder,
                    "batch_id": batch_id,
                    "state": state,
                    "now": utc_now(),
                },
            )

    def of_file(self, input_file_id: str, endpoint: str) -> str | None:
        """The batch_id of a batch already recorded with this input file at `endpoint` (or
        under its placeholder), else None."""
        with self._lock:
            rows = self._cursor.execute(
                sql("judge_batch_of_file"),
                {
                    "placeholder": submitting_id(input_file_id),
                    "input_file_id": input_file_id,
                    "endpoint": endpoint,
                },
            ).fetchall()
        return rows[0][0] if rows else None

    def standing(self, cache_keys: list[str], judge: JudgeOf) -> dict[str, Standing]:
        """Each key's latest batch item under `judge`, for the keys that have one."""
        if not cache_keys:
            return {}
        with self._lock:
            rows = self._cursor.execute(
                sql("judge_batch_standing"), {"keys": cache_keys, **judge.params()}
            ).fetchall()
        return {key: Standing(*rest) for key, *rest in rows}

    def mark_reported(self, items: list[tuple[str, str, int]]) -> None:
        """(batch_id, custom_id, position) of items whose error has made a case invalid once."""
        if not items:
            return
        batch_ids, custom_ids, positions = (list(column) for column in zip(*items, strict=True))
        with self._lock, transaction(self._cursor):
            self._cursor.execute(
                sql("judge_batch_reported"),
                {"batch_id": batch_ids, "custom_id": custom_ids, "position": positions},
            )

    def unfinished(
        self, judge: JudgeOf | None = None, *, endpoint: str | None = None
    ) -> list[tuple[str, datetime, str]]:
        """(batch_id, submitted_at, state) of the batches still waited for, oldest first: of
        `judge`, or of any model and config at `endpoint`."""
        params = (
            judge.params()
            if judge is not None
            else {"endpoint": endpoint, "model": None, "config": None}
        )
        with self._lock:
            return self._cursor.execute(sql("judge_batch_unfinished"), params).fetchall()

    def unfinished_elsewhere(self, endpoint: str) -> list[tuple[str, int]]:
        """(endpoint, batches) still waited for at endpoints other than `endpoint`."""
        with self._lock:
            return self._cursor.execute(
                sql("judge_batch_unfinished_elsewhere"), {"endpoint": endpoint}
            ).fetchall()

    def seen(
        self,
        batch_id: str,
        *,
        state: str,
        output_file_id: str | None = None,
        error_file_id: str | None = None,
        error: str | None = None,
    ) -> None:
        """Store what the server said of a batch just now."""
        with self._lock:
            self._cursor.execute(
                sql("judge_batch_seen"),
                {
                    "batch_id": batch_id,
                    "state": state,
                    "output_file_id": output_file_id,
                    "error_file_id": error_file_id,
                    "error": error,
                    "now": utc_now(),
                },
            )

    def items_of(self, batch_id: str) -> list[BatchItem]:
        """The items of one batch, by request line and place in its pack."""
        with self._lock:
            rows = self._cursor.execute(
                sql("judge_batch_items_of"), {"batch_id": batch_id}
            ).fetchall()
        return [BatchItem(*row) for row in rows]

    def collected(
        self,
        batch_id: str,
        *,
        answered: int,
        errors: dict[tuple[str, int], str],
        prompt_tokens: int,
        completion_tokens: int,
    ) -> None:
        """A finished batch read: its items' errors and its totals, in one transaction. From
        now on its items without an answer are asked again."""
        with self._lock, transaction(self._cursor):
            run_sql_file(
                self._cursor,
                "judge_batch_collected",
                {
                    "batch_id": batch_id,
                    "error_custom_id": [custom_id for custom_id, _ in errors],
                    "error_position": [position for _, position in errors],
                    "error_text": list(errors.values()),
                    "items_answered": answered,
                    "items_failed": len(errors),
                    "prompt_tokens": prompt_tokens,
                    "completion_tokens": completion_tokens,
                    "now": utc_now(),
                },
            )


def list_batches(con: duckdb.DuckDBPyConnection, *, limit: int) -> duckdb.DuckDBPyRelation | None:
    """`faith batches`: the newest batches with their state, counts and age; None when the
    database predates the batch tables (no run of this faithpipe has written it yet)."""
    if not con.execute(sql("judge_batches_exist")).fetchall()[0][0]:
        return None
    return con.sql(sql("judge_batches_list"), params={"limit": limit, "now": utc_now()})
