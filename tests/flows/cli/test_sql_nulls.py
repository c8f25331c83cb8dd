"""`faith sql --format table`: a NULL is shown as `NULL`, as DuckDB's own client shows it,
not as the blank an empty text is; the tables of the other commands keep their blanks."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from flows.cli import main
from flows.cli.output import print_frame
from flows.store.db import open_store


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("nulls") / "faith.duckdb"
    open_store(path).close()
    return path


def table(capsys: pytest.CaptureFixture[str], db: Path, query: str) -> list[str]:
    capsys.readouterr()
    code = main(["sql", query, "--db", str(db)])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    return out.splitlines()


def test_a_null_and_an_empty_text_look_different(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = table(capsys, db, "SELECT NULL::VARCHAR AS a, '' AS b, NULL::INTEGER AS c, 1 AS d")
    assert lines[1].split() == ["a", "b", "c", "d"]
    assert lines[2].split() == ["NULL", "NULL", "1"]
    assert lines[2].index("NULL", 5) == lines[1].index("c")  # b's blank between the NULLs


def test_other_commands_tables_keep_a_blank_for_a_null(capsys: pytest.CaptureFixture[str]) -> None:
    """`faith runs` and `faith batches` print with print_frame: a run not finished has no
    end, shown blank as before."""
    print_frame(
        pl.DataFrame({"run": ["r1"], "ended": [None]}, schema_overrides={"ended": pl.String}),
        title="t",
    )
    assert "NULL" not in capsys.readouterr().out
