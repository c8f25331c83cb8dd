"""score_frame on Arrow tables as pyarrow 16+ and polars write them: view types
(`string_view`, `list_view`), large lists, and columns the metric never reads."""

from __future__ import annotations

import polars as pl
import pyarrow as pa
import pytest

from faith_udfs import score_frame

ANSWERS = ["Refunds are paid within 30 days.", "We ship to Mars.", "Refunds are paid in 90 days."]
PASSAGES = [
    ["Refunds are paid within 30 days."],
    None,
    ["A receipt is required.", "Refunds are paid within 30 days."],
]
EXPECTED = score_frame(
    pl.DataFrame({"actual_output": ANSWERS, "retrieval_context": PASSAGES})
).select("score", "status", "n_claims")


def list_view_out_of_order(item: pa.DataType) -> pa.Array:
    """PASSAGES as a list_view whose views point into its values out of order, as a
    list_view may (pyarrow builds them in order)."""
    values = pa.array(["A receipt is required.", "Refunds are paid within 30 days.", "spare"], item)
    offsets, sizes = pa.array([1, 0, 0], pa.int32()), pa.array([1, 0, 2], pa.int32())
    mask = pa.array([False, True, False])
    return pa.ListViewArray.from_arrays(offsets, sizes, values, mask=mask)


@pytest.mark.parametrize(
    ("answer_type", "passages"),
    [
        (pa.string_view(), pa.array(PASSAGES, pa.list_(pa.string_view()))),
        (pa.large_string(), pa.array(PASSAGES, pa.large_list(pa.large_string()))),
        (pa.string(), pa.array(PASSAGES, pa.list_view(pa.string()))),
        (pa.string(), pa.array(PASSAGES, pa.large_list_view(pa.string_view()))),
        (pa.string_view(), list_view_out_of_order(pa.string_view())),
    ],
    ids=["string_view", "large", "list_view", "large_list_view", "list_view_out_of_order"],
)
def test_arrow_view_and_large_types_score_as_plain_ones_and_come_back_as_given(
    answer_type: pa.DataType, passages: pa.Array
) -> None:
    """A list_view was polars' `ComputeError: The datatype "+vl" is still not supported in
    Rust implementation`; the caller's columns came back retyped (string_view as
    large_string), so the scored table no longer matched the schema it was read with."""
    table = pa.table(
        {"actual_output": pa.array(ANSWERS, answer_type), "retrieval_context": passages}
    )
    scored = score_frame(table)
    assert isinstance(scored, pa.Table)
    assert pl.from_arrow(scored.select(["score", "status", "n_claims"])).equals(EXPECTED)
    assert scored.schema.field("actual_output").type == answer_type
    assert scored.schema.field("retrieval_context").type == passages.type
    assert scored.column("actual_output").equals(table.column("actual_output"))


def test_a_column_the_metric_never_reads_comes_back_untouched_whatever_its_type() -> None:
    """An interval column (a session length) made the whole table unreadable to polars:
    `ComputeError: could not import from month_day_nano_interval type`."""
    table = pa.table(
        {
            "actual_output": ANSWERS,
            "retrieval_context": PASSAGES,
            "session": pa.array([(0, 0, 5), (0, 1, 0), None], pa.month_day_nano_interval()),
        }
    )
    scored = score_frame(table)
    assert scored.column("session").equals(table.column("session"))
    assert pl.from_arrow(scored.select(["score", "status", "n_claims"])).equals(EXPECTED)


def test_a_read_column_polars_cannot_hold_is_one_line_naming_it() -> None:
    table = pa.table(
        {
            "actual_output": pa.array([(0, 0, 5)] * 3, pa.month_day_nano_interval()),
            "retrieval_context": PASSAGES,
        }
    )
    with pytest.raises(TypeError) as refused:
        score_frame(table)
    assert "\n" not in str(refused.value)
    assert str(refused.value).startswith(
        "column 'actual_output' is Arrow month_day_nano_interval, which cannot be read"
    )
