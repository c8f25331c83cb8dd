"""Properties: the faster twins of the grounded judge's text rewrites and answer shares
(2026-12-06) give what the plain expressions give, on any text: a figure, a sign, "GBP" in any
case, decimals ("4.95"), thousands ("1,000,000"), spaced numbers ("235, 000"), other scripts'
digits and nulls. The judge's verdicts hang on them byte for byte."""

from __future__ import annotations

import numpy as np
import polars as pl
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from faith_udfs.row_sums import answer_share
from faith_udfs.word_rules import (
    joined_numbers,
    joined_numbers_of,
    number_forms,
    number_forms_of,
)

PIECES = st.sampled_from(
    [
        "4.95", "£5", "$5", "5%", "€20", "1,000,000", "1,000", "235, 000", "1, 000, 000",
        "GBP", "gbp", "gBp", "GBPs", "pound", "x", "Refunds", "٣.٥", "١,٠٠٠", "²", "½",
        "ſ", "K", " ", ". ", ",", "\n", "\u00a0", "point",
    ]
)  # fmt: skip
TEXTS = st.lists(
    st.one_of(
        st.none(),
        st.lists(st.one_of(PIECES, st.text(max_size=3)), max_size=12).map("".join),
    ),
    max_size=12,
)
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _plain(texts: list[str | None], rewrite: object) -> list[str | None]:
    frame = pl.DataFrame({"text": pl.Series(texts, dtype=pl.String)})
    return frame.select(rewrite(pl.col("text"))).to_series().to_list()  # type: ignore[operator]


@SETTINGS
@given(texts=TEXTS)
def test_number_forms_of_is_number_forms_of_every_text(texts: list[str | None]) -> None:
    given_ = pl.Series(texts, dtype=pl.String)
    assert number_forms_of(given_).to_list() == _plain(texts, number_forms)
    assert given_.to_list() == texts  # its argument as it was


@SETTINGS
@given(texts=TEXTS)
def test_joined_numbers_of_is_joined_numbers_but_for_its_trailing_space(
    texts: list[str | None],
) -> None:
    given_ = pl.Series(texts, dtype=pl.String)
    plain = _plain(texts, joined_numbers)
    faster = joined_numbers_of(given_).to_list()
    for text, old, new in zip(texts, plain, faster, strict=True):
        assert new == (old if old is None or old != f"{text} " else text)
    assert given_.to_list() == texts


@SETTINGS
@given(
    rows=st.lists(
        st.tuples(
            st.integers(0, 5),
            st.one_of(st.none(), st.integers(0, 2**40)),
            st.one_of(st.none(), st.integers(0, 2**40)),
        ),
        max_size=20,
    )
)
def test_answer_share_is_the_window_sum_share(
    rows: list[tuple[int, int | None, int | None]],
) -> None:
    frame = pl.DataFrame(
        rows, schema={"question_row": pl.UInt32, "part": pl.Int64, "whole": pl.Int64}, orient="row"
    )
    window = (pl.col("part").sum() / pl.col("whole").sum()).over("question_row")
    expected = frame.select(window.fill_null(1.0).fill_nan(1.0)).to_series()
    got = answer_share(frame, "part", "whole", 6)
    assert np.array_equal(got.to_numpy(), expected.to_numpy())
