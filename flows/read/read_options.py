"""How a source is to be read, as the user said: the format each file is (by --format or its
name) and which of its columns are the contract's (`--columns`)."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from faith_udfs.frames import parse_columns  # noqa: F401 - the one `--columns` parser, CLI and Python alike
from flows.errors import InputUnreadable
from schemas import LONE_SURROGATES, NOT_UTF8, WRONG_TYPE, SizeLimits

FORMATS = ("parquet", "csv", "json")
# `--format` spellings: JSON Lines and NDJSON are DuckDB's newline-delimited JSON.
FORMAT_CHOICES = ("auto", *FORMATS, "jsonl", "ndjson")
EXTENSIONS = {
    ".parquet": "parquet",
    ".csv": "csv",
    ".json": "json",
    ".jsonl": "json",
    ".ndjson": "json",
}
CONTRACT_NAMES = (
    "case_id",
    "input",
    "actual_output",
    "retrieval_context",
    "logged_at",
    "conversation_id",
    "turn",
    "role",
    "content",
    "messages",
)
# A cases table's columns, found in any case (`Case_ID`, `INPUT`) when no column has the name.
ANY_CASE = ("case_id", "input", "actual_output", "retrieval_context", "logged_at")


@dataclass(frozen=True)
class ReadOptions:
    """How to read a source: its format, which of its columns are the contract's, how a
    missing case_id is made, and (turns) how many earlier turns a case may rely on."""

    format: str = "auto"
    # contract name -> the source's column name (`--columns input=question,...`)
    columns: Mapping[str, str] = field(default_factory=dict)
    case_id: str = "given"  # given | content
    conversation_window: int = 4
    # conversations: a turn past them is cut before it is read, and quarantined (turn_sizes.py)
    size_limits: SizeLimits = field(default_factory=SizeLimits)

    def __post_init__(self) -> None:
        if self.format not in FORMAT_CHOICES:
            raise ValueError(f"--format {self.format}: choose one of {', '.join(FORMAT_CHOICES)}")
        unknown = sorted(set(self.columns) - set(CONTRACT_NAMES))
        if unknown:
            raise ValueError(
                f"--columns {', '.join(unknown)}: not a contract column "
                f"(choose from {', '.join(CONTRACT_NAMES)})"
            )
        shared = _named_twice(self.columns)
        if shared:
            raise ValueError(
                f"--columns {shared}: one column cannot be two contract columns "
                "(copy it under a second name in your export)"
            )
        if self.case_id not in ("given", "content"):
            raise ValueError(f"--case-id {self.case_id}: choose given or content")

    @property
    def wanted_format(self) -> str | None:
        """The format --format names (None: by extension)."""
        if self.format == "auto":
            return None
        return "json" if self.format in ("jsonl", "ndjson") else self.format

    def source_name(self, contract_name: str) -> str:
        """The source's column holding `contract_name`."""
        return self.columns.get(contract_name, contract_name)


def _named_twice(columns: Mapping[str, str]) -> str:
    """The mappings naming a source column another one names too, as written; '' when none:
    a rename keeps one of them, and the other contract column would read as missing or null."""
    by_source: dict[str, list[str]] = {}
    for name, source in columns.items():
        by_source.setdefault(source, []).append(name)
    twice = [(names, source) for source, names in by_source.items() if len(names) > 1]
    return ", ".join(f"{name}={source}" for names, source in twice for name in names)


def format_of(path: Path, options: ReadOptions) -> str | None:
    """The file's format: --format's, else its extension's (`.gz` looked through); None when
    the name says no format faithpipe reads."""
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes and suffixes[-1] == ".gz":
        suffixes = suffixes[:-1]
    by_name = EXTENSIONS.get(suffixes[-1]) if suffixes else None
    return options.wanted_format or by_name


def named_format(path: Path, options: ReadOptions) -> bool:
    """Whether a file found in a folder or glob is one to read: its name says a format (the
    one --format names, when given)."""
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes and suffixes[-1] == ".gz":
        suffixes = suffixes[:-1]
    found = EXTENSIONS.get(suffixes[-1]) if suffixes else None
    return found is not None and options.wanted_format in (None, found)


def mapped(frame: pl.DataFrame, options: ReadOptions) -> pl.DataFrame:
    """The frame with the mapped columns under their contract names."""
    renames = contract_renames(frame.columns, options)
    check_mapping(frame.columns, options, "the source")
    for mark in (LONE_SURROGATES, NOT_UTF8, WRONG_TYPE):
        if renames and mark in frame.columns:  # the columns it names, renamed too
            frame = frame.with_columns(pl.col(mark).list.eval(pl.element().replace(renames)))
    return frame.rename(renames) if renames else frame


def check_mapping(columns: list[str], options: ReadOptions, where: str) -> None:
    """Refuse a `--columns` mapping onto a name the columns have already, unless that
    column is mapped too (exit 3): two columns would carry one contract name; and so two
    columns that differ only in case where a cases table's column is looked for in any case
    (`Input`, `INPUT`): which one it is cannot be told. Checked on each file's columns before
    a run starts, and on each frame read."""
    renames = contract_renames(columns, options)  # a column renamed away leaves its name free
    clashing = [name for name in renames.values() if name in columns and name not in renames]
    if clashing:
        raise InputUnreadable(
            f"{where}: --columns maps onto {', '.join(clashing)}, which it has already: "
            "map that column too, or drop it"
        )
    mapped_from = set(options.columns.values())
    for name in ANY_CASE:
        wanted = options.source_name(name)
        twins = _in_any_case(columns, wanted, mapped_from)
        if wanted not in columns and len(twins) > 1:
            raise InputUnreadable(
                f"{where}: columns {' and '.join(twins)} differ only in case, so which one is "
                f"{name} cannot be told: drop or rename one, or name it with "
                f"--columns {name}={twins[-1]}"
            )


def contract_column(columns: list[str], name: str, options: ReadOptions) -> str:
    """The column holding contract column `name` (its own name when none does)."""
    held = {contract: column for column, contract in contract_renames(columns, options).items()}
    return held.get(name, options.source_name(name))


def contract_renames(columns: list[str], options: ReadOptions) -> dict[str, str]:
    """Each column holding a contract column under another name, and that name: as `--columns`
    maps it, and for a cases table's columns the name looked for (its own, or the one
    `--columns` maps) in another case, `Case_ID` or `INPUT`, when no column has it exactly and
    one alone has it so (two are refused by check_mapping)."""
    renames = {
        source: name
        for name, source in options.columns.items()
        if source in columns and source != name
    }
    for name in ANY_CASE:
        wanted = options.source_name(name)
        twins = _in_any_case(columns, wanted, renames)
        if wanted not in columns and len(twins) == 1:
            renames[twins[0]] = name
    return renames


def _in_any_case(columns: list[str], wanted: str, taken: Collection[str]) -> list[str]:
    """The columns named `wanted` in any case, but those `taken` for another contract column;
    where there is one, also those DuckDB named so with a suffix: of a CSV header's `Input`
    and `input` it names the second `input_1`, so the file's own names are not known (and an
    `input_1` is no case of `input`, though it may be one of its spellings)."""
    folded = wanted.casefold()
    found = [c for c in columns if c.casefold() == folded and c not in taken]
    if found:
        suffixed = (re.fullmatch(r"(.+)_\d+", c) for c in columns if c not in taken)
        found += [m.string for m in suffixed if m and m.group(1).casefold() == folded]
    return found
