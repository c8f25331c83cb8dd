"""What a user added to a faithpipe database that a migration must get past: DuckDB refuses to
change a table (a NOT NULL column added, a rename) that an index or a foreign key depends on.

An index the user made is kept: made again from its own statement, in the migration's own
transaction, after a migration that made its table anew (DuckDB drops a table's indexes with it,
without a word), or dropped before a migration DuckDB refuses for it and made again after it;
one the new table cannot take is named in a warning. A foreign key of another table cannot be,
and is named."""

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
    """Run `step` in one transaction with the user's indexes it dropped with their table made
    again in it; when DuckDB refuses it for a table something depends on, again with the
    user's indexes dropped before it and made again after it, in the same transaction: an
    upgrade killed at any moment keeps them (made again after the commit, a kill in between
    lost them for good). An index the migrated table cannot take fails that transaction: the
    step is then committed alone, and the indexes made again after it, that one named.
    DatabaseError (exit 5, nothing of the step kept) when dropping them is not enough."""
    indexes = con.execute(sql("user_indexes")).fetchall()
    refused: duckdb.Error | None = None
    for drop_first in (False, True) if indexes else (False,):
        try:
            with transaction(con):
                _migrate(con, step, indexes, drop_first)
                _make_again_inside(con, indexes)
            return
        except duckdb.DependencyException as exc:
            refused = exc
        except _Untakable:
            with transaction(con):
                _migrate(con, step, indexes, drop_first)
            _make_again(con, indexes, name)
            return
    assert refused is not None
    raise _blocked(con, refused, name, path) from refused


class _Untakable(Exception):
    """One of the user's indexes cannot be made on the table as a migration left it."""


def _migrate(
    con: duckdb.DuckDBPyConnection, step: Step, indexes: list[tuple[str, str]], drop_first: bool
) -> None:
    """The step, after the user's indexes are dropped when `drop_first`."""
    if drop_first:
        for index, _ in indexes:
            con.execute(f'DROP INDEX "{index.replace(chr(34), chr(34) * 2)}"')
    step()


def _make_again_inside(con: duckdb.DuckDBPyConnection, indexes: list[tuple[str, str]]) -> None:
    """The user's indexes the step dropped, made again in its transaction; _Untakable when
    one cannot be (DuckDB's error aborts the transaction: the caller rolls it back)."""
    left = {index for index, _ in con.execute(sql("user_indexes")).fetchall()}
    for index, statement in indexes:
        if index not in left:
            try:
                con.execute(statement)
            except duckdb.Error as exc:
                raise _Untakable(index) from exc


def _make_again(con: duckdb.DuckDBPyConnection, indexes: list[tuple[str, str]], name: str) -> None:
    """The user's indexes the migration dropped, made again each from its own statement, once
    the migration is committed (when one cannot be made in its transaction): one the new
    table cannot take (on `segments['app_version']`,
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
