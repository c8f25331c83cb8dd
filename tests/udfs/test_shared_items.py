"""Which items of a run cut into partitions more than one partition asks, and the rows that
ask them alone, first: what a Dask run asks before its partitions start."""

from __future__ import annotations

import polars as pl

from faith_udfs.shared_items import first_askers, item_keys, shared_item_cases

REFUND = "Refunds are issued within 14 days."
SHIPPING = "Orders ship within 2 days."
ORDER_1 = "Order 1 shipped on May 2."
ORDER_2 = "Order 2 shipped on May 3."


def partitions() -> dict[int, pl.DataFrame]:
    """Two partitions: the policy passages, and one answer, appear in both."""
    return {
        0: pl.DataFrame(
            {
                "case_id": ["a", "b"],
                "actual_output": ["It shipped.", "You get a refund."],
                "retrieval_context": [[ORDER_1], [SHIPPING, REFUND]],
            }
        ),
        1: pl.DataFrame(
            {
                "case_id": ["c", "d"],
                "actual_output": ["It shipped.", "Refunds take 14 days."],
                "retrieval_context": [[ORDER_2], [SHIPPING, REFUND]],
            }
        ),
    }


def test_each_item_two_partitions_ask_is_asked_alone_for_the_first_row_asking_it() -> None:
    parts = partitions()
    asked = pl.concat(
        [item_keys(cases).with_columns(partition=pl.lit(n)) for n, cases in parts.items()]
    )
    firsts = first_askers(asked)
    rows = pl.concat(
        [
            cases.with_row_index("case_row").with_columns(partition=pl.lit(n))
            for n, cases in parts.items()
        ]
    )

    shared = shared_item_cases(rows, firsts)

    assert shared.select("actual_output", "retrieval_context", "partition", "asker").rows() == [
        (None, [SHIPPING], 0, "b"),  # a passage alone, asked for the first case retrieving it
        (None, [REFUND], 0, "b"),
        ("It shipped.", [], 0, "a"),  # an answer alone: its claims, no verdict
    ]
    # one row a shared item, each its own case_id; nothing either partition asks alone
    assert shared["case_id"].to_list() == ["0", "1", "2"]


def test_the_same_answer_on_the_same_context_in_two_partitions_is_one_question() -> None:
    same = pl.DataFrame(
        {"case_id": ["x"], "actual_output": ["Yes."], "retrieval_context": [[REFUND]]}
    )
    asked = pl.concat([item_keys(same).with_columns(partition=pl.lit(n)) for n in (0, 1)])

    firsts = first_askers(asked)

    assert sorted(firsts["kind"].to_list()) == ["answer", "passage", "question"]
    assert firsts.select("partition", "case_row").unique().rows() == [(0, 0)]
