"""Reading while a run writes (issue 11 item 9): a reader waits with one line and gives up
with exit 4, or reads the snapshot written after the last completed run."""

from __future__ import annotations

import logging
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb
import pytest

from flows.cli import main
from flows.errors import DatabaseLocked
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from flows.store.db import connect_for_reading, open_store
from flows.store.snapshot import snapshot_path, write_snapshot
from tests.support.builders import many_cases, write

# A writer as a run is one: it opens the database read-write and keeps it until stdin closes.
HOLDER = (
    "import duckdb, sys; c = duckdb.connect(sys.argv[1]); print('holding', flush=True); "
    "sys.stdin.read()"
)


@contextmanager
def writer_holding(db: Path) -> Iterator[subprocess.Popen]:
    """Another process holding the database's write lock until the block ends."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "holding"
        yield holder
    finally:
        holder.communicate("", timeout=30)


def scored_database(tmp_path: Path, n: int = 4) -> Path:
    db = tmp_path / "f.duckdb"
    run_score(ScoreSettings(source=str(write(many_cases(n), tmp_path / "a.parquet")), db=str(db)))
    return db


def count_cases(con: duckdb.DuckDBPyConnection) -> int:
    try:
        return con.execute("SELECT count(*) FROM case_scores").fetchall()[0][0]
    finally:
        con.close()


def test_a_reader_waits_with_one_line_then_gives_up(tmp_path: Path, caplog) -> None:
    db = scored_database(tmp_path)
    with writer_holding(db) as holder, caplog.at_level(logging.WARNING, "faithpipe"):
        caplog.clear()  # the run's own lines
        started = time.monotonic()
        with pytest.raises(DatabaseLocked, match=r"still being written by process \d+ after 1 s"):
            connect_for_reading(db, wait=1.0)
        assert 1.0 <= time.monotonic() - started < 30  # the holder holds until told: no end
    assert caplog.messages == [
        f"{db} is being written by process {holder.pid}; waiting up to 1 s for it to finish "
        "(--wait to change)"
    ]
    assert count_cases(connect_for_reading(db, wait=0)) == 4  # the writer has gone


def test_a_reader_reads_as_soon_as_the_writer_is_done(tmp_path: Path) -> None:
    db = scored_database(tmp_path)
    briefly = HOLDER.replace("sys.stdin.read()", "__import__('time').sleep(1.5)")
    with subprocess.Popen(
        [sys.executable, "-c", briefly, str(db)], stdout=subprocess.PIPE, text=True
    ) as writer:
        assert writer.stdout.readline().strip() == "holding"
        started = time.monotonic()
        assert count_cases(connect_for_reading(db, wait=60)) == 4
        # once the writer had gone (1.5 s), not before, nor at the end of the 60 s wait
        assert 1.0 < time.monotonic() - started < 30


def test_while_a_run_writes_the_snapshot_of_the_last_run_is_read(tmp_path: Path, caplog) -> None:
    db = scored_database(tmp_path)
    con = open_store(db)
    try:
        assert write_snapshot(con, db) == snapshot_path(db)
    finally:
        con.close()
    assert not list(tmp_path.glob("*.partial"))
    with writer_holding(db), caplog.at_level(logging.WARNING, "faithpipe"):
        caplog.clear()
        assert count_cases(connect_for_reading(db, wait=0)) == 4
    assert len(caplog.messages) == 1
    assert "reading its snapshot of" in caplog.messages[0]
    assert str(snapshot_path(db)) in caplog.messages[0]


def test_a_snapshot_is_replaced_whole(tmp_path: Path) -> None:
    db = scored_database(tmp_path, n=2)
    con = open_store(db)
    try:
        write_snapshot(con, db)
        reader = duckdb.connect(str(snapshot_path(db)), read_only=True)  # open across the swap
        con.execute(
            "DELETE FROM case_scores WHERE case_id = (SELECT min(case_id) FROM case_scores)"
        )
        write_snapshot(con, db)
    finally:
        con.close()
    assert count_cases(reader) == 2  # a reader keeps the copy it opened
    assert count_cases(duckdb.connect(str(snapshot_path(db)), read_only=True)) == 1


def test_faith_report_gives_exit_4_with_the_reason_while_a_run_writes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = scored_database(tmp_path)
    capsys.readouterr()
    with writer_holding(db) as holder:  # another process; `faith report` runs in this one
        code = main(["report", "--db", str(db), "--wait", "0.5"])
    stderr = capsys.readouterr().err
    assert code == 4, stderr
    assert f"is being written by process {holder.pid}; waiting up to 0.5 s" in stderr
    assert "raise --wait" in stderr
    # the copy a reader could read is made by runs asked for it, not by every run: the line
    # said 'Runs write f.duckdb.snapshot.duckdb ...', and a user waited for one never written
    assert "Runs given --snapshot write f.duckdb.snapshot.duckdb for readers" in stderr


@pytest.mark.parametrize(
    "command",
    [
        ["compare", "--no-store", "--a-config", "x", "--b-config", "y"],
        ["compare", "--a-config", "x", "--b-config", "y"],
        ["cache", "check"],
    ],
    ids=["compare --no-store", "compare", "cache check"],
)
def test_commands_without_wait_wait_their_lock_timeout_and_name_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    """`faith compare --lock-timeout 0.5` waited report's 30 s for a run holding the database,
    and then said to raise --wait, an option compare does not take (`cache check` said so
    too)."""
    db = scored_database(tmp_path)
    capsys.readouterr()
    with writer_holding(db):
        started = time.monotonic()
        code = main([*command, "--db", str(db), "--lock-timeout", "0.5"])
        waited = time.monotonic() - started
    stderr = capsys.readouterr().err
    assert code == 4, stderr
    assert waited < 15  # its 0.5 s and a start, not the 30 s of --wait
    assert "waiting up to 0.5 s for it to finish (--lock-timeout to change)" in stderr
    assert "raise --lock-timeout" in stderr
    assert "--wait" not in stderr


def test_batches_refresh_while_a_run_writes_reads_no_snapshot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`faith batches --refresh` looks that --db is a faithpipe database before it writes; it
    looked through the snapshot, saying 'reading its snapshot' before the lock error (two
    lines, the first untrue: a refresh writes the database itself, never the copy)."""
    db = scored_database(tmp_path)
    con = open_store(db)
    try:
        write_snapshot(con, db)
    finally:
        con.close()
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    capsys.readouterr()
    with writer_holding(db):
        code = main(["batches", "--refresh", "--db", str(db), "--base-url", "http://127.0.0.1:9"])
    stderr = capsys.readouterr().err
    assert code == 4, stderr
    assert "reading its snapshot" not in stderr
    assert len(stderr.splitlines()) == 1, stderr


@pytest.mark.parametrize("command", ["rekey", "batches --refresh"])
def test_a_command_that_writes_the_database_is_not_pointed_at_the_snapshot(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: str,
) -> None:
    """`faith rekey` and `faith batches --refresh` look at --db as readers before they write
    it, and their lock error ended 'Runs given --snapshot write … for readers', a copy
    neither of them reads."""
    db = scored_database(tmp_path)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    argv = (
        ["rekey", str(tmp_path / "none.parquet")]
        if command == "rekey"
        else ["batches", "--refresh", "--base-url", "http://127.0.0.1:9"]
    )
    capsys.readouterr()
    with writer_holding(db):
        code = main([*argv, "--db", str(db), "--lock-timeout", "0.5"])
    stderr = capsys.readouterr().err
    assert code == 4, stderr
    assert "raise --lock-timeout." in stderr
    assert "--snapshot" not in stderr


def test_compare_that_keeps_its_result_is_not_pointed_at_the_snapshot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`faith compare` keeps its result in --db itself: while a run wrote it, it said 'reading
    its snapshot', then failed on the lock (two lines, the first untrue). It says one line,
    naming --no-store, which reads the snapshot (and keeps nothing)."""
    db = scored_database(tmp_path)
    con = open_store(db)
    try:
        write_snapshot(con, db)
    finally:
        con.close()
    argv = ["compare", "--db", str(db), "--a-config", "x", "--b-config", "y"]
    capsys.readouterr()
    with writer_holding(db):
        code = main(argv)
        stderr = capsys.readouterr().err
        assert code == 4, stderr
        assert "reading its snapshot" not in stderr
        (line,) = stderr.splitlines()
        assert line.endswith(f"--no-store reads its snapshot ({snapshot_path(db).name})")
        # --no-store reads the copy: refused there for its own reason, config x (exit 2)
        assert main([*argv, "--no-store"]) == 2
    assert "reading its snapshot" in capsys.readouterr().err
