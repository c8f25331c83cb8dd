"""Content hashes are made once per distinct content of a batch, and are each case's own."""

from __future__ import annotations

import duckdb
import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from flows.store.content_hash import _content_groups, content_hashes


def _cases(contents: list[tuple[str | None, str | None, list[str | None] | None]]) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "case_id": [f"c{i:04d}" for i in range(len(contents))],
            "input": [c[0] for c in contents],
            "actual_output": [c[1] for c in contents],
            "retrieval_context": [c[2] for c in contents],
        },
        schema={
            "case_id": pl.String,
            "input": pl.String,
            "actual_output": pl.String,
            "retrieval_context": pl.List(pl.String),
        },
    )


def _one_by_one(cases: pl.DataFrame) -> list[str]:
    """Each case hashed alone: what a batch of nothing but distinct contents gets."""
    with duckdb.connect() as con:
        return [
            content_hashes(cases.slice(i, 1), con)["content_hash"][0] for i in range(len(cases))
        ]


# Contents that differ only in where a null or an empty string sits, or in list order.
FAQ = [
    ("Where is my order?", "It shipped on 3 March.", ["Order A17 shipped on 3 March."]),
    ("Where is my order?", "It shipped on 3 March.", ["Order A17 shipped on 3 March.", ""]),
    ("Where is my order?", "It shipped on 3 March.", ["", "Order A17 shipped on 3 March."]),
    ("Where is my order?", "It shipped on 3 March.", [None]),
    ("Where is my order?", "It shipped on 3 March.", []),
    ("Where is my order?", "It shipped on 3 March.", None),
    (None, "It shipped on 3 March.", ["Order A17 shipped on 3 March."]),
    ("", "It shipped on 3 March.", ["Order A17 shipped on 3 March."]),
]


def test_an_faq_bots_copies_are_hashed_once_and_each_case_gets_its_own_contents_hash() -> None:
    cases = _cases([FAQ[i % len(FAQ)] for i in range(400)])
    groups = _content_groups(cases)
    assert groups is not None  # 8 contents in 400 rows: grouped
    firsts, group_of_row = groups
    assert firsts.to_list() == list(range(len(FAQ)))
    assert group_of_row.to_list() == [i % len(FAQ) for i in range(400)]
    hashed = content_hashes(cases)
    assert hashed["case_id"].to_list() == cases["case_id"].to_list()
    assert hashed["content_hash"].n_unique() == len(FAQ)
    assert hashed["content_hash"].to_list() == _one_by_one(cases)


def test_a_batch_of_distinct_contents_is_hashed_row_by_row_without_grouping() -> None:
    cases = _cases([("q", f"answer {i}", ["p"]) for i in range(300)])
    assert _content_groups(cases) is None
    assert content_hashes(cases)["content_hash"].n_unique() == 300


_CONTENT = st.tuples(
    st.sampled_from([None, "", "q", "Q"]),
    st.sampled_from([None, "", "a", "a."]),
    st.one_of(st.none(), st.lists(st.sampled_from([None, "", "p", "P"]), max_size=3)),
)


@settings(max_examples=25, deadline=None)
@given(
    st.lists(_CONTENT, min_size=1, max_size=6).flatmap(
        lambda pool: st.lists(st.sampled_from(pool), min_size=1, max_size=80)
    )
)
def test_grouped_or_not_every_case_gets_the_hash_of_its_own_content(
    contents: list[tuple[str | None, str | None, list[str | None] | None]],
) -> None:
    cases = _cases(contents)
    assert content_hashes(cases)["content_hash"].to_list() == _one_by_one(cases)
