"""The three-table form: questions, contexts (long) and outputs joined on case_id by DuckDB,
and the outputs and contexts no question claims, as quarantine rows."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import polars as pl

from flows.errors import InputUnreadable
from flows.read.formats import duckdb_paths
from flows.read.hive_folders import hive_values
from flows.read.shapes import RawBatch, Source
from flows.store.db import sql, statements

THREE_TABLES = ("questions", "contexts", "outputs")
# Each joined row's questions and outputs file, for a moment: their `key=value` folders.
_FILE_COLUMNS = ("__faithpipe_questions_file", "__faithpipe_outputs_file")


def check_three_table_options(source: Source) -> None:
    """The three-table form is read by its own column names: a `--columns` mapping was checked
    against the files but not applied, so every question was quarantined as `input_is_null`.
    Its tables are joined on their case_ids, so `--case-id content` was ignored unsaid."""
    if source.options.case_id == "content":
        raise InputUnreadable(
            f"{source.spec}: the three-table form joins its tables on their case_ids; "
            "--case-id content is for cases tables"
        )
    renamed = [
        f"{name}={column}" for name, column in source.options.columns.items() if name != column
    ]
    if renamed:
        raise InputUnreadable(
            f"{source.spec}: --columns {','.join(renamed)}: the three-table form is read by its "
            "own column names (questions: case_id, input, logged_at; outputs: case_id, "
            "actual_output; contexts: case_id, position, text): rename the tables' columns"
        )


def check_three_table_columns(source: Source) -> None:
    """A column of both questions and outputs, or a `retrieval_context` column beside the
    contexts table, would be two columns of one name in the joined row: which one is the
    case's cannot be told, so the run stops before anything is written (exit 3)."""
    names = {table: _names(source, table) for table in ("questions", "outputs")}
    for found in names.values():
        if "retrieval_context" in found:
            raise InputUnreadable(
                f"{found['retrieval_context']}: has a column retrieval_context, which the "
                "three-table form makes from the contexts table: drop or rename it"
            )
    for name, path in names["questions"].items():
        if name != "case_id" and name in names["outputs"]:
            raise InputUnreadable(
                f"{path} and {names['outputs'][name]}: questions and outputs both have the "
                f"column {name}, so which one is a case's cannot be told: drop or rename it "
                "in one of them"
            )
    _check_ids_typed_alike(source)


_FLOAT_TYPES = ("halffloat", "float", "double")


def _check_ids_typed_alike(source: Source) -> None:
    """The tables are joined on their case_ids as text: one table's typed a float (pandas
    writes a column of whole numbers with a missing one as float64) reads `1.0` where another's
    reads `1`, so no output or context met its question and the night was quarantined whole."""
    typed: dict[bool, tuple[Path, str]] = {}
    for table in THREE_TABLES:
        for path in source.files[table]:
            kind = dict(source.facts[path].columns).get("case_id") if path in source.facts else None
            if kind is not None:
                typed.setdefault(kind in _FLOAT_TYPES, (path, kind))
    if len(typed) == 2:
        (floats, float_kind), (other, other_kind) = typed[True], typed[False]
        raise InputUnreadable(
            f"{floats}: case_id is typed {float_kind}, in {other} {other_kind}, so an id read "
            "as 1.0 would not meet the same id read as 1: write case_id as an integer or as "
            "text in every table"
        )


def orphan_rows(source: Source) -> pl.DataFrame:
    """Three-table form: outputs and contexts whose case_id has no question, as quarantine
    rows (`check`, `case_id`, `column`, `value`, `row_json`, `source_file`, `row`)."""
    if source.form in ("turns", "chat"):
        from flows.read.turns import bad_turns

        return bad_turns(source)
    if source.form != "three":
        return pl.DataFrame()
    con = duckdb.connect()
    try:
        params = _duckdb_file_lists(source)
        found = con.sql(sql("three_table_orphans"), params=params).pl()
    finally:
        con.close()
    return found.with_columns(
        source_file=pl.lit(str(source.root)), row=pl.int_range(pl.len(), dtype=pl.UInt32)
    )


def count_orphan_rows(source: Source) -> int:
    """How many rows orphan_rows will quarantine, and the joined rows past one a question (a
    case_id with two outputs is two): they are rows in, so a run's progress counts them in its
    total."""
    con = duckdb.connect()
    try:
        (orphans,) = statements("three_table_orphans")
        query = f"SELECT count(*) FROM ({orphans})"
        files = _duckdb_file_lists(source)
        total = int(con.execute(query, files).fetchall()[0][0])
        joined = {name: files[name] for name in ("questions", "outputs")}
        return total + int(con.execute(sql("three_table_extra_rows"), joined).fetchall()[0][0])
    finally:
        con.close()


def three_table_batches(source: Source, batch_size: int) -> Iterator[RawBatch]:
    """Join questions, contexts (long, ordered by position) and outputs in DuckDB, streamed."""
    con = duckdb.connect()
    try:
        params = _duckdb_file_lists(source)
        try:
            reader = con.sql(sql("read_three_tables"), params=params).to_arrow_reader(batch_size)
        except duckdb.Error as exc:
            raise InputUnreadable(f"{source.spec}: cannot join the three tables ({exc})") from exc
        for record_batch in reader:
            frame = pl.from_arrow(record_batch)
            assert isinstance(frame, pl.DataFrame)
            yield RawBatch(_with_hive(frame, source.root), str(source.root))
    finally:
        con.close()


def _names(source: Source, table: str) -> dict[str, Path]:
    """The table's column names over its files, each with the first file that has it."""
    found: dict[str, Path] = {}
    for path in source.files[table]:
        for name in source.facts[path].names if path in source.facts else []:
            found.setdefault(name, path)
    return found


def _with_hive(frame: pl.DataFrame, root: Path | None) -> pl.DataFrame:
    """Each row's `key=value` folders below the source, as text, by the wide form's rule: its
    question's, then those of its output the question's lack; a table's column wins."""
    for column in _FILE_COLUMNS:
        found = {name: hive_values(Path(name), root) for name in frame[column].drop_nulls()}
        for key in dict.fromkeys(key for values in found.values() for key in values):
            if key not in frame.columns:
                by_file = {name: values.get(key) for name, values in found.items()}
                value = pl.col(column).replace_strict(by_file, default=None, return_dtype=pl.String)
                frame = frame.with_columns(value.alias(key))
    return frame.drop(_FILE_COLUMNS)


def _duckdb_file_lists(source: Source) -> dict[str, list[str]]:
    """Each table's files as DuckDB reads them literally: it treats every path as a glob, so a
    file named `part[1].parquet` would be read as `part1.parquet`. A glob character becomes a
    one-character class of itself."""
    return {name: duckdb_paths(source.files[name]) for name in THREE_TABLES}
