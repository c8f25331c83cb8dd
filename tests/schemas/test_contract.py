"""The contract cast (issue 11): timestamps per value, in any row order; validation on
whatever pandera's environment says."""

from __future__ import annotations

import datetime as dt
import os

import pandera.config
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schemas import validate_cases
from tests.conftest import run_python
from tests.support.builders import CONTEXT

NOON = dt.datetime(2026, 11, 1, 12, 0)
# Text logged_at values and the naive UTC time each must become (None: quarantined).
TIMESTAMPS: dict[str, dt.datetime | None] = {
    "2026-11-01T12:00:00": NOON,
    "2026-11-01T12:00:00Z": NOON,
    "2026-11-01T14:00:00+02:00": NOON,
    "2026-11-01T07:00:00-0500": NOON,
    "2026-11-01T14:00:00+02": NOON,
    "2026-11-01T12:00:00.250": NOON + dt.timedelta(milliseconds=250),
    "2026-11-01T14:00:00.5+02:00": NOON + dt.timedelta(milliseconds=500),
    "2026-11-01T12:00:00.123456789Z": NOON + dt.timedelta(microseconds=123456),
    "2026-11-01 12:00:00": NOON,
    "2026-11-01T12:00": NOON,
    "2026-11-01t12:00z": NOON,
    "2026-11-01T12:00:00,5": NOON + dt.timedelta(milliseconds=500),
    " 2026-11-01T12:00:00 ": NOON,
    "2026-11-01": dt.datetime(2026, 11, 1),
    "2026-11-01T23:30:00-01:00": dt.datetime(2026, 11, 2, 0, 30),
    # a warehouse's CSV export: BigQuery writes its TIMESTAMPs so, Snowflake and Postgres
    # an offset after a space
    "2026-11-01 12:00:00 UTC": NOON,
    "2026-11-01 12:00:00.250 UTC": NOON + dt.timedelta(milliseconds=250),
    "2026-11-01 07:00:00.000 -0500": NOON,
    "2026-11-01 12:00:00 UTC+02": None,
    "yesterday-ish": None,
    "2026-13-01": None,
    "2026-02-30": None,
    "2026-11-01T25:00:00": None,
    "": None,
    # a year of four digits, no sign: chrono's %Y took +12026 and -2026 (2027 BC)
    "+12026-11-01": None,
    "-2026-11-01": None,
    "12026-11-01T12:00:00": None,
    # epoch numbers in digits (a CSV of pandas' numbers): the unit told by the size
    "1793534400": NOON,
    "1793534400000": NOON,
    "1793534400.25": NOON + dt.timedelta(milliseconds=250),
    "1793534400000000000": NOON,
    "20261101": None,  # a date as a number is no epoch time (1970 in seconds)
}


def raw_cases(logged_at: list[str], **overrides: list) -> pl.DataFrame:
    """A raw batch with one case a `logged_at` text; keyword arguments replace columns."""
    n = len(logged_at)
    columns = {
        "case_id": [f"c{i}" for i in range(n)],
        "input": ["Where is order A17?"] * n,
        "actual_output": ["Order A17 shipped on 3 March."] * n,
        "retrieval_context": [CONTEXT] * n,
        "logged_at": logged_at,
    }
    return pl.DataFrame({**columns, **overrides})


def outcome(raw: pl.DataFrame) -> tuple[dict, set]:
    """What the contract made of a batch, independent of row order: valid times by case, and
    (case_id, check, value) of every quarantined failure."""
    checked = validate_cases(raw)
    valid = dict(checked.valid.select("case_id", "logged_at").iter_rows())
    bad = set(checked.quarantined.select("case_id", "check", "value").iter_rows())
    return valid, bad


def test_each_timestamp_is_parsed_by_its_own_format() -> None:
    texts = list(TIMESTAMPS)
    valid, bad = outcome(raw_cases(texts))
    for i, (text, expected) in enumerate(TIMESTAMPS.items()):
        if expected is None:
            assert (f"c{i}", "logged_at_unparseable", text) in bad, text
        else:
            assert valid.get(f"c{i}") == expected, text
    assert len(valid) + len(bad) == len(texts)


def test_a_naive_first_value_does_not_reject_the_offsets_after_it() -> None:
    """Issue 11: the format was inferred from the first value, so `...Z` and `+02:00` rows
    after a naive one were quarantined."""
    valid, bad = outcome(
        raw_cases(["2026-11-01T12:00:00", "2026-11-01T12:00:00Z", "2026-11-01T14:00:00+02:00"])
    )
    assert bad == set()
    assert set(valid.values()) == {NOON}


@settings(max_examples=25, deadline=None)
@given(st.permutations(list(TIMESTAMPS)))
def test_row_order_never_changes_the_result(texts: list[str]) -> None:
    ids = [f"id-{text!r}" for text in texts]  # a case keeps its id whatever its position
    expected_valid = {f"id-{t!r}": when for t, when in TIMESTAMPS.items() if when is not None}
    valid, bad = outcome(raw_cases(texts, case_id=ids))
    assert valid == expected_valid
    assert bad == {
        (f"id-{t!r}", "logged_at_unparseable", t) for t, when in TIMESTAMPS.items() if when is None
    }


BLANK_INPUT = """
import polars as pl
from schemas import validate_cases
raw = pl.DataFrame({
    "case_id": ["ok", "blank"], "input": ["Where?", "   "], "actual_output": ["A.", "B."],
    "retrieval_context": [["p"], ["p"]], "logged_at": ["2026-11-01", "2026-11-01"],
})
checked = validate_cases(raw)
print(sorted(checked.valid["case_id"]), sorted(checked.quarantined["check"]))
"""


@pytest.mark.parametrize(
    "environment",
    [
        {"PANDERA_VALIDATION_ENABLED": "False"},
        {"PANDERA_VALIDATION_DEPTH": "SCHEMA_ONLY"},
        {"PANDERA_USE_NARWHALS_BACKEND": "True"},
        {
            "PANDERA_VALIDATION_ENABLED": "0",
            "PANDERA_VALIDATION_DEPTH": "SCHEMA_ONLY",
            "PANDERA_CACHE_DATAFRAME": "True",
            "PANDERA_KEEP_CACHED_DATAFRAME": "True",
        },
    ],
    ids=["disabled", "schema-only", "narwhals", "all"],
)
def test_pandera_environment_cannot_switch_the_contract_off(environment: dict) -> None:
    done = run_python("-W", "error", "-c", BLANK_INPUT, env={**os.environ, **environment})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['ok'] ['input_not_blank']"


def test_pandera_config_set_in_process_cannot_switch_the_contract_off() -> None:
    raw = raw_cases(["2026-11-01", "2026-11-01"], input=["Where?", "  "])
    with pandera.config.config_context(validation_enabled=False, validation_depth="SCHEMA_ONLY"):
        _, bad = outcome(raw)
    assert bad == {("c1", "input_not_blank", "  ")}


def test_epoch_numbers_are_times_in_the_unit_their_size_tells() -> None:
    """pandas' to_json writes datetimes as epoch milliseconds by default: every row was
    quarantined as logged_at_wrong_type. Seconds (time.time()), ms, us and ns are read; a
    number no unit puts between 2000 and 2100 is still no time."""
    numbers = [1793534400, 1793534400000, 1793534400000000, 1793534400000000000, 20261101]
    valid, bad = outcome(raw_cases(["x"] * 5).with_columns(logged_at=pl.Series(numbers)))
    assert valid == {f"c{i}": NOON for i in range(4)}
    assert bad == {("c4", "logged_at_wrong_type", "20261101")}
    floats, _ = outcome(raw_cases(["x"]).with_columns(logged_at=pl.Series([1793534400.5])))
    assert floats == {"c0": NOON + dt.timedelta(milliseconds=500)}


def test_passages_typed_as_nulls_are_read_as_the_empty_or_null_passages_they_are() -> None:
    """A file whose every retrieval_context is `[]` or `[null]` (the retriever down all day;
    polars writes such a column list[null], DuckDB reads such JSON as NULL[]) had each row
    quarantined as retrieval_context_not_a_list_of_strings, though beside one passage of text
    the same `[]` is an invalid case (docs/input.md) and `[null]` a null passage."""
    passages = pl.Series([[], [None]], dtype=pl.List(pl.Null))
    checked = validate_cases(raw_cases(["2026-11-01"] * 2, retrieval_context=passages))
    assert checked.valid["case_id"].to_list() == ["c0"]  # scored next: invalid, EmptyContext
    assert checked.quarantined.select("case_id", "check").rows() == [
        ("c1", "no_null_or_blank_passages")
    ]
