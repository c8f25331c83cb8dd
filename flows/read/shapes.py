"""What a resolved source is, and what a raw batch read from it carries."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

import polars as pl

from flows.read.read_options import ReadOptions, format_of

if TYPE_CHECKING:
    from flows.read.file_facts import FileFacts
    from flows.read.file_stamps import Stamp

_FILE = "__faithpipe_source_file"  # a row's file, for a moment, while rows are filtered


@dataclass(frozen=True)
class Source:
    """Resolved input: its form, the files of each table, how to read them, what each file
    holds (its columns and rows, read once when the source is resolved) and each file's stamp
    taken before any of it was read (flows/read/file_stamps.py)."""

    spec: str
    form: str  # "wide" | "three" | "turns" | "chat"
    files: dict[str, list[Path]] = field(default_factory=dict)
    root: Path | None = None
    options: ReadOptions = field(default_factory=ReadOptions)
    facts: Mapping[Path, FileFacts] = field(default_factory=dict, compare=False, repr=False)
    stamps: dict[Path, Stamp] = field(default_factory=dict, compare=False, repr=False)

    @property
    def all_files(self) -> list[Path]:
        return [path for paths in self.files.values() for path in paths]

    def format_of(self, path: Path) -> str:
        """The file's format (a name no format claims is read as Parquet, as it always was)."""
        return format_of(path, self.options) or "parquet"

    @property
    def all_parquet(self) -> bool:
        return all(self.format_of(path) == "parquet" for path in self.all_files)


@dataclass(frozen=True)
class RawBatch:
    """Rows as read, before any validation, and where they came from. `lists_as_json`: the
    format holds lists as JSON text (CSV; a JSON column of mixed types); `content_ids`:
    `--case-id content`, the case_id is made from the case's content. For small files read
    together, `files` holds each row's file, in row order (`source_file` is the first)."""

    frame: pl.DataFrame
    source_file: str
    lists_as_json: bool = False
    content_ids: bool = False
    files: pl.Series | None = None

    def where(self, keep: pl.Expr) -> RawBatch:
        """The rows `keep` is true for, each still with its file."""
        if self.files is None:
            return replace(self, frame=self.frame.filter(keep))
        kept = self.frame.with_columns(self.files.alias(_FILE)).filter(keep)
        return replace(self, frame=kept.drop(_FILE), files=kept[_FILE])
