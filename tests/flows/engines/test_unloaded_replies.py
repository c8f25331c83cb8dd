"""A stopping Dask run keeps the judge replies of shards it had not loaded; when they cannot
be read, the folder stays for the next run's salvage instead of the replies being lost. The
next run salvages them whatever its engine: a Dask run killed, then finished with
`--engine local`, pays for none of its shards' replies again."""

from __future__ import annotations

from pathlib import Path

import pytest

from flows.engines.dask_run import shard_root
from flows.engines.loading import keep_unloaded_replies
from flows.engines.partition_task import PartitionJob, score_partition
from flows.engines.partitions import plan_partitions
from flows.judges.settings import JudgeSettings
from flows.read.source import resolve_source
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from flows.store.db import open_store
from tests.support.dask_cluster import CASES, KEY, write_llm_source
from tests.support.db_reading import query
from tests.support.openai_stub import serving


def test_unreadable_replies_leave_the_shard_folder_for_the_next_run(tmp_path: Path) -> None:
    run_folder = tmp_path / "f.duckdb.shards" / "run-1"
    part = run_folder / "part-00001"
    part.mkdir(parents=True)
    (part / "replies.parquet").write_bytes(b"not parquet")  # a shard cut off mid-write
    with open_store(tmp_path / "f.duckdb") as con:
        assert keep_unloaded_replies(con, tmp_path / "nothing-here") is True
        assert keep_unloaded_replies(con, run_folder) is False
    assert (part / "replies.parquet").exists()


def one_partition_job(
    tmp_path: Path, db: Path, base_url: str, concurrency: int = 8
) -> tuple[ScoreSettings, Path, PartitionJob]:
    """A Dask run's one partition as its task gets it (the judge at `base_url`): the run's
    settings, its shard folder and the job."""
    source = write_llm_source(tmp_path / "cases.parquet")
    judge = JudgeSettings(
        kind="openai", model="stub", base_url=base_url, mode="per-item", concurrency=concurrency
    )
    settings = ScoreSettings(source=str(source), db=str(db), judge=judge)
    folder = shard_root(str(db)) / "20261207T100000-0a1b2c3d"
    folder.mkdir(parents=True)
    (partition,) = plan_partitions(resolve_source(str(source), settings.read_options()), CASES)
    job = PartitionJob(
        partition=partition,
        root=None,
        shards=str(folder),
        judge=judge,
        config=settings.metric_config(),
        case_states=None,
        replies=None,
        semaphore=None,
    )
    return settings, folder, job


def killed_dask_runs_shard(tmp_path: Path, db: Path, base_url: str) -> tuple[ScoreSettings, Path]:
    """What a Dask run killed before loading its one partition leaves: the partition's task,
    run here as a worker runs it, wrote its shard (the replies it paid the judge at `base_url`
    for). The run's settings, and its shard folder."""
    settings, folder, job = one_partition_job(tmp_path, db, base_url)
    score_partition(job)
    return settings, folder


def test_a_task_killed_mid_partition_leaves_a_journal_its_retry_and_the_next_run_keep(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker killed mid-task (its memory limit, a kill -9) took the replies it had paid for
    with it: they lived in memory until the shard. Each is journalled as it arrives now: the
    task's retry asks none of them again, nor does the next run, which stores the journal's
    replies and removes it. A cap of 1: only the call in flight at the kill is asked twice."""
    import json
    import multiprocessing
    import os
    import signal

    from tests.support.dask_cluster import wait_for

    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    db = tmp_path / "faith.duckdb"
    with serving(api_key=KEY, delay=0.05) as stub:
        settings, folder, job = one_partition_job(tmp_path, db, stub.base_url, concurrency=1)
        task = multiprocessing.get_context("spawn").Process(target=score_partition, args=(job,))
        task.start()
        try:
            wait_for(lambda: stub.requests >= 12 or not task.is_alive(), 120)
            os.kill(task.pid or 0, signal.SIGKILL)
        finally:
            task.join(60)
        stub.delay = 0.0  # the kill is done: the retry and the next run need not crawl
        (journal,) = folder.glob("part-*.jsonl")
        journalled = len(journal.read_text().splitlines())
        score_partition(job)  # the retry, as another worker runs it
        run = run_score(settings)  # the next run, the Dask run killed before loading
        asked = [json.dumps(body["messages"], sort_keys=True) for body in stub.bodies]
    assert task.exitcode == -signal.SIGKILL
    assert journalled >= 10
    assert len(asked) - len(set(asked)) <= 1
    assert run["rows_newly_scored"] == CASES
    assert query(db, "SELECT count(*) FROM judge_cache") == [(len(set(asked)),)]
    assert not any(shard_root(str(db)).iterdir())


def test_a_local_run_after_a_killed_dask_run_pays_none_of_its_shards_replies_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    db = tmp_path / "faith.duckdb"
    with serving(api_key=KEY) as stub:
        settings, _ = killed_dask_runs_shard(tmp_path, db, stub.base_url)
        paid = stub.requests
        # the next run, on the local engine (the cluster is gone)
        run = run_score(settings)
        asked_again = stub.requests - paid

    assert paid > 0
    assert asked_again == 0
    assert run["rows_newly_scored"] == CASES
    assert query(db, "SELECT count(*) FROM judge_cache") == [(paid,)]
    assert not any(shard_root(str(db)).iterdir())  # its conversations no longer on disk


def test_a_shard_still_being_written_is_left_for_the_next_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stopped `--scheduler` run's task may still be writing its shard (a temporary folder,
    then a rename) when the next run salvages: the whole run folder was removed, so the task's
    rename failed and the replies it paid for were lost. Only the shards read are removed now,
    and the folder once nothing but old temporaries is left in it."""
    import os
    import shutil
    import time

    from flows.store.stale_shards import WRITING_SECONDS

    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    db = tmp_path / "faith.duckdb"
    with serving(api_key=KEY) as stub:
        settings, folder = killed_dask_runs_shard(tmp_path, db, stub.base_url)
        (written,) = folder.glob("part-*")
        writing = folder / ".part-000002.0f0f.tmp"  # another task's shard, half written
        shutil.copytree(written, writing)
        abandoned = shard_root(str(db)) / "20261206T100000-0a1b2c3d"
        dead = abandoned / ".part-000001.0e0e.tmp"  # a task that died writing, hours ago
        dead.mkdir(parents=True)
        old = time.time() - WRITING_SECONDS - 60
        os.utime(dead, (old, old))
        run_score(settings)
        assert sorted(p.name for p in folder.iterdir()) == [writing.name]
        assert not abandoned.exists()
        writing.rename(folder / "part-000002")  # the task finishes after the salvage
        run_score(settings)
    assert not folder.exists()


def test_a_failed_tasks_paid_replies_are_kept_under_a_name_no_shard_takes(tmp_path: Path) -> None:
    """A partition's task that raises (its judge stopped by a closing worker, or a failure)
    leaves the replies it paid for beside the shards: a stopping run stores them, and a
    retry's shard still takes the partition's own name."""
    from flows.engines.shards import shard_path, write_paid_replies
    from flows.engines.worker_judge import ShardReplies

    replies = ShardReplies(None)
    replies.put(
        "key-1", kind="truths", model="stub", prompt_version="v", schema_name="Truths",
        reply='{"truths": ["Order A17 shipped."]}', prompt_tokens=12, completion_tokens=5,
    )  # fmt: skip
    run_folder = tmp_path / "f.duckdb.shards" / "run-1"
    assert write_paid_replies(run_folder, 1, ShardReplies(None).replies()) is None  # none paid
    written = write_paid_replies(run_folder, 1, replies.replies())
    assert written is not None
    assert written.parent == run_folder
    assert written != shard_path(run_folder, 1)
    db = tmp_path / "f.duckdb"
    with open_store(db) as con:
        assert keep_unloaded_replies(con, run_folder) is True
    assert query(db, "SELECT cache_key, prompt_tokens FROM judge_cache") == [("key-1", 12)]


def test_a_journal_cut_mid_line_by_a_kill_is_salvaged_up_to_its_last_whole_line(
    tmp_path: Path,
) -> None:
    from datetime import datetime

    from flows.store.reply_journal import ReplyJournal, journal_path
    from flows.store.stale_shards import salvage_stale_shards

    run_folder = tmp_path / "f.duckdb.shards" / "run-1"
    run_folder.mkdir(parents=True)
    journal = ReplyJournal(journal_path(run_folder, "part-000001"))
    for n in (1, 2):
        journal.append(
            {"cache_key": f"key-{n}", "kind": "truths", "model": "stub", "prompt_version": "v",
             "schema_name": "Truths", "reply": '{"truths": ["Order A17 shipped."]}',
             "prompt_tokens": 12, "completion_tokens": n, "item": None,
             "created_at": datetime(2026, 12, 7, 10, 0, n)}
        )  # fmt: skip
    journal.close()  # as the kernel closes a killed process's files
    with journal.path.open("a") as cut:
        cut.write('{"cache_key": "key-3", "kind": "tru')  # the kill, mid-write
    db = tmp_path / "f.duckdb"
    with open_store(db) as con:
        salvage_stale_shards(con, shard_root(str(db)))
    assert query(db, "SELECT cache_key, completion_tokens FROM judge_cache ORDER BY 1") == [
        ("key-1", 1),
        ("key-2", 2),
    ]
    assert not shard_root(str(db)).exists() or not any(shard_root(str(db)).iterdir())
