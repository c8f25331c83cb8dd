"""A text passages cell (CSV) that no list of strings can be read from is quarantined with
its text as written, whatever it holds: it never fails the run."""

from __future__ import annotations

import polars as pl
import pytest

from schemas import validate_cases


def _quarantined(cell: str) -> list[tuple[str, str]]:
    raw = pl.DataFrame(
        {
            "case_id": ["good", "bad"],
            "input": ["Where is A17?"] * 2,
            "actual_output": ["Order A17 shipped."] * 2,
            "retrieval_context": ['["Order A17 shipped."]', cell],
            "logged_at": ["2026-11-01"] * 2,
        }
    )
    batch = validate_cases(raw, lists_as_json=True)
    assert batch.valid["case_id"].to_list() == ["good"]
    return list(batch.quarantined.select("check", "value").iter_rows())


@pytest.mark.parametrize(
    "cell",
    [
        "[" * 100_000,  # past Python's recursion limit: json.loads raised RecursionError
        "[" * 100_000 + "]" * 100_000,  # valid JSON, as deep
    ],
)
def test_a_cell_nested_too_deep_is_quarantined(cell: str) -> None:
    assert _quarantined(cell) == [("retrieval_context_not_a_list_of_strings", cell)]


@pytest.mark.parametrize("cell", ['["\\ud83d"]', '["ok", "a \\udc00 b"]'])
def test_a_json_cell_holding_half_a_utf16_pair_is_quarantined(cell: str) -> None:
    """No UTF-8 text holds "\\ud83d" alone: the list was built, then failed (TypeError)."""
    assert _quarantined(cell) == [("retrieval_context_not_a_list_of_strings", cell)]
