"""Logged conversations as cases: a table of turns, or a chat log (OpenAI `messages`, one
conversation a row), read by DuckDB, checked turn by turn, every answering assistant turn a
case judged against its passages, its tool results and a window of earlier turns.

The whole source is gathered in one DuckDB connection (a conversation's turns may lie in
any file); DuckDB keeps at most `_MEMORY` of it in memory and spills the rest to a temporary
folder, and the cases stream out in batches.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import PurePath

import duckdb
import polars as pl

from flows.errors import ConversationsUnreadable, InputUnreadable
from flows.read import turn_sizes
from flows.read.chat_lines import line_names
from flows.read.chat_times import check_chat_times
from flows.read.conversation_ids import given_id, id_text
from flows.read.csv_dialect import unsniffed
from flows.read.file_facts import csv_line_fault
from flows.read.formats import FILE_COLUMN, duckdb_paths, error_line, reader_sql
from flows.read.hive_folders import hive_values
from flows.read.json_values import (
    content_as_text,
    json_values_as_text,
    quoted,
    text_kept_columns,
)
from flows.read.read_options import FORMATS
from flows.read.shapes import RawBatch, Source
from flows.read.small_json import bom_array
from flows.scratch import scratch_folder
from flows.store.db import sql

# The input of an assistant turn no user turn comes before (an opening greeting): the
# contract wants a question, and this says there was none.
NO_USER_TURN = "(no user turn before this one)"
# The input of an assistant turn that answers a user turn with no text (an image alone, an
# empty or null content): that turn is the question, so no earlier one may stand for it.
NO_USER_TEXT = "(the user turn before this one has no text)"
# The input of an assistant turn whose user turn is quarantined (its content no text, its
# passages no list): that turn is the question, so no earlier one may stand for it.
USER_QUARANTINED = "(the user turn before this one is quarantined)"
# The check of a turn read again saying what its kept copy says (checked_turns.sql): a night's
# export that holds yesterday's turns again, which is no drift.
TURN_EXACT_COPY = "turn_repeated_exact_copy"
# A blank turn (no content), in DuckDB's RE2: null, or white space and invisible characters
# only, the contract's rule for a blank answer (faith_udfs/words.py: BLANK_TEXT; RE2's \s is
# ASCII, so Unicode spaces are \p{Z}).
BLANK = r"[\s\p{Z}\p{Cc}\p{Cf}\p{Mn}\p{Me}\x{2800}\x{115F}\x{1160}\x{3164}\x{FFA0}]*"
log = logging.getLogger("faithpipe")
_MEMORY = "512MB"
# DuckDB's JSON functions ask several times a message's size at once: a chat log holding one
# tool result of 6 MB (within --max-context-bytes) ran out of 512 MB and failed every night
# (exit 7). Such a load is tried again, once, with this much; 20 MB messages fit (~0.8 GB peak).
_LARGE_MEMORY = "2GB"
_LIST_TYPES = ("VARCHAR[]", "JSON[]")
# Columns every turn has, whatever its file holds: the contract's, made when absent.
_CONTRACT_NAMES = ("conversation_id", "turn", "role", "content", "retrieval_context", "logged_at")


def iter_turn_batches(source: Source, batch_size: int) -> Iterator[RawBatch]:
    """The source's cases (one an answering assistant turn), at most `batch_size` a batch."""
    with _turns(source) as con:
        params = _params(source)
        reader = con.sql(sql("read_turns"), params=params).to_arrow_reader(batch_size)
        absent = _absent(source, reader.schema.names)
        for record_batch in reader:
            frame = pl.from_arrow(record_batch)
            assert isinstance(frame, pl.DataFrame)
            for part in _own_columns(frame, absent):
                files = part[FILE_COLUMN].cast(pl.String)
                yield RawBatch(part.drop(FILE_COLUMN), _source_file(source), files=files)


def _own_columns(frame: pl.DataFrame, absent: dict[str, list[str]]) -> Iterator[pl.DataFrame]:
    """The batch's cases, those of a file lacking some of the source's columns apart and
    without them: the case's segments and its quarantine row as when its file is read alone
    (a column a later file added was a null segment of its every case and changed the
    quarantine key of each of its blank answers: stored again, a false exit 11)."""
    if not absent:
        yield frame
        return
    groups: dict[tuple[str, ...], list[str]] = {}
    for file, names in absent.items():
        groups.setdefault(tuple(names), []).append(file)
    files = frame[FILE_COLUMN].cast(pl.String)
    for lacking, members in groups.items():
        part = frame.filter(files.is_in(members))
        if part.height:
            yield part.drop(lacking)
    rest = frame.filter(~files.is_in(list(absent)))
    if rest.height:
        yield rest


def bad_turns(source: Source) -> pl.DataFrame:
    """Turns that break the turns contract, as quarantine rows (`check`, `case_id`, `column`,
    `value`, `row_json`, `source_file`, `row`); `source_file` is the turn's own file, so its
    quarantine key holds however many files the source has (a folder growing night by night)."""
    with _turns(source) as con:
        found = con.sql(sql("bad_turns")).pl()
    return found.with_columns(row=pl.int_range(pl.len(), dtype=pl.UInt32))


def count_turn_rows(source: Source) -> int:
    """Rows of a conversation source: its cases plus its quarantined turns (turns read only
    as context are not rows: docs/conversations.md, Accounting)."""
    with _turns(source) as con:
        params = _params(source)
        cases = con.execute(f"SELECT count(*) FROM ({sql('read_turns')})", params).fetchall()
        bad = con.execute(f"SELECT count(*) FROM ({sql('bad_turns')})").fetchall()
    return int(cases[0][0]) + int(bad[0][0])


def _params(source: Source) -> dict[str, object]:
    """read_turns.sql's parameters: the window, and the inputs of turns with no question."""
    return {
        "window": source.options.conversation_window,
        "no_user_turn": NO_USER_TURN,
        "no_user_text": NO_USER_TEXT,
        "user_quarantined": USER_QUARANTINED,
        "blank": BLANK,
    }


def _source_file(source: Source) -> str:
    files = source.all_files
    return str(files[0]) if len(files) == 1 else str(source.root or source.spec)


@contextmanager
def _turns(source: Source) -> Iterator[duckdb.DuckDBPyConnection]:
    """A connection holding `checked_turns`: every turn of the source, contract names, the
    first check each fails."""
    with scratch_folder("turns") as spill:
        con = _loaded(source, str(spill), _MEMORY)
        try:
            yield con
        finally:
            con.close()


def _loaded(source: Source, spill: str, memory: str) -> duckdb.DuckDBPyConnection:
    """A connection with the source loaded (_load) under `memory`; past it, once more under
    _LARGE_MEMORY (a conversation holding a message of megabytes)."""
    con = duckdb.connect(config={"memory_limit": memory, "temp_directory": spill})
    try:
        con.execute("SET enable_progress_bar = false")
        _load(con, source)
    except BaseException as exc:  # closed, whatever ends the load; raised again below
        con.close()
        if isinstance(exc, duckdb.OutOfMemoryException) and memory != _LARGE_MEMORY:
            log.info("%s: a message too large for %s; read again with %s", source.spec, memory,
                     _LARGE_MEMORY)  # fmt: skip
            return _loaded(source, spill, _LARGE_MEMORY)
        if isinstance(exc, duckdb.Error):
            raise _unreadable(source, exc) from exc
        raise
    return con


def _unreadable(source: Source, exc: duckdb.Error) -> ConversationsUnreadable:
    said = f"{source.spec}: cannot read it as conversations ({error_line(exc)})"
    return ConversationsUnreadable(said)


def _load(con: duckdb.DuckDBPyConnection, source: Source) -> None:
    # A JSON array after a byte-order mark (PowerShell's, .NET's) is read told it is an array:
    # DuckDB read it as one value, and the run failed on a Binder Error ("messages" not found).
    by_format: dict[str, list[str]] = {}
    for path in source.all_files:
        fmt = source.format_of(path)
        read_as = "json_array" if fmt == "json" and bom_array(path) else fmt
        by_format.setdefault(read_as, []).extend(duckdb_paths([path]))
    # Each row names its file (FILE_COLUMN): a quarantined turn's key is made of its file and
    # its text, and would change (the turn stored again, a false exit 11) were the file the
    # source's folder, which it is once a second night's file lies beside the first.
    readers = {
        fmt: reader_sql(fmt.removesuffix("_array"), hive=True, array=fmt.endswith("_array"))
        .replace("$files", f"$files_{fmt}")
        .removesuffix(")")
        + f", filename := '{FILE_COLUMN}')"
        for fmt in (*FORMATS, "json_array")
        if fmt in by_format
    }
    params = {f"files_{fmt}": paths for fmt, paths in by_format.items()}
    reads = [
        "SELECT * FROM "
        + (_text_kept(con, reader, fmt, by_format[fmt]) if fmt.startswith("json") else reader)
        for fmt, reader in readers.items()
    ]
    con.execute(f"CREATE TEMP TABLE raw_rows AS {' UNION ALL BY NAME '.join(reads)}", params)
    _misread_csv(con, source)
    # A column of values of mixed types (JSON) is read value by value, a string as its text: a
    # chat log's conversation-level columns too (an id 7 beside "abc" made it '"abc"', and a
    # time '"2026-11-01T09:00:00Z"', quarantined, beside one epoch number). A chat log's
    # `messages` is read as the structure it is; a turn's content as text below, lists and all.
    rows = con.table("raw_rows")
    keep = source.options.source_name("retrieval_context")
    structured = source.options.source_name("messages" if source.form == "chat" else "content")
    named = [(n, t) for n, t in zip(rows.columns, rows.types, strict=True) if n != structured]
    unwrapped = json_values_as_text([n for n, _ in named], [t for _, t in named], keep=keep)
    if unwrapped:
        con.execute(
            f"CREATE OR REPLACE TEMP TABLE raw_rows AS SELECT * REPLACE ({unwrapped}) FROM raw_rows"
        )
    if source.form == "chat":  # before the columns are named: it adds one
        types = dict(zip(rows.columns, rows.types, strict=True))
        limits = source.options.size_limits
        turn_sizes.cap_oversized_messages(con, "raw_rows", (structured, keep), types, limits)
    renamed = _renamed(con, "raw_rows", source)
    if source.form == "chat":
        fallbacks, lines = _chat_fallbacks(con, renamed, source)
        con.execute(f"CREATE TEMP TABLE chats AS SELECT {renamed}{fallbacks} FROM raw_rows", lines)
        con.execute(f"CREATE TEMP TABLE named_turns AS {sql('chat_turns')}")
        check_chat_times(con, "named_turns", source)
    else:
        chat_only = (
            "false AS __tool_calls, false AS __messages_bad, "
            "CAST(NULL AS VARCHAR) AS __messages_text, true AS __own_passages, "
            "CAST(NULL AS VARCHAR) AS __cid_fallback"
        )
        con.execute(f"CREATE TEMP TABLE named_turns AS SELECT {renamed}, {chat_only} FROM raw_rows")
    con.execute("DROP TABLE raw_rows")
    turn_sizes.cap_oversized_turns(con, _types(con, "named_turns"), source.options.size_limits)
    # Text holds lists only where the format has no lists (CSV) or mixes types (JSON); a chat
    # message's passages are JSON in every format (a Parquet log's too).
    as_text = source.form == "chat" or any(fmt != "parquet" for fmt in by_format)
    kind = _types(con, "named_turns").get("retrieval_context")
    passages, bad, text = _passages(kind, as_text=as_text)
    content, content_bad, content_text = content_as_text(_types(con, "named_turns").get("content"))
    if source.form != "chat" and _types(con, "named_turns").get("refusal") == "VARCHAR":
        # An OpenAI message flattened to a row: `content` null beside its `refusal`, what the
        # bot said, read as a chat log's is (chat_turns.sql); quarantined as a blank answer.
        content = f"CASE WHEN content IS NULL THEN refusal ELSE {content} END"
    cid_text = id_text(_types(con, "named_turns").get("conversation_id"))
    columns = list(_types(con, "named_turns"))
    con.execute(
        "CREATE TEMP TABLE turns AS SELECT * EXCLUDE (retrieval_context, content), "
        f"{cid_text} AS __cid_text, "
        f"{passages} AS retrieval_context, {bad} AS __rc_bad, {text} AS __rc_text, "
        f"{content} AS content, {content_bad} AS __content_bad, {content_text} AS __content_text, "
        f"CAST({_row_json('to_json(t)', _absent(source, columns))} AS VARCHAR) AS __json, "
        "row_number() OVER () AS __row "
        f"FROM (SELECT * {_with_passages(con)} FROM named_turns) AS t"
    )
    con.execute(f"CREATE TEMP TABLE checked_turns AS {sql('checked_turns')}")


def _text_kept(con: duckdb.DuckDBPyConnection, reader: str, fmt: str, paths: list[str]) -> str:
    """A JSON reader given read_json's `columns := {...}` when its types hold a UUID or a time
    of day (json_values.text_kept_columns): left to read_json, a conversation id `0E8F…` was
    stored lower-cased (`0e8f…:2`, not its CSV and Parquet copies' case) and a segment `09:30`
    as `09:30:00`. Hive `key=value` columns are DuckDB's, not the files' keys; were a key left
    out all the same (a folder read without hive columns), the reader is kept as it was."""
    files = {f"files_{fmt}": paths}
    query = con.sql(f"SELECT * FROM {reader}", params=files)
    hive = {part.split("=")[0] for path in paths for part in PurePath(path).parts if "=" in part}
    pairs = [
        (column, kind)
        for column, kind in zip(query.columns, query.types, strict=True)
        if column != FILE_COLUMN and column not in hive
    ]
    kept = text_kept_columns([column for column, _ in pairs], [kind for _, kind in pairs])
    if not kept:
        return reader
    typed = reader.removesuffix(")") + f", columns := {kept})"
    return (
        typed
        if con.sql(f"SELECT * FROM {typed}", params=files).columns == query.columns
        else reader
    )


def _row_json(row: str, absent: dict[str, list[str]]) -> str:
    """A turn's JSON, its quarantine key's text: its columns but its file, `__own_passages`
    and `__cid_fallback` (the reader's own, left out so a turn quarantined before keeps its
    key), and but the columns only other files of the source have (`absent`)."""
    own = row
    for name in (FILE_COLUMN, "__own_passages", "__cid_fallback", *turn_sizes.TOO_LARGE_COLUMNS):
        own = f"json_remove({own}, '$.{name}')"
    if not absent:
        return own
    cases = []
    for file, names in absent.items():
        removed = own
        for name in names:
            pointer = "/" + name.replace("~", "~0").replace("/", "~1")
            removed = f"json_remove({removed}, {_text(pointer)})"
        cases.append(f"WHEN {_text(file)} THEN {removed}")
    return f"CASE {quoted(FILE_COLUMN)} {' '.join(cases)} ELSE {own} END"


def _absent(source: Source, columns: list[str]) -> dict[str, list[str]]:
    """Each file's columns of the source it does not have itself (a segment a later night's
    export added): read beside that file they were null in its turns' JSON, which made a
    quarantined turn's key new, stored again and counted as the night's (a false exit 11).
    The contract's columns and the reader's own stay, present in every turn as before."""
    reverse = {column: name for name, column in source.options.columns.items()}
    held: dict[str, set[str]] = {}
    for path in source.all_files:
        facts = source.facts.get(path)
        if facts is not None:
            names = {reverse.get(name, name) for name in facts.names}
            held[str(path)] = names | set(hive_values(path, source.root))
    # Compared without case, as DuckDB unions files by name: `Channel` in one night and
    # `channel` in the next are one column, which neither file lacks.
    reserved = {name.lower() for name in (*_CONTRACT_NAMES, FILE_COLUMN)}
    anywhere = {name.lower() for names in held.values() for name in names} - reserved
    absent = {}
    for file, own in held.items():
        has = {name.lower() for name in own}
        missing = [c for c in columns if c.lower() in anywhere and c.lower() not in has]
        if missing:
            absent[file] = missing
    return absent


def _text(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _misread_csv(con: duckdb.DuckDBPyConnection, source: Source) -> None:
    """DuckDB sniffs each CSV file of a conversation source, and reads one holding a line that
    does not fit (an unbalanced quote) as one column named by its header line: its turns,
    every other column null, were quarantined as conversation_id_is_null. Such a file fails
    the run naming that line (exit 3), as it does alone."""
    names = [name for name in con.table("raw_rows").columns if name != FILE_COLUMN]
    if not any(unsniffed([name]) for name in names):
        return
    for path in source.all_files:
        if source.format_of(path) == "csv" and (failed := csv_line_fault(con, path)):
            raise failed


def _renamed(con: duckdb.DuckDBPyConnection, table: str, source: Source) -> str:
    """Every column of `table`, those `--columns` maps under their contract names."""
    reverse = {column: name for name, column in source.options.columns.items()}
    names = list(_types(con, table))
    clashing = [  # a column mapped too leaves its name free
        reverse[n]
        for n in names
        if n in reverse and reverse[n] in names and reverse[n] != n and reverse[n] not in reverse
    ]
    if clashing:
        raise InputUnreadable(
            f"{source.spec}: --columns maps onto {', '.join(clashing)}, which the source has "
            "already: map that column too, or drop it"
        )
    return ", ".join(f"{quoted(n)} AS {quoted(reverse.get(n, n))}" for n in names)


def _chat_fallbacks(
    con: duckdb.DuckDBPyConnection, renamed: str, source: Source
) -> tuple[str, dict[str, object]]:
    """A chat log's line without `conversation_id` is named by its `id`, else by its line in
    its file (chat_lines.py: `line-1`, ...: stable while the file only grows; `__cid_fallback`
    where the column is there, conversation_ids.id_text's fallback); without `logged_at`,
    each message's own `logged_at` is the only time (a turn with none is quarantined by the
    contract); without `retrieval_context`, a message's own passages are the only ones
    (chat_turns.sql). Returns the columns to add and their parameters."""
    columns = {row[0] for row in con.execute(f"DESCRIBE SELECT {renamed} FROM raw_rows").fetchall()}
    added = ""
    params: dict[str, object] = {}
    if "retrieval_context" not in columns:
        added += ", CAST(NULL AS VARCHAR) AS retrieval_context"
    # a line's own: one without conversation_id (a log whose exporter changed keys) beside
    # one with it was every message quarantined as conversation_id_is_null, alone it was named
    line, params = line_names(con, source)
    given = f"coalesce({given_id('id')}, {line})" if "id" in columns else line
    if "conversation_id" not in columns:
        added += f", {given} AS conversation_id, CAST(NULL AS VARCHAR) AS __cid_fallback"
    else:
        added += f", {given} AS __cid_fallback"
    if "logged_at" not in columns:
        added += ", CAST(NULL AS VARCHAR) AS logged_at"
    return added, params


def _with_passages(con: duckdb.DuckDBPyConnection) -> str:
    """A source with no passages column gives every turn none."""
    if "retrieval_context" in _types(con, "named_turns"):
        return ""
    return ", CAST(NULL AS VARCHAR[]) AS retrieval_context"


def _passages(kind: str | None, *, as_text: bool) -> tuple[str, str, str]:
    """(the passages as a list, whether the value given was not a list of strings, the value
    as text) for the type the passages column has: a list as it is; JSON or text (CSV, a chat
    message's field) decoded when it is a JSON array, none when it is JSON's `null` (a CSV
    cell json.dumps(None) wrote, as JSON Lines' null is none); anything else a breach."""
    if kind is None or kind in _LIST_TYPES or kind == '"NULL"':
        return "CAST(retrieval_context AS VARCHAR[])", "false", "CAST(NULL AS VARCHAR)"
    if kind in ("VARCHAR", "JSON") and as_text:
        as_json = "TRY_CAST(retrieval_context AS JSON)"
        passages = (
            f"CASE WHEN json_type({as_json}) = 'ARRAY' "
            f"AND coalesce(list_bool_and(list_transform(from_json({as_json}, '[\"JSON\"]'), "
            "lambda x: json_type(x) = 'VARCHAR')), true) "
            f"THEN from_json({as_json}, '[\"VARCHAR\"]') "
            # DuckDB's own COPY writes a list as `[a, 'b, c']`
            "WHEN NOT json_valid(retrieval_context) "
            "THEN TRY_CAST(CAST(retrieval_context AS VARCHAR) AS VARCHAR[]) END"
        )
        given = f"coalesce(json_type({as_json}) <> 'NULL', true)"
        bad = f"(retrieval_context IS NOT NULL AND {given} AND {passages} IS NULL)"
        return passages, bad, "CAST(retrieval_context AS VARCHAR)"
    return (
        "CAST(NULL AS VARCHAR[])",
        "(retrieval_context IS NOT NULL)",
        "CAST(retrieval_context AS VARCHAR)",
    )


def _types(con: duckdb.DuckDBPyConnection, table: str) -> dict[str, str]:
    rows = con.execute(f"DESCRIBE {table}").fetchall()
    return {row[0]: row[1] for row in rows}
