"""The cases as Parquet: wide or as three tables, one file or part files, written as a
stream."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq

from data.generator.contract import OUTPUT_COLUMNS, QUESTION_COLUMNS, SCHEMA, Form

# The judge's own word rules, so what the data is built to test is what the judge reads.


def to_three_tables(cases: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """Split a wide cases table into questions, long-form contexts and outputs.

    Columns beyond the contract (extra segments) go with the questions.
    """
    extra = [c for c in cases.columns if c not in SCHEMA]
    questions = cases.select(*QUESTION_COLUMNS, *extra)
    contexts = (
        cases.select(
            "case_id",
            position=pl.int_ranges(pl.col("retrieval_context").list.len(), dtype=pl.Int32),
            text="retrieval_context",
        )
        .explode("position", "text")
        .drop_nulls("position")
    )
    return questions, contexts, cases.select(OUTPUT_COLUMNS)


def _parts(frames: Iterable[pl.DataFrame], rows: int) -> Iterator[pl.DataFrame]:
    """Re-cut a stream of frames into frames of exactly `rows` rows (the last may be shorter)."""
    buffer: list[pl.DataFrame] = []
    held = 0
    for frame in frames:
        buffer.append(frame)
        held += frame.height
        while held >= rows:
            joined = pl.concat(buffer)
            yield joined.head(rows)
            rest = joined.slice(rows)
            buffer, held = [rest], rest.height
    if held:
        yield pl.concat(buffer)


def _tables(frame: pl.DataFrame, form: Form) -> dict[str, pl.DataFrame]:
    if form == "wide":
        return {"cases": frame}
    questions, contexts, outputs = to_three_tables(frame)
    return {"questions": questions, "contexts": contexts, "outputs": outputs}


def write_stream(
    frames: Iterable[pl.DataFrame],
    path: str | Path,
    *,
    form: Form = "wide",
    rows_per_file: int | None = None,
) -> tuple[int, list[Path]]:
    """Write frames of cases as zstd Parquet without holding them all; (rows, files written).

    wide: one file at `path`, or `path/part-00000.parquet`, ... with `rows_per_file`.
    three: `path/{questions,contexts,outputs}.parquet`, or those sub-folders of part files.
    """
    if form not in ("wide", "three"):
        raise ValueError(f"form must be 'wide' or 'three', got {form!r}")
    if rows_per_file is not None and rows_per_file < 1:
        raise ValueError(f"rows_per_file must be positive, got {rows_per_file}")
    if rows_per_file is None:
        return _write_files(frames, Path(path), form)
    return _write_parts(frames, Path(path), form, rows_per_file)


def _write_files(frames: Iterable[pl.DataFrame], path: Path, form: Form) -> tuple[int, list[Path]]:
    """One file per table, appended chunk by chunk and renamed into place when complete."""
    targets = {name: path if form == "wide" else path / f"{name}.parquet" for name in _names(form)}
    partial = {name: t.with_name(f".{t.name}.partial") for name, t in targets.items()}
    writers: dict[str, pq.ParquetWriter] = {}
    rows = 0
    try:
        stream = iter(frames)
        first = next(stream, pl.DataFrame(schema=SCHEMA))  # gives the schema, even with no rows
        for frame in prepend(first, stream):
            rows += frame.height
            for name, table in _tables(frame, form).items():
                arrow = table.to_arrow()
                if name not in writers:
                    partial[name].parent.mkdir(parents=True, exist_ok=True)
                    writers[name] = pq.ParquetWriter(
                        partial[name], arrow.schema, compression="zstd"
                    )
                if table.height:
                    writers[name].write_table(arrow)
    except BaseException:
        for writer in writers.values():
            writer.close()
        for file in partial.values():
            file.unlink(missing_ok=True)
        raise
    for name, writer in writers.items():
        writer.close()
        partial[name].replace(targets[name])
    return rows, list(targets.values())


def _write_parts(
    frames: Iterable[pl.DataFrame], path: Path, form: Form, rows_per_file: int
) -> tuple[int, list[Path]]:
    """Part files of `rows_per_file` cases; stale part files in the folders are removed first."""
    folders = {name: path if form == "wide" else path / name for name in _names(form)}
    for folder in folders.values():
        folder.mkdir(parents=True, exist_ok=True)
        for stale in folder.glob("part-*.parquet"):
            stale.unlink()
    rows, written = 0, []
    for i, part in enumerate(_parts(frames, rows_per_file)):
        rows += part.height
        for name, table in _tables(part, form).items():
            file = folders[name] / f"part-{i:05d}.parquet"
            table.write_parquet(file, compression="zstd")
            written.append(file)
    return rows, written


def _names(form: Form) -> tuple[str, ...]:
    return ("cases",) if form == "wide" else ("questions", "contexts", "outputs")


def write_cases(
    cases: pl.DataFrame,
    path: str | Path,
    *,
    form: Form = "wide",
    rows_per_file: int | None = None,
) -> list[Path]:
    """Write a cases table as zstd Parquet, wide or as three tables; returns the files written."""
    return write_stream([cases], path, form=form, rows_per_file=rows_per_file)[1]


def prepend(first: pl.DataFrame, rest: Iterable[pl.DataFrame]) -> Iterator[pl.DataFrame]:
    yield first
    yield from rest
