"""A passages column written by pandas' `to_csv` (a Python list's repr, `['Line one.\\nTwo.']`)
reads as the list it writes. DuckDB's list syntax looks the same, but its backslash escapes the
next character: "\\n" was read as "n" and "\\xa0" as "xa0", every passage silently altered.
DuckDB's own COPY output still reads as it did."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pandas as pd
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flows.read.formats import duckdb_frames
from flows.read.list_cells import python_lists_as_json

PASSAGES = [
    ["Line one.\nOrder A17 shipped.", "Refunds are paid within 5 days."],
    ["It's 5\xa0kg.", 'He said "hi".', "A back\\slash, a tab\there."],
    ["Plain, no escapes."],
]


def _passages(path: Path, names: list[str]) -> list[list[str]]:
    frames = duckdb_frames([path], "csv", 100, "retrieval_context", names=names)
    return [json.loads(cell) for cell in pl.concat(list(frames))["retrieval_context"]]


def test_a_pandas_export_reads_each_passage_as_written(tmp_path: Path) -> None:
    path = tmp_path / "pandas.csv"
    frame = pd.DataFrame({"case_id": ["a", "b", "c"], "retrieval_context": PASSAGES})
    frame.to_csv(path, index=False)
    assert "\\n" in path.read_text()  # pandas writes the escape, not the newline
    assert _passages(path, ["case_id", "retrieval_context"]) == PASSAGES


def test_duckdbs_own_copy_still_reads_as_it_did(tmp_path: Path) -> None:
    """COPY quotes an item with a quote or a comma and escapes with a backslash (`'it\\'s'`),
    and leaves an item with a newline unquoted: no Python literal, read by DuckDB's syntax."""
    path = tmp_path / "duckdb.csv"
    con = duckdb.connect()
    try:
        con.execute(
            f"COPY (SELECT 'a' AS case_id, $passages AS retrieval_context) TO '{path}'",
            {"passages": ["it's", "back\\slash", "line\ntwo", "a, b", 'q"uote']},
        )
    finally:
        con.close()
    assert _passages(path, ["case_id", "retrieval_context"]) == [
        ["it's", "back\\slash", "line\ntwo", "a, b", 'q"uote']
    ]


CELLS = st.lists(st.text(min_size=0, max_size=8), min_size=1, max_size=4)


@settings(max_examples=60, deadline=None)
@given(lists=st.lists(CELLS, min_size=1, max_size=4))
def test_any_python_list_of_strings_reads_back_whole(lists: list[list[str]]) -> None:
    """Whatever the strings (escapes, quotes, brackets), a cell holding a backslash that
    Python's repr wrote reads back as the list; JSON text is left as it is."""
    cells = [repr(items) for items in lists] + [json.dumps(items) for items in lists]
    read = python_lists_as_json(pl.DataFrame({"retrieval_context": cells}), "retrieval_context")
    for cell, items, written in zip(read["retrieval_context"], lists + lists, cells, strict=True):
        if "\\" in written:
            assert json.loads(cell) == items
        else:
            assert cell == written  # no backslash: DuckDB's syntax read it, as before


def test_a_python_cell_holding_half_a_utf16_pair_is_left_as_written() -> None:
    """No UTF-8 text holds "\\ud83d" alone: the cell is kept as written, for the contract to
    quarantine (building the column from it failed the run, exit 1)."""
    cells = ["['\\ud83d']", "['ok\\n', 'a \\udc00 b']", "['\\ud83d\\ude00\\n']"]
    read = python_lists_as_json(pl.DataFrame({"retrieval_context": cells}), "retrieval_context")
    assert read["retrieval_context"].to_list() == cells


@pytest.mark.parametrize("cell", [r"['a\nb', 1]", r"[b'x\n']", r"[None, 'a\n']", r"[['a\n']]"])
def test_a_python_list_that_is_no_list_of_strings_is_kept_as_written(cell: str) -> None:
    """Its "\\n" is no escape DuckDB writes: read by DuckDB's syntax it became "n" ("anb"),
    silently (a review). Kept as written, the contract quarantines it as no list of strings."""
    read = python_lists_as_json(pl.DataFrame({"retrieval_context": [cell]}), "retrieval_context")
    assert read["retrieval_context"].to_list() == [cell]


def test_a_pandas_list_holding_none_or_a_number_is_no_list_of_strings(tmp_path: Path) -> None:
    """pandas writes a list holding None, a NaN, a number or a flag as `['a', None]`,
    `['a', nan]`, `['a', 5]`, `['a', True]`: read by DuckDB's syntax, the passages were the
    strings "None", "nan", "5", "True" and the row was scored, where a passage holding a
    newline beside them (`[None, 'a\\n']`) kept the cell as written and quarantined it, as
    JSON's `["a", null]` is. Kept as written, each is quarantined as no list of strings; a
    passage that writes numbers in its text still reads."""
    path = tmp_path / "pandas.csv"
    odd = [["Order A17 shipped.", None], ["a", float("nan")], ["a", 5], ["a", True], [["a"]]]
    fine = [["Items 1, 2, 3 shipped.", "Refund: 5, 10 or 20 EUR."]]
    frame = pd.DataFrame({"case_id": [f"r{i}" for i in range(6)], "retrieval_context": odd + fine})
    frame.to_csv(path, index=False)
    frames = duckdb_frames([path], "csv", 100, "retrieval_context", names=list(frame.columns))
    cells = pl.concat(list(frames))["retrieval_context"].to_list()
    assert cells[:5] == [
        "['Order A17 shipped.', None]",
        "['a', nan]",
        "['a', 5]",
        "['a', True]",
        "[['a']]",
    ]
    assert json.loads(cells[5]) == fine[0]
