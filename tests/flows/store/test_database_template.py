"""From its second new database on, a process copies a template instead of running every
table's, macro's and view's statement again: the copies hold what a database made in place
holds, dated as new, and a copy never lands over a file or from texts other than the current."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import pytest

import flows.store.database_template as database_template
import flows.store.db
from flows.store.database_template import place_new_database
from flows.store.db import open_store
from tests.flows.store.test_new_database import catalog, walked


@pytest.fixture(autouse=True)
def fresh_template(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts as a new process does: no database made yet, no template."""
    monkeypatch.setattr(database_template, "_TEMPLATE", database_template._Template())


def made_at(db: Path) -> list[tuple[datetime, ...]]:
    """When the database's migrations were applied and its definitions made."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        return [
            con.execute(f"SELECT min({column}), max({column}) FROM {table}").fetchall()[0]
            for table, column in [
                ("schema_migrations", "applied_at"),
                ("analysis_definitions", "defined_at"),
            ]
        ]
    finally:
        con.close()


def test_the_second_and_later_new_databases_are_copies_that_hold_the_same(
    tmp_path: Path,
) -> None:
    expected = catalog(walked(tmp_path / "walked.duckdb"))
    for name in ("first", "second", "third"):
        open_store(tmp_path / f"{name}.duckdb").close()
    assert database_template._TEMPLATE.data is not None  # the second made it
    for name in ("first", "second", "third"):
        assert catalog(tmp_path / f"{name}.duckdb") == expected, name
    assert sorted(path.name for path in tmp_path.iterdir()) == [  # nothing staged is left
        "first.duckdb",
        "second.duckdb",
        "third.duckdb",
        "walked.duckdb",
    ]


def test_a_copy_is_dated_when_it_is_made_not_when_the_template_was(tmp_path: Path) -> None:
    for name in ("first", "second"):
        open_store(tmp_path / f"{name}.duckdb").close()
    before = utc_now()
    open_store(tmp_path / "third.duckdb").close()
    for first, last in made_at(tmp_path / "third.duckdb"):
        assert before <= first <= last


def utc_now() -> datetime:
    """Now as the tables store times: naive UTC."""
    return datetime.now(UTC).replace(tzinfo=None)


def test_a_database_is_dated_in_utc_whatever_the_machines_time_zone(tmp_path: Path) -> None:
    """Like every other time in the tables; DuckDB's now()::TIMESTAMP is local time, 14 hours
    ahead in Kiribati. The first database of the process is made in place, the others are
    copies of its template: both dated so."""
    names = [str(tmp_path / f"{name}.duckdb") for name in ("first", "second")]
    before = utc_now()
    subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from flows.store.db import open_store\n"
            "for name in sys.argv[1:]: open_store(name).close()",
            *names,
        ],
        env={**os.environ, "TZ": "Pacific/Kiritimati"},
        check=True,
        timeout=120,
    )
    after = utc_now()
    for name in names:
        for first, last in made_at(Path(name)):
            assert before <= first <= last <= after, name


def test_a_copy_never_lands_over_a_file_another_process_made_meanwhile(tmp_path: Path) -> None:
    for name in ("first", "second"):
        open_store(tmp_path / f"{name}.duckdb").close()
    theirs = tmp_path / "theirs.duckdb"
    theirs.write_bytes(b"made by another process a moment ago")
    assert not place_new_database(theirs, lambda _: None, made_of=flows.store.db._schema_texts)
    assert theirs.read_bytes() == b"made by another process a moment ago"
    mine = tmp_path / "mine.duckdb"
    assert place_new_database(mine, lambda _: None, made_of=flows.store.db._schema_texts)
    assert mine.read_bytes() == database_template._TEMPLATE.data


def test_a_database_of_other_schema_texts_is_made_from_them_not_copied(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A template of the current texts is not used for a database made of others (an older
    faithpipe's migrations, as the tests of old databases make them)."""
    for name in ("first", "second"):
        open_store(tmp_path / f"{name}.duckdb").close()
    known = flows.store.db.migrations()
    monkeypatch.setattr(flows.store.db, "migrations", lambda: [m for m in known if m[0] <= 7])
    open_store(tmp_path / "old.duckdb").close()
    con = duckdb.connect(str(tmp_path / "old.duckdb"), read_only=True)
    try:
        assert con.execute("SELECT max(version) FROM schema_migrations").fetchall() == [(7,)]
    finally:
        con.close()


def test_a_path_the_copy_cannot_be_linked_at_gets_the_database_made_in_place(
    tmp_path: Path,
) -> None:
    """Where the copy cannot be placed (here: `--db` a symlink to a file still to be made,
    which a link would not follow; a read-only or full folder alike), the database is made as
    it always was, through the symlink, or fails with its own error."""
    for name in ("first", "second"):
        open_store(tmp_path / f"{name}.duckdb").close()
    (tmp_path / "elsewhere").mkdir()
    path = tmp_path / "linked.duckdb"
    path.symlink_to(tmp_path / "elsewhere" / "real.duckdb")
    assert not place_new_database(path, lambda _: None, made_of=flows.store.db._schema_texts)
    open_store(path).close()
    assert path.is_symlink()
    assert catalog(path) == catalog(tmp_path / "second.duckdb")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["first.duckdb", "second.duckdb", "elsewhere", "linked.duckdb"]
    )


def test_a_wal_a_killed_run_left_without_its_database_is_not_replayed_into_a_copy(
    tmp_path: Path,
) -> None:
    """DuckDB discards a WAL beside a file it makes itself; a copy is an existing database,
    into which it would replay it: another database's WAL failed every later open, and one of
    an earlier copy brought a dead run's tables into the new database."""
    open_store(tmp_path / "first.duckdb").close()
    con = open_store(tmp_path / "second.duckdb")  # a copy: made of the same template
    con.execute("PRAGMA disable_checkpoint_on_shutdown")
    con.execute("CREATE TABLE leftover AS SELECT 'a dead run' AS x")
    left = (tmp_path / "second.duckdb.wal").read_bytes()
    con.close()
    (tmp_path / "third.duckdb.wal").write_bytes(left)  # its database deleted, its WAL not
    con = open_store(tmp_path / "third.duckdb")
    try:
        tables = "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'leftover'"
        assert con.execute(tables).fetchall() == [(0,)]
    finally:
        con.close()
    assert catalog(tmp_path / "third.duckdb") == catalog(tmp_path / "first.duckdb")


def test_a_template_that_cannot_be_made_leaves_databases_made_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A temporary folder that refuses the template (full, read-only): each database is made
    in place, and the template is not tried again for every one; a bug is not swallowed."""
    asked: list[Path] = []

    def refused(file: Path) -> None:
        asked.append(file)
        raise OSError(28, "No space left on device")

    texts = flows.store.db._schema_texts
    paths = [tmp_path / f"{i}.duckdb" for i in range(4)]
    assert [place_new_database(path, refused, made_of=texts) for path in paths] == [False] * 4
    assert len(asked) == 1  # the second database asked for it, once
    assert list(tmp_path.iterdir()) == []

    def broken(file: Path) -> None:
        raise TypeError("a bug in making it")

    monkeypatch.setattr(database_template, "_TEMPLATE", database_template._Template())
    assert not place_new_database(tmp_path / "a.duckdb", broken, made_of=texts)
    with pytest.raises(TypeError, match="a bug"):
        place_new_database(tmp_path / "b.duckdb", broken, made_of=texts)
