"""The three-table form's folders: which files are its tables, and the folders that hold
part of the form, or the form beside other logs, refused before anything is read."""

from __future__ import annotations

import os
from pathlib import Path

from flows.errors import InputUnreadable
from flows.read.folder_files import files_below, log_files_under
from flows.read.read_options import ReadOptions
from flows.read.three_tables import THREE_TABLES


def table_files(folder: Path, name: str) -> list[Path]:
    """The three-table form's files of one table (Parquet: DuckDB joins them)."""
    single = folder / f"{name}.parquet"
    if single.is_file():
        return [single]
    sub = folder / name
    if not sub.is_dir():
        return []
    return sorted(p for p in files_below(sub) if p.suffix == ".parquet")


def check_three_tables_are_parquet(folder: Path) -> None:
    """The three tables written as CSV or JSON (all, or one beside the others' Parquet) were
    read as files of cases, and the first one's missing columns were named, with advice to
    map them."""
    stems: dict[str, str] = {}
    for entry in sorted(os.scandir(folder), key=lambda entry: entry.name.lower()):
        if entry.is_file():  # a table's other name than Parquet's wins: it is the one to say
            stem = entry.name.lower().split(".", 1)[0]
            if stem not in stems or stems[stem].lower().endswith(".parquet"):
                stems[stem] = entry.name
    written = [stems.get(name, "") for name in THREE_TABLES]
    if all(written) and not all(name.lower().endswith(".parquet") for name in written):
        shown = ", ".join(stems[name] for name in THREE_TABLES)
        raise InputUnreadable(
            f"{folder}: {shown} are the three-table form, which is read from Parquet "
            "(questions.parquet, contexts.parquet, outputs.parquet, or folders of them): write "
            "them as Parquet, or join them into one file of cases"
        )


def check_no_table_missing(folder: Path, tables: dict[str, list[Path]]) -> None:
    """Two of the three tables without the third were read as files of cases, and the first
    one's contract columns named missing, with advice to map them that cannot help."""
    missing = [name for name, paths in tables.items() if not paths]
    if len(missing) == 1:
        raise InputUnreadable(
            f"{folder}: holds {' and '.join(n for n in THREE_TABLES if tables[n])} of the "
            f"three-table form but no {missing[0]} table ({missing[0]}.parquet or a folder "
            f"{missing[0]}/ of Parquet files): add it, or join them into one file of cases"
        )


def check_only_tables(folder: Path, tables: dict[str, list[Path]], options: ReadOptions) -> None:
    """A folder of the three-table form holds those tables alone: other log files in it would
    never be read, so they are refused, not skipped without a word."""
    taken = {path for paths in tables.values() for path in paths}
    others = [path for path in log_files_under(folder, options) if path not in taken]
    if others:
        named = ", ".join(str(path.relative_to(folder)) for path in others[:3])
        more = f" and {len(others) - 3} more" if len(others) > 3 else ""
        raise InputUnreadable(
            f"{folder}: holds the three tables ({', '.join(THREE_TABLES)}) and other log files, "
            f"which that form does not read: {named}{more}; move them out or score them apart"
        )


def check_no_three_tables_below(folder: Path, found: list[Path]) -> None:
    """A folder of logs with a three-table export in a folder below it (the bundled
    `data/sample/`) had that export's first table read as a file of cases, its missing columns
    named, with advice to map them that cannot help."""
    candidates = {path.parent for path in found if path.stem in THREE_TABLES}
    # a table's folder below `folder` only: one above it (`folder` itself named `outputs`)
    # is no export below the logs
    candidates |= {
        p.parent
        for path in found
        for p in path.parents
        if p.name in THREE_TABLES and folder in p.parents
    }
    for below in sorted(candidates):
        if below != folder and all(table_files(below, name) for name in THREE_TABLES):
            raise InputUnreadable(
                f"{folder}: {below.relative_to(folder)}/ below it holds the three-table form "
                f"({', '.join(THREE_TABLES)}), which is read from its own folder: score it "
                f"apart (faith score {below}) and the other logs by a glob or a file"
            )
