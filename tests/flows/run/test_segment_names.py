"""Segments of any name are sliced by `pass_rates_by_segment` (issue 11): the name is read
through a JSON pointer, so quotes, backslashes, slashes, tildes and `$` are plain characters."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.builders import many_cases, write
from tests.support.db_reading import query

NAMES = ['tags"x', 'a\\"b', "a/b", "x~1", "$.x", "/", "", "ünï code"]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("segments")
    frame = many_cases(4).with_columns(pl.lit(f"v{i}").alias(name) for i, name in enumerate(NAMES))
    source, db = write(frame, folder / "a.parquet"), folder / "f.duckdb"
    run_score(ScoreSettings(source=str(source), db=str(db)))
    return db


@pytest.mark.parametrize("name", NAMES)
def test_pass_rates_by_segment_reads_any_name(db: Path, name: str) -> None:
    escaped = name.replace("'", "''")
    rows = query(
        db, f"SELECT segment_value, cases FROM pass_rates_by_segment('{escaped}', grain := NULL)"
    )
    assert rows == [(f"v{NAMES.index(name)}", 4)]
