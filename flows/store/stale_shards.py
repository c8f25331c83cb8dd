"""Dask shards a run left unloaded in `<db>.shards/`: the judge replies they paid for, kept
in `judge_cache` by the next run on the database, whatever its engine, before the shards go.

A shard is left by a flow process killed before loading it, by a task still running when
its run stopped (it finishes its partition on a `--scheduler` cluster), or by a stopped run
that could not store its unloaded shards' replies. Only a process holding the database
salvages, so no live run owns any of them.
"""

from __future__ import annotations

import logging
import shutil
import time
from pathlib import Path

import duckdb
import polars as pl

from flows.store.reply_journal import JOURNAL_SUFFIX, read_journal
from flows.store.shard_data import store_replies

log = logging.getLogger("faithpipe")


def shard_root(db: str) -> Path:
    """Where a run's workers write their shards: next to the database (workers on other
    machines need this folder on a shared file system)."""
    return Path(f"{db}.shards").resolve()


def stale_replies(folder: Path, run: str = "*") -> list[pl.DataFrame]:
    """The judge replies in shards a run (`run`, by default any) left unloaded, and in the
    journals of tasks that died (flows/store/reply_journal.py): paid for."""
    return [pl.read_parquet(file) for file in folder.glob(f"{run}/part-*/replies.parquet")] + [
        read_journal(file) for file in folder.glob(f"{run}/part-*{JOURNAL_SUFFIX}")
    ]


def salvage_stale_shards(con: duckdb.DuckDBPyConnection, root: Path) -> None:
    """Shards a dead or stopped run left behind: keep the judge replies they paid for, then
    remove those shards. Their rows are scored again (from those replies, at no cost) by this
    run, which re-reads the whole source. A stopped run's task on a `--scheduler` cluster may
    still be writing its shard (under a temporary name, then renamed): only the shards read
    here are removed, and a run's folder only once nothing is left in it but temporaries
    older than WRITING_SECONDS, so a shard landing meanwhile waits for the next run."""
    if not root.is_dir():
        return
    read = sorted(root.glob("*/part-*"))
    journals = [part for part in read if part.name.endswith(JOURNAL_SUFFIX) and part.is_file()]
    kept = sum(
        store_replies(con, pl.read_parquet(replies))
        for replies in (part / "replies.parquet" for part in read)
        if replies.is_file()
    ) + sum(store_replies(con, read_journal(journal)) for journal in journals)
    if kept:
        log.info("kept %d judge replies from shards an earlier run left behind", kept)
    for part in read:
        if part in journals:
            part.unlink(missing_ok=True)
        else:
            shutil.rmtree(part, ignore_errors=True)
    for folder in root.iterdir():
        _remove_when_done(folder)


# A temporary shard this old is a task's that died writing it, not one still being written.
WRITING_SECONDS = 6 * 3600.0


def _remove_when_done(folder: Path) -> None:
    """Remove a run's shard folder holding nothing but old temporaries; rmdir, not rmtree:
    a shard renamed into it since it was read keeps it for the next run."""
    now = time.time()
    try:
        for temporary in folder.glob(".part-*.tmp"):
            if now - temporary.stat().st_mtime > WRITING_SECONDS:
                shutil.rmtree(temporary, ignore_errors=True)
        folder.rmdir()
    except OSError:  # not empty (a shard written now), or gone: the next run looks again
        return
