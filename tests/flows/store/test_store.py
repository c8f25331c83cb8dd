"""faithpipe's own database only (issue 11 item 5): another program's DuckDB file is refused
with exit 5, one line naming what it holds, and its bytes left as they were."""

from __future__ import annotations

import hashlib
import sqlite3
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from flows.cli import main
from flows.errors import DatabaseError
from flows.store.db import connect_for_reading, migrations, open_store
from tests.conftest import run_python
from tests.support.builders import many_cases, write


def fingerprint(db: Path) -> dict[str, str]:
    """sha256 of the database file and of its WAL, if any."""
    files = [db, db.with_name(db.name + ".wal")]
    return {f.name: hashlib.sha256(f.read_bytes()).hexdigest() for f in files if f.exists()}


def foreign_database(db: Path, *statements: str) -> Path:
    con = duckdb.connect(str(db))
    for statement in statements:
        con.execute(statement)
    con.close()
    return db


@pytest.mark.parametrize(
    ("statements", "named"),
    [
        (["CREATE TABLE sales (id INTEGER, amount DOUBLE)"], "sales (table)"),
        (["CREATE TABLE runs (id INTEGER, note VARCHAR)"], "runs (table)"),
        (["CREATE VIEW answers AS SELECT 42 AS answer"], "answers (view)"),
        (["CREATE SCHEMA shop", "CREATE TABLE shop.orders (id INTEGER)"], "shop.orders (table)"),
        (["CREATE TABLE schema_migrations (version VARCHAR PRIMARY KEY)"], "schema_migrations"),
    ],
    ids=["sales", "own-runs", "view", "other-schema", "rails-migrations"],
)
def test_a_foreign_database_is_refused_and_left_unchanged(
    tmp_path: Path, capsys, statements: list[str], named: str
) -> None:
    db = foreign_database(tmp_path / "theirs.duckdb", *statements)
    before = fingerprint(db)
    source = write(many_cases(2), tmp_path / "a.parquet")
    assert main(["score", str(source), "--db", str(db), "--prefect", "no"]) == 5
    err = capsys.readouterr().err
    assert "is not a faithpipe database" in err
    assert named in err
    assert fingerprint(db) == before


def test_a_foreign_database_with_an_unflushed_wal_is_left_unchanged(tmp_path: Path) -> None:
    """A read-write open would replay the WAL and checkpoint it into the file on closing."""
    db = tmp_path / "theirs.duckdb"
    killed = (
        "import duckdb, os, sys; c = duckdb.connect(sys.argv[1]); "
        "c.execute('CREATE TABLE sales (id INTEGER)'); c.execute('INSERT INTO sales VALUES (1)'); "
        "os._exit(0)"
    )
    subprocess.run([sys.executable, "-c", killed, str(db)], check=True, timeout=60)
    before = fingerprint(db)
    assert "theirs.duckdb.wal" in before
    with pytest.raises(DatabaseError, match=r"holds sales \(table\)"):
        open_store(db)
    assert fingerprint(db) == before


def test_a_newer_database_with_an_unflushed_wal_is_refused_and_left_unchanged(
    tmp_path: Path,
) -> None:
    """A newer faithpipe killed mid-run leaves its last batches in the WAL: this older one
    replayed them and checkpointed them into the file (its own storage, of another DuckDB
    perhaps) before it refused the database as newer."""
    db = tmp_path / "f.duckdb"
    open_store(db).close()
    newest = max(version for version, _ in migrations())
    killed = (
        "import duckdb, os, sys; c = duckdb.connect(sys.argv[1]); "
        "c.execute('INSERT INTO schema_migrations (version, name) VALUES (?, ?)', "
        f"[{newest + 1}, '{newest + 1:03d}_from_a_newer_faithpipe']); os._exit(0)"
    )
    subprocess.run([sys.executable, "-c", killed, str(db)], check=True, timeout=60)
    before = fingerprint(db)
    assert "f.duckdb.wal" in before
    with pytest.raises(DatabaseError, match=f"schema version {newest + 1} is newer"):
        open_store(db)
    assert fingerprint(db) == before


def test_many_foreign_tables_are_named_in_one_line(tmp_path: Path) -> None:
    db = foreign_database(tmp_path / "x.duckdb", *(f"CREATE TABLE t{i} (a INT)" for i in range(12)))
    with pytest.raises(DatabaseError) as refused:
        open_store(db)
    message = str(refused.value)
    assert "\n" not in message
    assert "t0 (table), t1 (table)" in message
    assert "and 4 more" in message


@pytest.mark.parametrize("opens", ["open_store", "connect_for_reading"])
def test_a_sqlite_database_is_refused_without_asking_duckdb_for_its_sqlite_extension(
    tmp_path: Path, opens: str
) -> None:
    """DuckDB opens a SQLite file through its sqlite extension, which it first downloads: a
    network wait, `Failed to download extension "sqlite_scanner"`, then the file taken as a
    database of its own. It is refused by its header first, byte for byte unchanged."""
    db = tmp_path / "app.db"
    theirs = sqlite3.connect(db)
    theirs.execute("CREATE TABLE users (id INTEGER)")
    theirs.commit()
    theirs.close()
    before = fingerprint(db)
    with pytest.raises(DatabaseError) as refused:
        (open_store if opens == "open_store" else connect_for_reading)(db)
    message = str(refused.value)
    assert message.startswith(f"{db} is not a faithpipe database but a SQLite database")
    assert "extension" not in message
    assert fingerprint(db) == before


@pytest.mark.parametrize("kind", ["zero bytes", "fresh duckdb", "faithpipe"])
def test_an_empty_file_or_a_faithpipe_database_is_used(tmp_path: Path, kind: str) -> None:
    db = tmp_path / "f.duckdb"
    if kind == "zero bytes":
        db.touch()
    elif kind == "fresh duckdb":
        foreign_database(db)
    else:
        open_store(db).close()
    con = open_store(db)
    try:
        assert con.execute("SELECT count(*) FROM runs").fetchall() == [(0,)]
    finally:
        con.close()


def test_a_faithpipe_database_keeps_tables_its_user_added(tmp_path: Path) -> None:
    db = tmp_path / "f.duckdb"
    con = open_store(db)
    con.execute("CREATE VIEW my_dashboard AS SELECT count(*) AS n FROM case_scores")
    con.close()
    con = open_store(db)
    try:
        assert con.execute("SELECT n FROM my_dashboard").fetchall() == [(0,)]
    finally:
        con.close()


def test_the_same_process_may_open_its_own_database_twice(tmp_path: Path) -> None:
    """The nightly flow holds the store while its run opens it again."""
    db = tmp_path / "f.duckdb"
    outer = open_store(db)
    try:
        inner = open_store(db)
        inner.close()
    finally:
        outer.close()


def test_a_foreign_database_fails_the_cli_with_exit_5_in_one_line(tmp_path: Path) -> None:
    db = foreign_database(tmp_path / "shop.duckdb", "CREATE TABLE sales (id INTEGER)")
    before = fingerprint(db)
    source = write(many_cases(2), tmp_path / "a.parquet")
    done = run_python("-m", "flows.cli", "score", str(source), "--db", str(db))
    assert done.returncode == 5, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "sales (table)" in lines[0]
    assert fingerprint(db) == before


_READERS = ("runs", "report", "batches", "compare")
_FOREIGN = ("CREATE TABLE sales (id INTEGER)",)
_FOREIGN_RUNS = ("CREATE TABLE runs (id INTEGER)",)


# (`faith compare` stores its comparison: an empty file is one it may write, and it says
# "nothing scored to compare", exit 2.)
@pytest.mark.parametrize(
    ("command", "statements", "message"),
    [
        *[(c, _FOREIGN, "is not a faithpipe database: it holds sales") for c in _READERS],
        *[(c, _FOREIGN_RUNS, "is not a faithpipe database: it holds runs") for c in _READERS],
        *[(c, (), "holds no faithpipe tables yet; run `faith score` first") for c in _READERS[:3]],
    ],
)
def test_readers_refuse_a_database_that_is_not_faithpipes_with_exit_5(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    command: str,
    statements: tuple[str, ...],
    message: str,
) -> None:
    db = foreign_database(tmp_path / "shop.duckdb", *statements)
    before = fingerprint(db)
    assert main([command, "--db", str(db)]) == 5
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1
    assert message in lines[0]
    assert fingerprint(db) == before


def test_a_refused_reader_closes_its_connection(tmp_path: Path) -> None:
    """The refusal's traceback still holds the reader's frame: its connection must be closed
    by then, or this process could not open the file for writing (another configuration)."""
    db = foreign_database(tmp_path / "shop.duckdb", "CREATE TABLE sales (id INTEGER)")
    with pytest.raises(DatabaseError, match="not a faithpipe database") as refused:
        connect_for_reading(db)
    assert refused.value.__traceback__ is not None  # the frame, and its locals, are alive
    duckdb.connect(str(db)).close()


def test_the_writers_memory_limit_is_fixed_with_room_for_key_indexes(tmp_path: Path) -> None:
    # DuckDB caches what a run writes up to its limit: fixed, so a 10M-row run holds no more
    # than a 1M-row one; only tables with a PRIMARY KEY (whose index stays in memory) add room.
    def limit_mb(con: duckdb.DuckDBPyConnection) -> float:
        (limit,) = con.execute("SELECT current_setting('memory_limit')").fetchall()[0]
        assert limit.endswith(" MiB"), limit
        return float(limit.removesuffix(" MiB")) * 2**20 / 10**6  # set in MB, shown in MiB

    db = tmp_path / "f.duckdb"
    con = open_store(db)
    assert limit_mb(con) == pytest.approx(384, abs=1)
    con.execute(
        "INSERT INTO judge_cache SELECT sha256(i::VARCHAR), 'k', 'm', 'v1', 's', '{}', 0, 0, "
        "now(), NULL FROM range(40000) AS t(i)"
    )
    con.close()
    con = open_store(db)
    assert limit_mb(con) == pytest.approx(384 + 40_000 * 256 // 10**6, abs=1)  # +10 MB
    con.close()


@pytest.mark.parametrize("command", ["score", "runs", "cache"])
@pytest.mark.parametrize("folder", ["existing", "new/"], ids=["an-existing-folder", "new-slash"])
def test_a_db_that_names_a_folder_is_exit_5_in_one_line_and_makes_no_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, folder: str
) -> None:
    """`--db warehouse/` (a folder for the database to go in) made a database *file* named
    `warehouse` when there was no such folder, and when there was one, ended on DuckDB's
    'Could not read from file ...: Is a directory'."""
    (tmp_path / "existing").mkdir()
    db = f"{tmp_path}/{folder}"
    source = write(many_cases(2), tmp_path / "a.parquet")
    args = {"score": ["score", str(source)], "runs": ["runs"], "cache": ["cache", "check"]}
    capsys.readouterr()
    assert main([*args[command], "--db", db]) == 5
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1
    assert "names a folder, not a database file" in lines[0], lines[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.parquet", "existing"]
    assert list((tmp_path / "existing").iterdir()) == []
