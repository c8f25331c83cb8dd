"""What a user added to a faithpipe database that a migration must get past: DuckDB refuses to
change a table (a NOT NULL column added, a rename) that an index or a foreign key depends on.

An index the user made is kept: made again from its own statement after a migration that made
its table anew (DuckDB drops a table's indexes with it, without a word), or dropped before a
migration DuckDB refuses for it and made again after it; one the new table cannot take is
named in a warning. A foreign key of another table cannot be, and is named."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

import duckdb

from flows.errors import DatabaseError
from flows.store.sql_files import sql

log = logging.getLogger("faithpipe")

# A migration: its statements, run in the caller's transaction.
Step = Callable[[], None]


def migrate_past_indexes(
    con: duckdb.DuckDBPyConnection,
    transaction: Callable[[duckdb.DuckDBPyConnection], AbstractContextManager[object]],
    step: Step,
    name: str,
    path: Path | str,
) -> None:
    """Run `step` in one transaction, then make again the user's indexes it dropped with their
    table; when DuckDB refuses it for a table something depends on, again with the user's
    indexes dropped before it (in its transaction) and made again after it. DatabaseError
    (exit 5, nothing of the step kept) when that is not enough."""
    indexes = con.execute(sql("user_indexes")).fetchall()
    try:
        with transaction(con):
            step()
        _make_again(con, indexes, name)
        return
    except duckdb.DependencyException as exc:
        refused = exc
    if indexes:
        try:
            with transaction(con):
                for index, _ in indexes:
                    con.execute(f'DROP INDEX "{index.replace(chr(34), chr(34) * 2)}"')
                step()
            _make_again(con, indexes, name)
            return
        except duckdb.DependencyException as exc:
            refused = exc
    raise _blocked(con, refused, name, path) from refused


def _make_again(con: duckdb.DuckDBPyConnection, indexes: list[tuple[str, str]], name: str) -> None:
    """The user's indexes the migration dropped, made again each from its own statement, once
    the migration is committed: one the new table cannot take (on `segments['app_version']`,
    a MAP made JSON by 004) is named in a warning, where its error inside the migration's
    transaction failed the upgrade (exit 1) on every run, for ever."""
    left = {index for index, _ in con.execute(sql("user_indexes")).fetchall()}
    for index, statement in indexes:
        if index in left:
            continue
        try:
            con.execute(statement)
        except duckdb.Error as exc:
            table = re.search(r'\bON\s+("[^"]+"|\w+)', statement, flags=re.IGNORECASE)
            log.warning(
                "your index %s on %s could not be made again after migration %s (%s); make "
                "it anew for the table as it is now",
                index,
                table.group(1) if table else "its table",
                name,
                str(exc).splitlines()[0],
            )


def _blocked(
    con: duckdb.DuckDBPyConnection, exc: duckdb.Error, name: str, path: Path | str
) -> DatabaseError:
    """The one line for a migration that what the user added stops."""
    found = re.search(r'entry "([^"]+)"', str(exc))
    table = found.group(1) if found else "?"
    keys = con.execute(sql("foreign_keys_to"), {"table": table}).fetchall()
    named = "; ".join(f"{owner}: {text}" for owner, text in keys) or str(exc).splitlines()[0]
    return DatabaseError(
        f"{path}: migration {name} cannot change table {table}, which something you added "
        f"depends on ({named}); nothing of it was written. Drop that, run again, then add it back"
    )
