"""Finding a source's files and checking them before anything is read: which files SOURCE
names, which form they are in, and whether each holds the contract's columns. What each file
holds (columns, and a Parquet file's rows) is read once, here, into the source's facts
(flows/read/file_facts.py), which the readers then use.
"""

from __future__ import annotations

import glob
import itertools
import os
import re
from dataclasses import replace
from pathlib import Path

from flows.errors import InputUnreadable
from flows.read.empty_files import emptiness
from flows.read.file_facts import FileFacts, described_facts, gather_facts, parquet_facts
from flows.read.file_stamps import stamps_of
from flows.read.folder_files import (
    check_listable,
    check_not_dangling,
    check_not_special,
    files_below,
    log_files_under,
)
from flows.read.hive_folders import hive_values
from flows.read.read_options import (
    EXTENSIONS,
    ReadOptions,
    check_mapping,
    contract_renames,
    named_format,
)
from flows.read.shapes import Source
from flows.read.three_table_folders import (
    check_no_table_missing,
    check_no_three_tables_below,
    check_only_tables,
    check_three_tables_are_parquet,
    table_files,
)
from flows.read.three_tables import (
    THREE_TABLES,
    check_three_table_columns,
    check_three_table_options,
)
from flows.read.unread_names import check_unread_names, is_metadata
from flows.store.db import sql
from schemas import REQUIRED_COLUMNS


def resolve_source(spec: str | Path, options: ReadOptions | None = None) -> Source:
    """Find the files behind SOURCE; fails with a clear message when there are none.

    Files are named by their absolute, normalised path (symbolic links are read through but
    not resolved, so a linked `key=value` folder keeps its value), so a row has one identity
    (its quarantine key) however SOURCE was spelled. A path that exists is read as itself,
    even when its name holds glob characters (`logs[1].parquet`); only one that does not is a
    glob.
    """
    text = str(spec)
    if not text.strip():  # Path("") is the working folder: an unset variable would read it all
        raise InputUnreadable(
            "SOURCE is empty: name a file, a folder or a glob (an unset shell variable?)"
        )
    options = options or ReadOptions()
    try:
        return _found(text, options)
    except PermissionError as exc:
        raise InputUnreadable(
            f"{exc.filename or text}: permission denied; nothing was read"
        ) from exc


def _found(text: str, options: ReadOptions) -> Source:
    """SOURCE as a file, a folder (three tables, or logs below it) or a glob."""
    path = _absolute(Path(text).expanduser())
    if path.is_file():
        check_unread_names([path], tab_separated=False)  # named alone: --format reads it
        empty = emptiness(path, options)
        if empty is not None:
            raise InputUnreadable(f"{path}: the file is empty ({empty}): no rows to read")
        return _checked(Source(text, "wide", {"cases": [path]}, path.parent, options))
    if path.is_dir():
        check_listable(path)
        tables = {name: table_files(path, name) for name in THREE_TABLES}
        if all(tables.values()):
            check_only_tables(path, tables, options)
            return _checked(Source(text, "three", tables, path, options))
        check_three_tables_are_parquet(path)
        check_no_table_missing(path, tables)
        found = log_files_under(path, options)
        check_no_three_tables_below(path, found)
        if not found and options.wanted_format:
            _check_other_names(text, path, options.wanted_format)
        found = _without_empty(text, found, options)
        return _checked(Source(text, "wide", {"cases": found}, path, options))
    if any(char in text for char in "*?["):
        globbed = {_absolute(Path(p)) for p in glob.glob(text, recursive=True)}
        for matched in sorted(globbed):
            check_not_dangling(matched, options, any_name=bool(options.wanted_format))
            check_not_special(matched, options, any_name=bool(options.wanted_format))
        # with --format, a glob's .tsv is read as that format
        check_unread_names(
            sorted(p for p in globbed if p.is_file()), tab_separated=not options.wanted_format
        )
        # A glob's files are read as --format whatever their names; without it, by name.
        wanted = options.wanted_format
        files = sorted(p for p in globbed if p.is_file() and (wanted or named_format(p, options)))
        files = _without_empty(text, files, options)
        root = _absolute(_glob_root(text))
        return _checked(Source(text, "wide", {"cases": files}, root, options))
    if path.exists():  # `<(zcat day1.csv.gz)`, /dev/stdin: read once, where a source is read twice
        raise InputUnreadable(
            f"{path}: not a file or a folder (a pipe, a device or a socket): write the log to a "
            "file and score that (a .gz file is read as it is)"
        )
    raise InputUnreadable(f"{text}: no such file, folder or glob")


def _check_other_names(text: str, folder: Path, fmt: str) -> None:
    """A folder with --format holding its files under other names (`.txt` exports): it reads
    only that format's names, which the plain `no ... files found` did not say."""
    others = [
        path
        for path in files_below(folder, ReadOptions(format=fmt))
        if not is_metadata(path, folder)
    ]
    if others:
        names = [ext for ext, named in EXTENSIONS.items() if named == fmt]
        told = ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]
        raise InputUnreadable(
            f"{text}: no {told} files found ({len(others):,} file(s) of other names: in a "
            f"folder, --format {fmt} reads its {told} files only; to read every file as "
            f"{fmt.upper()}, name them by a glob: '{text.rstrip('/')}/**/*')"
        )


def _without_empty(text: str, files: list[Path], options: ReadOptions) -> list[Path]:
    """A folder's or glob's files but its empty CSV and JSON files, which hold no rows."""
    kept = [path for path in files if emptiness(path, options) is None]
    if files and not kept:
        raise InputUnreadable(
            f"{text}: its {len(files):,} CSV or JSON file(s) are empty (0 bytes, a gzip of "
            "0 bytes, blank lines or an empty JSON array): no rows to read"
        )
    return kept


def _absolute(path: Path) -> Path:
    """Absolute, `.` and `..` folded, links kept as they are."""
    return Path(os.path.abspath(path))


def _checked(source: Source) -> Source:
    zipped = [path for path in source.all_files if path.name.lower().endswith(".parquet.gz")]
    if zipped:
        raise InputUnreadable(
            f"{zipped[0]}: a gzipped Parquet file is not read (Parquet compresses its own "
            "pages): gunzip it, or write it with compression='zstd'"
        )
    if not source.all_files:
        raise InputUnreadable(
            f"{source.spec}: no Parquet, CSV or JSON files found (.parquet; .csv, .json, "
            ".jsonl, .ndjson, each optionally .gz)"
        )
    # stamped before any byte is read: a file written from now on is told (file_stamps.py)
    source = replace(source, stamps=stamps_of(source.all_files))
    facts = gather_facts((path, source.format_of(path)) for path in source.all_files)
    source = replace(source, facts=facts)
    if source.form == "wide":
        source = replace(source, form=_shape(source))
    if source.form in ("turns", "chat"):
        if source.options.case_id == "content":
            raise InputUnreadable(
                f"{source.spec}: a conversation's case_ids come from its id and turn; "
                "--case-id content is for cases tables"
            )
        source = replace(source, files={source.form: source.files["cases"]})
    if source.form == "three":
        check_three_table_options(source)
    # Files alike (the same columns, the same `key=value` folders) pass or fail alike: each
    # kind is checked at its first file, the one a failure names, as file by file.
    checked: set[tuple] = set()
    for table, paths in source.files.items():
        for path in paths:
            told = file_facts(path, source)
            if told.unread is not None and source.form not in ("turns", "chat"):
                raise InputUnreadable(told.unread)  # polars reads cases; DuckDB conversations
            kind = (table, tuple(told.names), told.repeated, *hive_values(path, source.root))
            if kind not in checked:
                check_file(path, table, source.root, source)
                checked.add(kind)
    if source.form == "three":
        check_three_table_columns(source)
    else:
        _check_mapped_somewhere(source)
    return source


def _check_mapped_somewhere(source: Source) -> None:
    """A `--columns` mapping naming a column no file of the source has is exit 3, as a missing
    required column is: an optional one (a conversation's id, its passages, a chat log's time)
    misspelt was ignored without a word, the log named by its lines, judged without its
    passages or every turn quarantined. A folder's file may lack it (an older night's export)."""
    paths = source.all_files
    present: set[str] = set()
    for path in paths:
        names = _file_names(path, source)
        present |= set(names) | set(hive_values(path, source.root))
        if source.form not in ("turns", "chat"):  # a cases table's columns in any case
            present |= {
                source.options.source_name(c)
                for c in contract_renames(names, source.options).values()
            }
    for name, column in source.options.columns.items():
        if column not in present:
            where = paths[0] if len(paths) == 1 else source.spec
            raise InputUnreadable(
                f"{where}: --columns {name}={column} names no column of it "
                f"({_columns_said(_file_names(paths[0], source))}): correct the name, or leave "
                "the mapping out"
            )


def _shape(source: Source) -> str:
    """cases, turns or chat, from the first file's columns (mapped to the contract's names):
    a `messages` column is a chat log, `role` and `content` a table of turns."""
    first = source.files["cases"][0]
    names = set(_mapped_names(first, source))
    if "messages" in names:
        return "chat"
    if {"role", "content"} <= names and "actual_output" not in names:
        return "turns"
    return "wide"


def _glob_root(pattern: str) -> Path:
    """The folders before the first part holding a glob character: hive values are read
    below it, never above."""
    fixed = itertools.takewhile(
        lambda part: not any(char in part for char in "*?["), Path(pattern).parts
    )
    return Path(*fixed) if pattern else Path()


def check_file(
    path: Path, table: str, root: Path | None, source: Source | None = None
) -> list[str]:
    """The file's columns (a Parquet footer, or DuckDB's reader); unreadable or incomplete
    files fail the run. A required column missing under its own name may be under the name
    `--columns` maps it from, or made by `--case-id content`."""
    source = source or Source(str(path), "wide")
    names = _file_names(path, source)
    options = source.options
    check_mapping(names, options, str(path))
    _check_named_once(path, table, file_facts(path, source).repeated, options)
    present = set(names) | set(hive_values(path, root))
    required = [
        column
        for column in REQUIRED_COLUMNS[table]
        if not (column == "case_id" and options.case_id == "content" and table == "cases")
    ]
    # a cases table's column in another case (`Case_ID`) is there too
    found = set(contract_renames(names, options).values()) if table == "cases" else set()
    missing = [c for c in required if c not in found and options.source_name(c) not in present]
    _check_made_names(path, table, present, options)
    if missing:
        spelled = [
            column
            if options.source_name(column) == column
            else f"{options.source_name(column)} (--columns {column}=...)"
            for column in missing
        ]
        hint = "; name yours with --columns NAME=COLUMN,..." if table in ("cases", "turns") else ""
        if "case_id" in missing and table == "cases":
            hint += " or make case_id with --case-id content"
        raise InputUnreadable(
            f"{path}: missing required column{'s' if len(missing) > 1 else ''} "
            f"{', '.join(spelled)} ({_columns_said(names)}){hint}"
        )
    return names


# Columns the conversation reader makes for each case (read_turns.sql), and for a chat log
# each message's own fields (chat_turns.sql): a log's column of that name stood beside the
# made one, and the run failed (exit 1, DuplicateError) or read the wrong one (a chat log's
# `content` column was every message's content).
_MADE = {
    "turns": ("case_id", "input", "actual_output", "context_origins"),
    "chat": ("case_id", "input", "actual_output", "context_origins", "turn", "role", "content"),
}


def _check_made_names(path: Path, table: str, present: set[str], options: ReadOptions) -> None:
    """A conversation source holding a column (not one `--columns` maps) named as one the
    reader makes, for each answer or for its own use, is exit 3 naming it, before anything is
    read."""
    # Without case, as DuckDB binds names: a `Content` column was every message's content.
    mapped = {name.lower() for name in options.columns.values()}
    spelt = {name.lower(): name for name in present}
    names = (*_MADE[table], *_reader_names()) if table in _MADE else ()
    clashing = [name for name in names if name in spelt and name not in mapped]
    if clashing:
        name = spelt[clashing[0]]
        made = (
            "each chat message's own field"
            if name.lower() in ("turn", "role", "content")
            else "a name the conversation reader uses for its own"
            if name.startswith("__")
            else "what the conversation reader makes for each answer"
        )
        raise InputUnreadable(
            f"{path}: column {name} is {made}, so this column would be taken for it or lost: "
            "rename it or leave it out of the export"
        )


def _reader_names() -> list[str]:
    """The names the conversation reader gives its own columns (`__tool_calls`, `__check`,
    ...), as its SQL writes them: a log's column of one stood beside it, and the run failed
    (exit 1, a cast of its text to BOOLEAN) or every turn was quarantined under its value."""
    texts = [sql(name) for name in ("chat_turns", "checked_turns", "read_turns", "bad_turns")]
    return sorted({name.lower() for text in texts for name in re.findall(r"\b__\w+", text)})


# A column name that reads as a value: a log's text (a few words or more, or long), a number
# or a date. A CSV file without its header line, or whose header is in another dialect than
# its rows, has a data row for names: listed, they put a log's text in the run's error line.
_DATA_LIKE = re.compile(r"\S+(\s+\S+){3,}|.{65,}|[\d\s.,:/+-]+")


def _columns_said(names: list[str]) -> str:
    """`has: NAMES`, unless a name reads as a value (a data row read as the header: its text
    is left out)."""
    if any(_DATA_LIKE.fullmatch(name) for name in names):
        return (
            f"has: {len(names)} columns whose names read as a row of data, not as a header: "
            "is the header line missing?"
        )
    return f"has: {', '.join(names)}"


def _check_named_once(
    path: Path, table: str, repeated: tuple[str, ...], options: ReadOptions
) -> None:
    """A CSV header naming a column the contract looks for twice (`actual_output` of two
    exports joined) is exit 3: DuckDB named the second `actual_output_1`, and the first was
    read as the answer without a word (a JSON key twice is exit 3 too)."""
    for name in (*REQUIRED_COLUMNS[table], "retrieval_context", "conversation_id", "logged_at"):
        if options.source_name(name) in repeated:
            raise InputUnreadable(
                f"{path}: column {options.source_name(name)} is named twice in the header "
                f"line, so which one is {name} cannot be told: drop or rename one"
            )


def _file_names(path: Path, source: Source) -> list[str]:
    return file_facts(path, source).names


def file_facts(path: Path, source: Source) -> FileFacts:
    """The file's facts: as the source resolved them, or read now for a file it did not."""
    known = source.facts.get(path)
    if known is not None and known.failed is not None:
        raise known.failed
    if known is not None:
        return known
    fmt = source.format_of(path)
    return parquet_facts(path) if fmt == "parquet" else described_facts(path, fmt)


def _mapped_names(path: Path, source: Source) -> list[str]:
    names = _file_names(path, source)
    renames = contract_renames(names, source.options)
    return [renames.get(name, name) for name in names]
