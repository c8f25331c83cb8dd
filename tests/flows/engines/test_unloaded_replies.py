"""A stopping Dask run keeps the judge replies of shards it had not loaded; when they cannot
be read, the folder stays for the next run's salvage instead of the replies being lost."""

from __future__ import annotations

from pathlib import Path

from flows.engines.loading import keep_unloaded_replies
from flows.store.db import open_store


def test_unreadable_replies_leave_the_shard_folder_for_the_next_run(tmp_path: Path) -> None:
    run_folder = tmp_path / "f.duckdb.shards" / "run-1"
    part = run_folder / "part-00001"
    part.mkdir(parents=True)
    (part / "replies.parquet").write_bytes(b"not parquet")  # a shard cut off mid-write
    with open_store(tmp_path / "f.duckdb") as con:
        assert keep_unloaded_replies(con, tmp_path / "nothing-here") is True
        assert keep_unloaded_replies(con, run_folder) is False
    assert (part / "replies.parquet").exists()
