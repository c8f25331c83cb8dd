"""Whose database is this: faithpipe's (told by its `schema_migrations`), empty, or another
program's, which no faithpipe command writes to or reads from (exit 5)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from flows.errors import DatabaseError
from flows.store.sql_files import migrations, sql

if TYPE_CHECKING:
    import duckdb

# How many of a foreign database's tables and views its error line names.
_FOREIGN_NAMES_SHOWN = 8


def database_path(path: Path | str) -> Path:
    """`--db` as a path, refused (exit 5) when it names no file: empty (`--db "$UNSET"`:
    Path('') is the working folder) or a folder (`--db warehouse/` made a database file named
    `warehouse`, and an existing folder ended on DuckDB's 'Is a directory')."""
    text = str(path)
    if not text.strip():
        raise DatabaseError("--db is empty: name the database file (an unset variable?)")
    if text.endswith(("/", os.sep)) or Path(text).is_dir():
        raise DatabaseError(
            f"{text} names a folder, not a database file: give --db a file, such as "
            f"{Path(text) / 'faithpipe.duckdb'}"
        )
    return Path(text)


# The first 16 bytes of every SQLite 3 database file.
_SQLITE_HEADER = b"SQLite format 3\x00"


def open_in_this_process(path: Path) -> bool:
    """Whether this process has the file open (a DuckDB connection to it): then it must not
    open and close it, as POSIX drops every fcntl lock a process holds on a file when it
    closes any of its descriptors of it, and DuckDB's write lock is one. Where open files
    cannot be listed (no /proc), True: the caller does without."""
    try:
        wanted = os.stat(path)
        descriptors = os.listdir("/proc/self/fd")
    except OSError:
        return True
    for fd in descriptors:
        try:
            held = os.stat(f"/proc/self/fd/{fd}")
        except OSError:  # closed meanwhile (the listing's own descriptor)
            continue
        if (held.st_dev, held.st_ino) == (wanted.st_dev, wanted.st_ino):
            return True
    return False


def refuse_sqlite_file(path: Path) -> None:
    """DatabaseError (exit 5) for a SQLite database file, before DuckDB sees it: DuckDB opens
    one through its sqlite extension, downloading it first (a network wait this command does
    not bound; offline, `Failed to download extension "sqlite_scanner"`), then reads or
    writes it as a database of its own. Not read while this process has it open (a DuckDB
    connection's lock would be lost): it is a database then."""
    if not path.is_file() or open_in_this_process(path):
        return  # none yet, a pipe or device (refused elsewhere), or ours: never read it then
    try:
        with path.open("rb") as file:
            header = file.read(len(_SQLITE_HEADER))
    except OSError:
        return  # unreadable: DuckDB's own open says why
    if header == _SQLITE_HEADER:
        raise DatabaseError(
            f"{path} is not a faithpipe database but a SQLite database file. Nothing was read "
            "or written; give --db a new file, an empty one, or a faithpipe database."
        )


def refuse_foreign_database(con: duckdb.DuckDBPyConnection, path: Path | str) -> None:
    """DatabaseError naming what the database holds, unless it is empty or faithpipe's; one
    saying so for a newer faithpipe's (refuse_newer_database), before a writer opens it.

    faithpipe's own is told by its `schema_migrations` table recording faithpipe's
    migrations; tables a user added to a faithpipe database are theirs to keep.
    """
    found = con.execute(sql("database_objects")).fetchall()
    if not found:
        return
    if _is_faithpipe_database(con):
        # looked at read-only when a WAL is left: a read-write open would replay a newer
        # faithpipe's last batches and checkpoint them into its file before refusing it
        refuse_newer_database(
            con.execute("SELECT max(version) FROM schema_migrations").fetchall()[0][0]
        )
        return
    raise DatabaseError(
        f"{path} is not a faithpipe database: it holds {_listing(found)}. "
        "Nothing was written to it; give --db a new file, an empty one, or a faithpipe database."
    )


def _is_faithpipe_database(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether `schema_migrations` is faithpipe's: its columns, and the migration names it
    records for the versions this faithpipe knows (a newer one's are left to `migrate`)."""
    columns = con.execute(sql("migrations_table")).fetchall()
    if columns != [("version", "INTEGER"), ("name", "VARCHAR"), ("applied_at", "TIMESTAMP")]:
        return False
    known = dict(migrations())
    recorded = con.execute("SELECT version, name FROM schema_migrations").fetchall()
    return all(known.get(version, name) == name for version, name in recorded)


def refuse_unreadable_database(con: duckdb.DuckDBPyConnection, path: Path | str) -> None:
    """DatabaseError (exit 5) for a reader given a database that is not faithpipe's, one no
    run has written yet (its queries would fail on tables it lacks), or one a newer faithpipe
    wrote (its tables may not be what this one's queries read)."""
    found = con.execute(sql("database_objects")).fetchall()
    if found and _is_faithpipe_database(con):
        stored = con.execute("SELECT max(version) FROM schema_migrations").fetchall()[0][0]
        refuse_newer_database(stored)
        return
    if not found:
        raise DatabaseError(f"{path} holds no faithpipe tables yet; run `faith score` first")
    raise DatabaseError(
        f"{path} is not a faithpipe database: it holds {_listing(found)}. Nothing was read; "
        "give --db a faithpipe database."
    )


def refuse_newer_database(stored: int | None, known: list[tuple[int, str]] | None = None) -> None:
    """DatabaseError (exit 5) when the database's schema version `stored` is newer than this
    faithpipe's newest migration (of `known`, by default all)."""
    newest = max((version for version, _ in known or migrations()), default=0)
    if stored is not None and stored > newest:
        raise DatabaseError(
            f"database schema version {stored} is newer than this faithpipe ({newest}); "
            "upgrade faithpipe"
        )


def _listing(found: list[tuple[str, str, str]]) -> str:
    """`sales (table), shop.items (table) and 3 more`: what a foreign database holds."""
    named = [
        f"{name} ({kind})" if schema == "main" else f"{schema}.{name} ({kind})"
        for schema, name, kind in found
    ]
    listed = ", ".join(named[:_FOREIGN_NAMES_SHOWN])
    if len(named) > _FOREIGN_NAMES_SHOWN:
        listed += f" and {len(named) - _FOREIGN_NAMES_SHOWN} more"
    return listed
