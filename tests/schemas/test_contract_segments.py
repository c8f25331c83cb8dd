"""Segments (issue 11 item 8, issue 10 item 3): any column name round-trips exactly, and a
column of any Arrow type is carried as text, never a panic."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

import duckdb
import polars as pl
import pytest

from schemas import validate_cases
from tests.support.builders import CONTEXT

ODD_NAMES = ['tags"x', "a\\b", 'a\\"b', "naïve ☃ 名前", "two\nlines", "tab\there", "{}", "'q'"]
# DuckDB reads a `->>` key that is empty or starts with `$` or `/` as a path: these names
# are read with a JSON pointer, which takes any name.
PATH_LIKE_NAMES = ["", "$x", "/x", "~/a"]
POINTER = "'/' || replace(replace($name, '~', '~0'), '/', '~1')"


def raw_cases(n: int, extra: dict[str, pl.Series]) -> pl.DataFrame:
    """n valid raw cases plus the given extra columns."""
    return pl.DataFrame(
        {
            "case_id": [f"c{i}" for i in range(n)],
            "input": ["Where is order A17?"] * n,
            "actual_output": ["Order A17 shipped on 3 March."] * n,
            "retrieval_context": [CONTEXT] * n,
            "logged_at": [dt.datetime(2026, 11, 1)] * n,
            **extra,
        }
    )


def segments(extra: dict[str, pl.Series]) -> list[dict]:
    """The segments of each row, decoded; every row must have been valid."""
    n = len(next(iter(extra.values())))
    checked = validate_cases(raw_cases(n, extra))
    assert checked.quarantined.height == 0
    return [json.loads(text) for text in checked.valid["segments"]]


def test_segment_names_of_any_characters_round_trip_through_json_and_duckdb() -> None:
    """Issue 11: a column named `tags"x` was stored under a garbled key."""
    names = ODD_NAMES + PATH_LIKE_NAMES
    extra = {name: pl.Series([f"value of {name}"]) for name in names}
    checked = validate_cases(raw_cases(1, extra))
    assert json.loads(checked.valid["segments"][0]) == {n: f"value of {n}" for n in names}

    con = duckdb.connect()
    try:
        con.execute("CREATE TABLE stored (segments JSON)")
        con.execute("INSERT INTO stored SELECT $s", {"s": checked.valid["segments"][0]})
        keys = con.execute("SELECT json_keys(segments) FROM stored").fetchall()[0][0]
        assert sorted(keys) == sorted(names)
        for name in ODD_NAMES:
            got = con.execute("SELECT segments ->> $name FROM stored", {"name": name}).fetchall()
            assert got == [(f"value of {name}",)], name
        for name in names:
            got = con.execute(f"SELECT segments ->> ({POINTER}) FROM stored", {"name": name})
            assert got.fetchall() == [(f"value of {name}",)], name
    finally:
        con.close()


# Extra columns of every kind Parquet can bring, and the text each value must become.
TYPED_SEGMENTS: dict[str, tuple[pl.Series, list[str | None]]] = {
    "binary (base64)": (pl.Series([b"\x00\xffab", None], dtype=pl.Binary), ["AP9hYg==", None]),
    "duration (ISO-8601)": (pl.Series([dt.timedelta(seconds=90), None]), ["PT90S", None]),
    "decimal": (pl.Series([Decimal("1.50"), None], dtype=pl.Decimal(10, 2)), ["1.50", None]),
    "struct": (
        pl.Series([{"a": 1, "b": 'x"y'}, None]),
        ['{"a":1,"b":"x\\"y"}', None],
    ),
    "struct with binary": (
        pl.Series([{"k": b"\x01"}, None], dtype=pl.Struct({"k": pl.Binary})),
        ['{"k":"AQ=="}', None],
    ),
    "list": (pl.Series([[1, 2], None]), ["[1,2]", None]),
    "list of binary": (pl.Series([[b"a", None], []]), ['["YQ==",null]', "[]"]),
    "array": (pl.Series([[1, 2], [3, 4]], dtype=pl.Array(pl.Int64, 2)), ["[1,2]", "[3,4]"]),
    "null": (pl.Series([None, None], dtype=pl.Null), [None, None]),
    "time": (pl.Series([dt.time(1, 2, 3), None]), ["01:02:03", None]),
    "date": (pl.Series([dt.date(2026, 11, 1), None]), ["2026-11-01", None]),
    "categorical": (pl.Series(["blue", None], dtype=pl.Categorical), ["blue", None]),
    "boolean": (pl.Series([True, None]), ["true", None]),
    "int128": (pl.Series([2**100, None], dtype=pl.Int128), [str(2**100), None]),
}


@pytest.mark.parametrize("kind", list(TYPED_SEGMENTS))
def test_extra_columns_of_any_type_are_carried_as_text(kind: str) -> None:
    column, expected = TYPED_SEGMENTS[kind]
    assert [row[kind] for row in segments({kind: column})] == expected


def test_a_quarantined_row_with_binary_columns_is_shown_whole() -> None:
    """The quarantine's row_json went through the same JSON encoder, which panicked on binary."""
    raw = raw_cases(2, {"blob": pl.Series([b"\x00", b"\x01"])}).with_columns(
        case_id=pl.Series([b"c0", b"c1"])
    )
    bad = validate_cases(raw).quarantined
    assert bad["check"].to_list() == ["case_id_wrong_type"] * 2
    assert bad["value"].to_list() == ["YzA=", "YzE="]
    assert json.loads(bad["row_json"][0])["blob"] == "AA=="


@pytest.mark.parametrize("name", ['tags"x', "a\\b", "two\nlines"])
def test_a_list_column_with_an_escaped_name_keeps_its_value(name: str) -> None:
    """Issue 11: a list's text was cut out of its JSON by the length of the unescaped name."""
    assert segments({name: pl.Series([["a", "b"]])}) == [{name: '["a","b"]'}]


def test_a_log_of_thousands_of_segment_columns_keeps_each_of_them() -> None:
    """A wide export (one column per feature flag): every column a segment of its own, each
    of its types as text. Reading the frame's schema once a column made 5,000 columns of 200
    rows take 27 s to score (bench/wide_logs.py measures it)."""
    extra = {f"flag_{j:04d}": pl.Series([j % 3 == 0, None]) for j in range(2_000)}
    extra |= {"tier": pl.Series([2, 3]), "note": pl.Series(["a", "b"])}
    rows = segments(extra)
    assert len(rows[0]) == len(rows[1]) == 2_002
    assert (rows[0]["flag_0000"], rows[0]["flag_0001"]) == ("true", "false")
    assert rows[1]["flag_0000"] is None
    assert (rows[0]["tier"], rows[1]["note"]) == ("2", "b")
