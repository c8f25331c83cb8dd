"""A chat log's time is its `logged_at` column, else each message's own: a file with neither is
refused before anything is written, as a table of turns without `logged_at` is
(finding.check_file). Every turn of it was quarantined as logged_at_is_null, stored for good,
and the run failed only at its end (exit 11), or passed within --max-quarantine-share."""

from __future__ import annotations

import duckdb

from flows.errors import InputUnreadable
from flows.read.formats import FILE_COLUMN
from flows.read.hive_folders import hive_values
from flows.read.json_values import quoted
from flows.read.shapes import Source


def check_chat_times(con: duckdb.DuckDBPyConnection, table: str, source: Source) -> None:
    """Exit 3 naming the first file of `source` lacking the `logged_at` column (as `--columns`
    maps it) none of whose messages in `table` (a chat log's turns) has a time of its own."""
    column = source.options.source_name("logged_at")
    lacking: dict[str, list[str]] = {}
    for path in source.all_files:
        facts = source.facts.get(path)
        if facts is not None and column not in (*facts.names, *hive_values(path, source.root)):
            lacking[str(path)] = list(facts.names)
    if not lacking:
        return
    untimed = con.execute(
        f"SELECT {quoted(FILE_COLUMN)} FROM {table} WHERE list_contains($files, "
        f"{quoted(FILE_COLUMN)}) GROUP BY 1 HAVING count(logged_at) = 0 ORDER BY 1 LIMIT 1",
        {"files": list(lacking)},
    ).fetchall()
    if untimed:
        file = str(untimed[0][0])
        spelled = column if column == "logged_at" else f"{column} (--columns logged_at=...)"
        raise InputUnreadable(
            f"{file}: missing required column {spelled} (has: {', '.join(lacking[file])}), nor "
            "has any of its messages a logged_at of its own; name yours with --columns "
            "logged_at=COLUMN"
        )
