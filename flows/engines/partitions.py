"""Planning a Dask run: the source as partitions of about `--batch-size` rows, each a list of
row ranges of files, and the rule for duplicated case_ids each partition must apply.

Partitions are numbered in read order, the order `--engine local` reads: a partition's number
is its batch number in the run, so loading in that order reproduces the local run's keys.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from flows.read.duplicates import DuplicatePlan, copy_contents, log_repeated_ids
from flows.read.source import RawBatch, Source, file_rows, read_rows
from flows.run.batches import validate_batch
from schemas import SizeLimits


@dataclass(frozen=True)
class Piece:
    """Rows `start` to `start + rows` of one Parquet file."""

    path: str
    start: int
    rows: int


@dataclass(frozen=True)
class Partition:
    """One task's input: pieces of files, `rows` rows in all; `number` counts from 1."""

    number: int
    pieces: tuple[Piece, ...]

    @property
    def rows(self) -> int:
        return sum(piece.rows for piece in self.pieces)


def plan_partitions(source: Source, batch_size: int) -> list[Partition]:
    """Cut the source's files, in read order, into partitions of `batch_size` rows (the
    last may be smaller); a partition may span files, a file may span partitions."""
    partitions: list[Partition] = []
    pieces: list[Piece] = []
    room = batch_size
    for path in source.files["cases"]:
        total = file_rows(path)
        start = 0
        while start < total:
            rows = min(room, total - start)
            pieces.append(Piece(str(path), start, rows))
            start += rows
            room -= rows
            if room == 0:
                partitions.append(Partition(len(partitions) + 1, tuple(pieces)))
                pieces, room = [], batch_size
    if pieces:
        partitions.append(Partition(len(partitions) + 1, tuple(pieces)))
    return partitions


def read_partition(partition: Partition, root: str | None) -> Iterator[RawBatch]:
    """The partition's rows as read, one raw batch a piece (hive values added as columns)."""
    for piece in partition.pieces:
        yield read_rows(piece.path, piece.start, piece.rows, Path(root) if root else None)


@dataclass(frozen=True)
class DuplicateRule:
    """Duplicated ids as one partition must treat them: `conflicting` ids are quarantined,
    copies of `copied` ids after the first are recorded, and `kept_before` are the copied ids
    whose kept copy lies in an earlier partition."""

    conflicting: tuple[str, ...]
    copied: tuple[str, ...]
    kept_before: tuple[str, ...]

    def plan(self) -> DuplicatePlan:
        """The local engine's resolver, primed with what earlier partitions kept."""
        plan = DuplicatePlan(
            pl.Series("case_id", self.conflicting, dtype=pl.String),
            pl.Series("case_id", self.copied, dtype=pl.String),
        )
        plan.kept(pl.Series("case_id", self.kept_before, dtype=pl.String))
        return plan


def duplicate_rules(
    duplicated: pl.DataFrame,
    partitions: list[Partition],
    root: str | None,
    limits: SizeLimits | None = None,
) -> dict[int, DuplicateRule]:
    """The pre-pass of flows/read/duplicates.py across partitions: which repeated ids
    conflict, and in which partition each exactly copied id is first read (validated rows
    only). Reads the repeated ids' rows once; keeps one hash a distinct copy."""
    ids = duplicated["case_id"].implode()
    seen = []
    for partition in partitions:
        for raw in read_partition(partition, root):
            repeated = pl.col("case_id").cast(pl.String, strict=False).is_in(ids)
            rows = raw.where(repeated)
            valid = validate_batch(rows, limits).valid
            copies = copy_contents(valid.filter(pl.col("case_id").is_in(ids)))
            seen.append(copies.with_columns(partition=pl.lit(partition.number)))
    versions = (
        pl.concat(seen)
        .group_by("case_id")
        .agg(pl.col("content").n_unique(), first=pl.col("partition").min())
    )
    conflicting = tuple(versions.filter(pl.col("content") > 1)["case_id"].to_list())
    log_repeated_ids(duplicated.height, len(conflicting))
    copies = versions.filter(pl.col("content") == 1)
    copied = tuple(copies["case_id"].to_list())
    return {
        partition.number: DuplicateRule(
            conflicting,
            copied,
            tuple(copies.filter(pl.col("first") < partition.number)["case_id"].to_list()),
        )
        for partition in partitions
    }
