"""Runs left `running` by a process that is gone are marked `superseded`, never left hanging.

A run's process holds the DuckDB write lock for the whole run, so whoever has just opened the
database read-write knows no other process is writing; this finds the runs whose process died
(SIGKILL, power loss, OOM) and says so in `runs.error`. Their committed batches are kept.
"""

from __future__ import annotations

import logging
import os
import socket
import sys
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import duckdb

from flows.store.db import sql, transaction

log = logging.getLogger("faithpipe")

# Only for runs of another host (or of unknown pid/host), whose process cannot be looked up.
# A live run elsewhere holds the lock, so this is a fallback for file systems whose locks do
# not reach across hosts; batches write a heartbeat, and an LLM batch can take long.
DEFAULT_STALE_AFTER = 3600.0
# /proc start times are whole seconds of boot time plus clock ticks: allow for the rounding.
_START_SLACK = timedelta(seconds=2)


def supersede_dead_runs(
    con: duckdb.DuckDBPyConnection,
    *,
    stale_after: float = DEFAULT_STALE_AFTER,
    now: datetime | None = None,
) -> list[str]:
    """Mark `superseded` every `running` run whose process is dead; returns their run ids.

    Same host: the pid is gone, a zombie, or a newer process that reused it. Other host, or
    pid/host unknown: no heartbeat for `stale_after` seconds.
    """
    now = now or datetime.now(UTC).replace(tzinfo=None)
    here = socket.gethostname()
    dead: list[tuple[str, str]] = []
    for run_id, pid, host, started_at, heartbeat_at in con.execute(sql("running_runs")).fetchall():
        note = _why_dead(
            pid,
            host,
            here=here,
            started_at=started_at,
            heartbeat_at=heartbeat_at,
            now=now,
            stale_after=stale_after,
        )
        if note:
            dead.append((run_id, note))
    if dead:
        with transaction(con):
            for run_id, note in dead:
                con.execute(sql("supersede_run"), {"run_id": run_id, "now": now, "note": note})
        for run_id, note in dead:
            log.warning("run %s %s", run_id, note)
    return [run_id for run_id, _ in dead]


def _why_dead(
    pid: int | None,
    host: str | None,
    *,
    here: str,
    started_at: datetime,
    heartbeat_at: datetime,
    now: datetime,
    stale_after: float,
) -> str | None:
    """Why the run's process is dead, or None when it may be alive."""
    if host == here and pid is not None and sys.platform != "win32":
        if pid == os.getpid() or process_alive(pid, started_before=started_at):
            return None
        return (
            f"superseded: its process {pid} on {host} ended without finishing the run "
            f"(killed or crashed; last heartbeat {heartbeat_at:%Y-%m-%d %H:%M:%S} UTC); "
            "committed batches are kept and the next run scores the rest"
        )
    silent = (now - heartbeat_at).total_seconds()
    if silent <= stale_after:
        return None
    return (
        f"superseded: no heartbeat from process {pid} on {host or 'an unknown host'} for "
        f"{silent:.0f} s (more than {stale_after:g} s); committed batches are kept and the "
        "next run scores the rest"
    )


def process_alive(pid: int, *, started_before: datetime | None = None) -> bool:
    """Whether `pid` is a live (not zombie) process of this host, started no later than
    `started_before` (naive UTC) when given: a later start means the pid was reused."""
    try:
        os.kill(pid, 0)  # signal 0: existence check only (POSIX; never called on Windows)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # alive, owned by another user
    stat = _proc_stat(pid)
    if stat is None:  # no /proc (macOS): existence is all we can tell
        return True
    state, started = stat
    if state == "Z":
        return False
    return started_before is None or started <= started_before + _START_SLACK


def _proc_stat(pid: int) -> tuple[str, datetime] | None:
    """(state, start time as naive UTC) of a Linux process, from /proc."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        boot = next(
            int(line.split()[1])
            for line in Path("/proc/stat").read_text().splitlines()
            if line.startswith("btime ")
        )
    except (OSError, StopIteration, ValueError):
        return None
    # The command name (field 2) may hold spaces and parentheses: split after its last ')'.
    fields = stat.rsplit(")", 1)[1].split()
    state, ticks = fields[0], int(fields[19])
    started = datetime.fromtimestamp(boot + ticks / os.sysconf("SC_CLK_TCK"), UTC)
    return state, started.replace(tzinfo=None)


def start_run(
    con: duckdb.DuckDBPyConnection, *, flow: str, config_id: str, config: str, source: str
) -> str:
    """Insert a `running` row into `runs` for this process; returns its run_id."""
    run_id = f"{datetime.now(UTC):%Y%m%dT%H%M%S}-{uuid.uuid4().hex[:8]}"
    con.execute(
        sql("start_run"),
        {
            "run_id": run_id,
            "flow": flow,
            "config_id": config_id,
            "config": config,
            "source": source,
            "now": _utc_now(),
            "pid": os.getpid(),
            "host": socket.gethostname(),
        },
    )
    return run_id


def finish_run(
    con: duckdb.DuckDBPyConnection,
    run_id: str,
    status: str,
    seconds_total: float,
    *,
    error: str | None = None,
) -> None:
    """Mark a run ended (`completed`, `failed`, `interrupted`) with its wall time."""
    con.execute(
        sql("finish_run"),
        {
            "run_id": run_id,
            "status": status,
            "now": _utc_now(),
            "seconds_total": seconds_total,
            "error": error,
        },
    )


def run_row(con: duckdb.DuckDBPyConnection, run_id: str) -> dict[str, Any]:
    """The run's row of `runs` as a dict."""
    frame = con.sql(sql("run_summary"), params={"run_id": run_id}).pl()
    return frame.row(0, named=True)


def _utc_now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def mark_run_warning(con: duckdb.DuckDBPyConnection, run_id: str, warning: str) -> None:
    """Add a warning to a run's row, after any it already has."""
    con.execute(sql("mark_run_warning"), {"run_id": run_id, "warning": warning})
