"""A reader's analysis macros and views: this faithpipe's, also over a database that an older
faithpipe wrote last.

A read-only connection cannot replace the stored definitions, and a database is upgraded only
when something writes to it; so after an upgrade, `faith report` read the older faithpipe's
`pass_rates` until the next `faith score`. The current definitions are made as temporary
objects of the reading connection instead: they shadow the stored ones, and the file is not
touched."""

from __future__ import annotations

import hashlib
import logging
import re
from pathlib import Path

import duckdb

from flows.store.sql_files import migrations, sql

log = logging.getLogger("faithpipe")

# The migration from which the analysis macros and views are made from sql/analysis.sql (its
# table records which text); a database older than that is one an older faithpipe made.
LIVE_DEFINITIONS = 11
# Every statement of sql/analysis.sql makes a macro or a view; made TEMP, it lives in the
# connection's own catalog, which a read-only database still lets it write.
_MADE = re.compile(r"^CREATE OR REPLACE (MACRO|VIEW)\b", re.IGNORECASE | re.MULTILINE)


def temporary_definitions(text: str) -> str:
    """sql/analysis.sql's text with each macro and view made TEMP."""
    return _MADE.sub(lambda found: f"CREATE OR REPLACE TEMP {found[1]}", text)


def read_with_current_definitions(
    con: duckdb.DuckDBPyConnection, path: Path, *, warn: bool = True
) -> None:
    """Make this faithpipe's analysis definitions on the read-only `con` when the database's
    are older (or its storage is: an older faithpipe wrote it last); when its tables do not
    take them, say so in one line (unless not `warn`: a caller with its own message), and
    the stored, older definitions are what is read."""
    newest = max(version for version, _ in migrations())
    stored = con.execute("SELECT max(version) FROM schema_migrations").fetchall()[0][0]
    text = sql("analysis")
    if stored is not None and stored >= LIVE_DEFINITIONS:
        digest = hashlib.sha256(text.encode()).hexdigest()
        if stored >= newest and con.execute(sql("analysis_digest")).fetchall()[0][0] == digest:
            return
    # All or none: a definition that fails leaves none made, so none shadows a stored one.
    con.begin()
    try:
        con.execute(temporary_definitions(text))
        con.commit()
    except duckdb.Error as failed:
        con.rollback()
        if warn:
            log.warning(
                "%s was written by an older faithpipe (storage version %s; this one writes %s) "
                "and is read with that one's macros and views (this one's do not fit its "
                "tables: %s); the next `faith score` on it upgrades it",
                path,
                stored,
                newest,
                str(failed).splitlines()[0],
            )
