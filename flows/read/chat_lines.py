"""A chat log's conversation with no id of its own is named by its line in its file: `line-N`
when SOURCE is that file, `<file>:line-N` (its path under the folder or glob) when SOURCE
is a folder or glob, so a conversation keeps its name whatever other files lie beside it."""

from __future__ import annotations

import os
from pathlib import Path, PurePath

import duckdb

from flows.read.formats import FILE_COLUMN
from flows.read.json_values import quoted
from flows.read.shapes import Source


def line_names(con: duckdb.DuckDBPyConnection, source: Source) -> tuple[str, dict[str, object]]:
    """(SQL naming each row of `raw_rows` by its line in its own file, its parameters), for a
    SELECT over `raw_rows` in its order. Numbered over the whole folder, a night's file
    renumbered every file after it, and log rotation (the oldest file gone) gave yesterday's
    names to other conversations: their scores replaced, tonight's scored twice."""
    number = "row_number() OVER ()"
    if Path(source.spec).expanduser().is_file():
        return f"'line-' || CAST({number} AS VARCHAR)", {}
    file = quoted(FILE_COLUMN)
    firsts = con.execute(
        f"SELECT file, min(n) FROM (SELECT {file} AS file, {number} AS n FROM raw_rows) "
        "GROUP BY file ORDER BY file"
    ).fetchall()
    files = [str(name) for name, _ in firsts]
    at = f"list_position($line_files, {file})"
    sql = (
        f"list_extract($line_labels, {at}) || ':line-' "
        f"|| CAST({number} - list_extract($line_firsts, {at}) + 1 AS VARCHAR)"
    )
    labels = [_under(name, source.root) for name in files]
    params: dict[str, object] = {
        "line_files": files,
        "line_labels": labels,
        "line_firsts": [n for _, n in firsts],
    }
    return sql, params


def _under(file: str, root: Path | None) -> str:
    """The file's path under the source's root, `/`-separated (its whole path if not under)."""
    if root is not None:
        relative = os.path.relpath(file, root)
        if not relative.startswith(".."):
            return PurePath(relative).as_posix()
    return PurePath(file).as_posix()
