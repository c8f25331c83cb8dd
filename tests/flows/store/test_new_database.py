"""A new database is made from one script of the tables (sql/new_database.sql), and holds
exactly what walking every migration makes: tables, columns, constraints, the analysis
macros and views, the migrations recorded."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

import flows.store.db
import flows.store.new_database
from flows.store.db import made_from, migrate, migrations, open_store
from flows.store.new_database import SCRIPT, tables_script

VERSIONS = [version for version, _ in migrations()]

# What a database holds, read from DuckDB's catalog; oids and timestamps left out.
CATALOG = {
    "tables": "SELECT table_name, sql, comment FROM duckdb_tables() WHERE NOT internal",
    "columns": (
        "SELECT table_name, column_index, column_name, data_type, column_default, is_nullable "
        "FROM duckdb_columns() WHERE NOT internal"
    ),
    "constraints": (
        "SELECT table_name, constraint_type, constraint_text FROM duckdb_constraints() "
        "WHERE database_name = current_database()"
    ),
    "views": "SELECT view_name, sql FROM duckdb_views() WHERE NOT internal",
    "macros": (
        "SELECT function_name, function_type, parameters, macro_definition "
        "FROM duckdb_functions() "
        "WHERE function_type LIKE '%macro%' AND database_name = current_database()"
    ),
    "indexes": "SELECT index_name, sql FROM duckdb_indexes()",
    "migrations": "SELECT version, name FROM schema_migrations",
}


def catalog(db: Path) -> dict[str, list[tuple]]:
    """The catalog's parts, and how many rows each table holds (a migration that adds rows to
    a new database must be seen to; timestamps differ)."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        found = {
            part: sorted(con.execute(query).fetchall(), key=str) for part, query in CATALOG.items()
        }
        tables = sorted(name for name, *_ in found["tables"])
        found["rows"] = [(name, con.table(name).count("*").fetchall()) for name in tables]
        return found
    finally:
        con.close()


def walked(db: Path) -> Path:
    """A new database made by walking every migration, as an older database is."""
    con = duckdb.connect(str(db))
    try:
        migrate(con, walk=True)
    finally:
        con.close()
    return db


def test_a_new_database_holds_what_walking_every_migration_makes(tmp_path: Path) -> None:
    open_store(tmp_path / "new.duckdb").close()
    made, expected = catalog(tmp_path / "new.duckdb"), catalog(walked(tmp_path / "walked.duckdb"))
    assert [len(expected[part]) > 0 for part in ("tables", "views", "macros")] == [True] * 3
    assert made == expected


def test_the_script_is_made_from_every_migration(tmp_path: Path) -> None:
    con = duckdb.connect(str(tmp_path / "walked.duckdb"))
    try:
        migrate(con, walk=True)
        current = tables_script(con, VERSIONS)  # in the order they were made: before a reopen
    finally:
        con.close()
    assert SCRIPT.read_text() == current, "run `python -m flows.store.new_database`"
    assert made_from(current) == set(VERSIONS)


def test_a_script_made_without_the_newest_migration_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text_of = flows.store.db.sql
    stale = SCRIPT.read_text().replace(f" {VERSIONS[-1]}:", ":", 1)  # one migration short
    # Its tables broken too: were it used, the database would lack case_scores.
    stale = stale.replace("CREATE TABLE case_scores(", "CREATE TABLE not_case_scores(", 1)
    monkeypatch.setattr(
        flows.store.db, "sql", lambda name: stale if name == "new_database" else text_of(name)
    )
    open_store(tmp_path / "new.duckdb").close()
    assert catalog(tmp_path / "new.duckdb") == catalog(walked(tmp_path / "walked.duckdb"))


def catalog_tables(folder: Path) -> list[tuple]:
    return catalog(walked(folder / "walked.duckdb"))["tables"]


def test_the_command_writes_the_script_as_committed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`python -m flows.store.new_database` (docs/development.md), written to a copy."""
    written = tmp_path / "new_database.sql"
    monkeypatch.setattr(flows.store.new_database, "SCRIPT", written)
    assert flows.store.new_database.main() == 0
    assert written.read_text() == SCRIPT.read_text()
    tables = SCRIPT.read_text().count("CREATE TABLE")
    assert tables == len(catalog_tables(tmp_path)) - 1  # all but schema_migrations
    assert capsys.readouterr().out == f"wrote {written} ({tables} tables)\n"
