"""`faith sql`: 128-bit whole numbers as they are, in every format. DuckDB gives a UHUGEINT to
Arrow as a signed DECIMAL(38, 0), so one of 2^127 or more printed negative (2^128 - 1 as -1),
and a table showed a HUGEINT of 10^38 or more as 1.0000…E+38 where CSV and JSON are exact."""

from __future__ import annotations

import io
import json
from pathlib import Path

import polars as pl
import pytest

from flows.cli import main
from flows.store.db import open_store

UHUGE_MAX = 2**128 - 1
HUGE_MIN = -(2**127)
VALUES = {  # name: (SQL, its value)
    "top": (f"{UHUGE_MAX}::UHUGEINT", UHUGE_MAX),
    "half": (f"{2**127}::UHUGEINT", 2**127),
    "small": ("7::UHUGEINT", 7),
    "none": ("NULL::UHUGEINT", None),
    "huge": (f"{10**38}::HUGEINT", 10**38),
    "low": (f"({HUGE_MIN})::HUGEINT", HUGE_MIN),
}
QUERY = "SELECT " + ", ".join(f"{sql} AS {name}" for name, (sql, _) in VALUES.items())


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("numbers") / "faith.duckdb"
    open_store(path).close()
    return path


def faith_sql(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    capsys.readouterr()
    code = main(["sql", *args])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    return out


def test_json_gives_every_128_bit_whole_number_as_its_json_number(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = faith_sql(capsys, QUERY, "--db", str(db), "--format", "json")
    assert json.loads(out) == {name: value for name, (_, value) in VALUES.items()}
    assert f'"top":{UHUGE_MAX},' in out  # a number, not a string


def test_csv_gives_every_128_bit_whole_number_exactly(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = faith_sql(capsys, QUERY, "--db", str(db), "--format", "csv")
    (row,) = pl.read_csv(io.StringIO(out), infer_schema=False).rows()
    assert row == tuple(None if v is None else str(v) for _, v in VALUES.values())


def test_a_table_gives_every_128_bit_whole_number_exactly(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = faith_sql(capsys, QUERY, "--db", str(db))
    header, row = out.splitlines()[1:]
    assert header.split() == list(VALUES)
    assert row.split() == ["NULL" if v is None else str(v) for _, v in VALUES.values()]


def test_a_uhugeint_inside_a_list_or_struct_is_its_digits(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nested, a 128-bit number is its digits as text in JSON, as a nested HUGEINT is."""
    query = f"SELECT [{UHUGE_MAX}::UHUGEINT, 1::UHUGEINT] AS l, {{'k': {2**127}::UHUGEINT}} AS s"
    record = json.loads(faith_sql(capsys, query, "--db", str(db), "--format", "json"))
    assert record == {"l": [str(UHUGE_MAX), "1"], "s": {"k": str(2**127)}}
    out = faith_sql(capsys, query, "--db", str(db))
    assert str(UHUGE_MAX) in out
    assert str(2**127) in out
    assert "-" not in out.splitlines()[-1]


def test_a_hugeint_or_decimal_inside_a_list_or_struct_is_its_exact_text(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A nested HUGEINT came to a table and CSV as `Decimal('1.7014…E+38')`, its last digit
    lost, and a nested DECIMAL as `Decimal('1.50')`: each is DuckDB's exact text now."""
    top = 2**127 - 1
    query = (
        f"SELECT [{top}::HUGEINT, -3::HUGEINT] AS l, {{'k': 1.50::DECIMAL(10, 2)}} AS s, "
        "[12345678901234567890.123456789012345678::DECIMAL(38, 18)] AS d"
    )
    table = faith_sql(capsys, query, "--db", str(db))
    assert str(top) in table
    assert "Decimal" not in table
    assert "1.50" in table
    assert "12345678901234567890.123456789012345678" in table
    (row,) = pl.read_csv(
        io.StringIO(faith_sql(capsys, query, "--db", str(db), "--format", "csv")),
        infer_schema=False,
    ).rows()
    assert [json.loads(cell) for cell in row] == [
        [str(top), "-3"],
        {"k": "1.50"},
        ["12345678901234567890.123456789012345678"],
    ]
    record = json.loads(faith_sql(capsys, query, "--db", str(db), "--format", "json"))
    assert record == {
        "l": [str(top), "-3"],
        "s": {"k": "1.50"},
        "d": ["12345678901234567890.123456789012345678"],
    }
