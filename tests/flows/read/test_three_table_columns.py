"""The three-table form's joined row has each column once: tables partitioned alike into
`key=value` folders (or kept under one) score as the same cases in one table do, and a
column two tables both have stops the run before anything is written."""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl
import pytest

from flows.errors import InputUnreadable
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.builders import many_cases, write

COLUMNS = "case_id, content_hash, score, status, logged_at, segments::VARCHAR AS segments"


def score(source: Path, db: Path) -> dict:
    return run_score(ScoreSettings(source=str(source), db=str(db)))


def stored(db: Path) -> list[tuple]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.sql(f"SELECT {COLUMNS} FROM case_scores ORDER BY case_id").fetchall()
    finally:
        con.close()


def three_tables(wide: pl.DataFrame) -> dict[str, pl.DataFrame]:
    contexts = wide.select(
        "case_id",
        text="retrieval_context",
        position=pl.int_ranges(pl.col("retrieval_context").list.len()),
    ).explode("text", "position")
    return {
        "questions": wide.select("case_id", "input", "logged_at", "app_version"),
        "outputs": wide.select("case_id", "actual_output"),
        "contexts": contexts,
    }


def test_three_tables_partitioned_alike_score_as_one_partitioned_table(tmp_path: Path) -> None:
    """Each table under `day=` folders, as a nightly export writes them: the key was read from
    questions and outputs alike, twice in the joined row, and the run failed with exit 1."""
    wide = many_cases(6).with_columns(day=pl.col("logged_at").dt.strftime("%Y-%m-%d"))
    for day, rows in wide.group_by("day"):
        write(rows.drop("day"), tmp_path / "wide" / f"day={day[0]}" / "part-0.parquet")
        for name, table in three_tables(rows.drop("day")).items():
            write(table, tmp_path / "three" / name / f"day={day[0]}" / "part-0.parquet")
    score(tmp_path / "wide", tmp_path / "wide.duckdb")
    run = score(tmp_path / "three", tmp_path / "three.duckdb")
    assert (run["rows_in"], run["rows_newly_scored"]) == (6, 6)
    assert stored(tmp_path / "three.duckdb") == stored(tmp_path / "wide.duckdb")
    assert '"day":"2026-10-01"' in stored(tmp_path / "three.duckdb")[0][-1]


def test_key_value_folders_above_the_source_are_not_segments_in_either_form(
    tmp_path: Path,
) -> None:
    """An export kept under `day=…/`, scored one folder at a time: a folder above SOURCE is
    where the files are, not what they hold (it failed the three-table form with exit 1)."""
    under = tmp_path / "day=2026-10-01"
    write(many_cases(3), under / "wide" / "cases.parquet")
    for name, table in three_tables(many_cases(3)).items():
        write(table, under / "three" / f"{name}.parquet")
    score(under / "wide", tmp_path / "wide.duckdb")
    score(under / "three", tmp_path / "three.duckdb")
    assert stored(tmp_path / "three.duckdb") == stored(tmp_path / "wide.duckdb")
    assert "day" not in stored(tmp_path / "three.duckdb")[0][-1]


@pytest.mark.parametrize(
    ("table", "column", "said"),
    [
        ("outputs", "app_version", "questions and outputs both have the column app_version"),
        ("outputs", "logged_at", "questions and outputs both have the column logged_at"),
        ("questions", "retrieval_context", "makes from the contexts table"),
    ],
)
def test_a_column_two_tables_both_have_is_refused_before_anything_is_written(
    tmp_path: Path, table: str, column: str, said: str
) -> None:
    """It was two columns of one name in the joined row: exit 1 (DuplicateError), a failed
    run written first."""
    tables = three_tables(many_cases(3))
    tables[table] = tables[table].with_columns(many_cases(3)[column])
    for name, frame in tables.items():
        write(frame, tmp_path / "three" / f"{name}.parquet")
    with pytest.raises(InputUnreadable, match=said):
        score(tmp_path / "three", tmp_path / "f.duckdb")
    assert not (tmp_path / "f.duckdb").exists()


def test_columns_mapped_for_the_three_table_form_are_refused_not_ignored(tmp_path: Path) -> None:
    """`--columns input=question` passed the check of the files, then the join read `input`,
    and every question was quarantined as input_is_null."""
    tables = three_tables(many_cases(3))
    tables["questions"] = tables["questions"].rename({"input": "question"})
    for name, frame in tables.items():
        write(frame, tmp_path / "three" / f"{name}.parquet")
    settings = ScoreSettings(
        source=str(tmp_path / "three"), db=str(tmp_path / "f.duckdb"), columns="input=question"
    )
    with pytest.raises(InputUnreadable, match="three-table form is read by its own column names"):
        run_score(settings)
    assert not (tmp_path / "f.duckdb").exists()


def test_content_case_ids_for_the_three_table_form_are_refused_not_ignored(
    tmp_path: Path,
) -> None:
    """The tables are joined on their given ids: `--case-id content` stored those, unsaid."""
    for name, frame in three_tables(many_cases(3)).items():
        write(frame, tmp_path / "three" / f"{name}.parquet")
    settings = ScoreSettings(
        source=str(tmp_path / "three"), db=str(tmp_path / "f.duckdb"), case_id="content"
    )
    with pytest.raises(InputUnreadable, match="--case-id content is for cases tables"):
        run_score(settings)
    assert not (tmp_path / "f.duckdb").exists()


def test_case_ids_typed_a_float_in_one_table_and_not_in_another_are_refused(
    tmp_path: Path,
) -> None:
    """Outputs written by pandas from a frame with a missing id type case_id a float: its ids
    read `1.0`, the questions' `1`, and every output was an orphan and every question
    `actual_output_is_null` (exit 11, the whole night quarantined)."""
    tables = three_tables(many_cases(3).with_columns(case_id=pl.int_range(3)))
    tables["outputs"] = tables["outputs"].with_columns(pl.col("case_id").cast(pl.Float64))
    for name, frame in tables.items():
        write(frame, tmp_path / "three" / f"{name}.parquet")
    with pytest.raises(InputUnreadable, match=r"outputs\.parquet: case_id is typed double"):
        score(tmp_path / "three", tmp_path / "f.duckdb")
    assert not (tmp_path / "f.duckdb").exists()


def test_case_ids_of_integer_and_decimal_types_are_joined(tmp_path: Path) -> None:
    """Ids typed alike as whole numbers (a warehouse's NUMBER(38,0) beside an int64) join."""
    tables = three_tables(many_cases(3).with_columns(case_id=pl.int_range(3)))
    tables["contexts"] = tables["contexts"].with_columns(pl.col("case_id").cast(pl.Decimal(38, 0)))
    for name, frame in tables.items():
        write(frame, tmp_path / "three" / f"{name}.parquet")
    run = score(tmp_path / "three", tmp_path / "f.duckdb")
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (3, 3, 0)
