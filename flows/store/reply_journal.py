"""The judge replies a Dask task paid for, appended one JSON line each as they arrive, beside
the run's shards (`part-NNNNNN.replies-<id>.jsonl`).

A worker killed mid-task (its memory limit, the OOM killer, a kill -9) takes its replies in
memory with it: the task's retry asked every call again, and paid. The journal outlives the
worker: the retry answers from it (`earlier_replies`), and a stopped or dead run's salvage
stores it in `judge_cache` (flows/store/stale_shards.py). A line cut by the kill is skipped.
"""

from __future__ import annotations

import json
import logging
import threading
import uuid
from datetime import datetime
from pathlib import Path
from typing import IO, Any

import polars as pl

from flows.store.shard_data import REPLY_COLUMNS

log = logging.getLogger("faithpipe")

JOURNAL_SUFFIX = ".jsonl"


def journal_path(folder: Path, shard_name: str) -> Path:
    """A new journal's path for an attempt at the shard `shard_name` (attempts never share)."""
    return folder / f"{shard_name}.replies-{uuid.uuid4().hex}{JOURNAL_SUFFIX}"


class ReplyJournal:
    """Appends replies to one file, each flushed to the kernel before `append` returns (a
    killed process loses none of them; a machine that loses power may). Best effort: a write
    that fails (a full disk) is said once and ends the journal, not the task."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: IO[str] | None = None
        self._broken = False
        self._lock = threading.Lock()

    def append(self, row: dict[str, Any]) -> None:
        """One reply (judge_cache's columns; `created_at` a datetime) at the journal's end."""
        with self._lock:
            if self._broken:
                return
            try:
                fields = {name: row.get(name) for name in REPLY_COLUMNS}
                fields["created_at"] = row["created_at"].isoformat()
                if self._file is None:
                    self._file = self.path.open("a", encoding="utf-8")
                self._file.write(json.dumps(fields) + "\n")
                self._file.flush()
            except (OSError, TypeError, ValueError) as exc:
                self._broken = True
                log.warning("judge replies not journalled in %s (%s): a retry of this task "
                            "asks them again", self.path, exc)  # fmt: skip

    def close(self) -> None:
        """Stop journalling; the file stays for a retry or the next run's salvage."""
        with self._lock:
            self._broken = True
            if self._file is not None:
                self._file.close()
                self._file = None

    def remove(self) -> None:
        """Close and delete the journal: the replies it holds are safe elsewhere."""
        self.close()
        self.path.unlink(missing_ok=True)


def read_journal(path: Path) -> pl.DataFrame:
    """A journal's replies in judge_cache's columns; lines that do not parse (the last one,
    cut by a kill) are left out."""
    rows = []
    with path.open(encoding="utf-8", errors="replace") as lines:
        for line in lines:
            try:
                row = json.loads(line)
                row["created_at"] = datetime.fromisoformat(row["created_at"])
                rows.append(tuple(row[name] for name in REPLY_COLUMNS))
            except (ValueError, KeyError, TypeError):
                continue
    return pl.DataFrame(rows, schema=REPLY_COLUMNS, orient="row")


def earlier_replies(folder: Path, shard_name: str) -> pl.DataFrame:
    """The replies earlier attempts at the shard paid for: their journals, and the replies a
    failed attempt wrote as it ended (`part-NNNNNN.replies-<id>/replies.parquet`)."""
    frames = [read_journal(path) for path in folder.glob(f"{shard_name}.replies-*{JOURNAL_SUFFIX}")]
    frames += [
        pl.read_parquet(path).select(list(REPLY_COLUMNS))
        for path in folder.glob(f"{shard_name}.replies-*/replies.parquet")
    ]
    if not frames:
        return pl.DataFrame(schema=REPLY_COLUMNS)
    return pl.concat(frames).unique("cache_key", keep="first", maintain_order=True)
