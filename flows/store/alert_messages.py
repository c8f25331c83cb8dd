"""The webhook messages of `faith nightly`, kept in `alert_messages` until delivered: a night
stopped after its results were committed (or a webhook that failed) leaves them to the next."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from flows.store.db import sql, transaction

if TYPE_CHECKING:
    import duckdb

__all__ = ["mark_sent", "record_alerts", "unsent_messages"]


def record_alerts(
    con: duckdb.DuckDBPyConnection,
    run_id: str,
    warnings: list[str],
    messages: list[dict[str, Any]],
) -> None:
    """Add a night's `warnings` to its runs.warning and store its webhook `messages`,
    undelivered, in one transaction: a night never has the one without the other."""
    raised_at = _utc_now()
    with transaction(con):
        for warning in warnings:
            con.execute(sql("mark_run_warning"), {"run_id": run_id, "warning": warning})
        for position, message in enumerate(messages):
            params = {
                "run_id": run_id,
                "position": position,
                "kind": str(message["kind"]),
                "message": json.dumps(message, default=str),
                "raised_at": raised_at,
            }
            con.execute(sql("alert_message_insert"), params)


def unsent_messages(con: duckdb.DuckDBPyConnection) -> list[tuple[str, int, dict[str, Any]]]:
    """(run_id, position, message) of every message not delivered yet, oldest first."""
    rows = con.execute(sql("alert_messages_unsent")).fetchall()
    return [(run_id, position, json.loads(message)) for run_id, position, message in rows]


def mark_sent(con: duckdb.DuckDBPyConnection, run_id: str, position: int) -> None:
    """The message arrived: it is not sent again."""
    params = {"run_id": run_id, "position": position, "sent_at": _utc_now()}
    con.execute(sql("alert_message_sent"), params)


def _utc_now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)
