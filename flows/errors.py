"""Errors the CLI turns into one clear line and an exit code; each says who must act."""

from __future__ import annotations

import errno
from typing import Any

from faith_udfs.errors import FaithError, JudgeError

# The OS's errors for a full disk or a used-up quota: one remedy (free space), exit 7, wherever
# they come (a database's folder or file, a Dask shard, any write the CLI ends on).
DISK_FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT})


class InputUnreadable(FaithError):
    """A source file cannot be read, or lacks a required column: the run writes nothing."""

    exit_code = 3
    # Said when DuckDB's reader ran out of memory (exit 7): why it may have, and what to do.
    memory_advice = (
        "thousands of columns, or huge rows); write it as Parquet, or leave out columns you do "
        "not need"
    )


class ConversationsUnreadable(InputUnreadable):
    """A conversation log cannot be read (flows/read/turns.py)."""

    memory_advice = (
        "messages of many MB, within the size limits, are read whole; read with 2 GB); lower "
        "--max-context-bytes and --max-answer-bytes, and messages past them are quarantined "
        "unread, or leave such messages out of the log"
    )


class DatabaseLocked(FaithError):
    """Another process holds the DuckDB file; waiting longer or another --db is the fix."""

    exit_code = 4


class DatabaseError(FaithError):
    """The DuckDB file is not a faithpipe database, or is newer than this faithpipe."""

    exit_code = 5


class JudgeEndpointError(JudgeError):
    """The judge's endpoint refuses every call (bad key, no such model or URL): fix the
    settings. After the first such answer, remaining items fail fast without a request."""

    exit_code = 6


class DatabaseWriteFailed(FaithError):
    """Committing a batch failed (disk full, I/O error, DuckDB out of memory): the batch
    rolled back, committed batches are kept; fix the disk (or lower --batch-size) and run
    again."""

    exit_code = 7


class RunAlarm(FaithError):
    """A run that kept everything yet should not look green (exit 8, 11, 15). `night`: the
    nightly run's row and judge check, for the lines `faith nightly` prints before the error;
    `run`: a score run's row, for the run line `faith score` prints before it."""

    night: dict[str, Any] | None = None
    run: dict[str, Any] | None = None


class TooManyInvalid(RunAlarm):
    """The run finished and kept everything, but more of its judged cases ended `invalid`
    than --max-invalid-share allows: the judge is failing, so the schedule should see it."""

    exit_code = 8


class PassRateAlert(RunAlarm):
    """The night finished and kept everything, but its pass rate fell below the range the
    trailing window expects (`faith nightly --alert-window`): someone should look."""

    exit_code = 15


class JudgeUnusable(FaithError):
    """The judge check (`faith judge-check`, the nightly preflight) found the LLM judge
    unusable: its replies do not parse, or it scores the seed's examples wrongly. Nothing was
    scored; fix the endpoint or pick a larger model."""

    exit_code = 9


class ClusterUnavailable(FaithError):
    """The Dask cluster cannot run the work: no worker joined, no partition finished within
    --task-timeout, or the scheduler was lost. Committed batches and paid judge replies are
    kept; fix the cluster and run again to resume."""

    exit_code = 10


class QuarantineShareExceeded(RunAlarm):
    """The run finished and kept everything, but more of its rows were quarantined than
    --max-quarantine-share allows: the source has drifted from the contract (a renamed or
    retyped column), so the schedule should see it."""

    exit_code = 11


class DatabaseUnwritable(DatabaseError):
    """The DuckDB file (or its folder, for the WAL) cannot be written: a read-only file or
    mount, an immutable file, no permission. Nothing was written; fix it or use another --db."""

    exit_code = 12


class DatabaseCorrupt(DatabaseError):
    """The DuckDB file is damaged: truncated, or a block fails its checksum. Restore it from a
    backup or its snapshot, or start a new --db."""

    exit_code = 13


class JudgeUnreachable(JudgeEndpointError):
    """The circuit breaker opened: the endpoint failed the same way call after call
    (refused, DNS, TLS, no answer, 5xx, a Retry-After past what the run can wait). No further
    call is made; the cases left stay pending, and the run ends with exit 6."""

    case_status = "pending"
