"""Answers that copy their context (issue 26): a question each claim of which is a sentence of
its own context skips the grounded judge's features, and gets the verdicts they would give."""

from __future__ import annotations

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from faith_udfs import Cutoffs, GroundedJudge, LLMTestCase, MetricConfig, score_cases
from faith_udfs.grounded import (
    GroundedV2Judge,
    GroundedV3Judge,
    GroundedV4Judge,
    GroundedV5Judge,
)
from faith_udfs.grounded_features import question_copies

SHIPPED = "Order A17 shipped on 3 March by courier."
REFUNDS = "Refunds are paid within 5 working days."
STORE = "The Amsterdam store opens at 9:00."
JUDGES = (
    GroundedJudge(),
    GroundedV5Judge(),
    GroundedV4Judge(),
    GroundedV3Judge(),
    GroundedV2Judge(),
    GroundedJudge(Cutoffs(supported=1.0, silent=0.2)),
)


def questions(rows: list[tuple[list[str | None], list[str]]]) -> pl.DataFrame:
    """A judge's questions frame: `key`, `claims`, `truths`."""
    return pl.DataFrame(
        {
            "key": list(range(1, len(rows) + 1)),
            "claims": [claims for claims, _ in rows],
            "truths": [truths for _, truths in rows],
        },
        schema={"key": pl.UInt64, "claims": pl.List(pl.String), "truths": pl.List(pl.String)},
    )


def test_only_questions_whose_every_claim_is_a_sentence_of_their_own_context_are_copied() -> None:
    asked = questions(
        [
            ([SHIPPED], [SHIPPED]),  # copied
            ([SHIPPED, REFUNDS], [REFUNDS, SHIPPED, STORE]),  # copied, in another order
            ([SHIPPED, "It arrives tomorrow."], [SHIPPED]),  # one claim is not
            ([STORE], [SHIPPED]),  # another question's sentence, not this one's
            ([], [SHIPPED]),  # no claim
            ([SHIPPED, None], [SHIPPED]),  # a null claim
            (["order a17 shipped on 3 march by courier."], [SHIPPED]),  # not word for word
            (["order A17 shipped on 3 March by courier."], [SHIPPED]),  # but for its first letter
        ]
    )
    copied = question_copies(asked)["copied"].to_list()
    assert copied == [True, True, False, False, False, False, False, False]
    # from v6, a sentence of the context but for its first letter's case is one too, and the
    # context's sentence as written is what it copies
    folded = question_copies(asked, folds_case=True)
    assert folded["copied"].to_list() == [True, True, False, False, False, False, False, True]
    assert folded["copies"].to_list()[5:] == [[SHIPPED, None], [None], [SHIPPED]]
    for judge in JUDGES:
        assert_frame_equal(judge.verdicts(asked), judge._judged(asked))


def test_a_copied_answer_is_yes_with_itself_as_evidence_and_nothing_lacking() -> None:
    case = pl.DataFrame(
        {
            "case_id": ["c1"],
            "actual_output": [f"{SHIPPED} {REFUNDS}"],
            "retrieval_context": [[f"{REFUNDS} {STORE}", SHIPPED]],
        }
    )
    verdicts = score_cases(case, GroundedJudge(), MetricConfig()).claim_verdicts
    assert verdicts.select("claim", "verdict", "support", "evidence", "context_lacks").rows() == [
        (SHIPPED, "yes", 1.0, SHIPPED, None),
        (REFUNDS, "yes", 1.0, REFUNDS, None),
    ]


SENTENCES = [SHIPPED, REFUNDS, STORE, "It arrives tomorrow.", "Refunds are not paid.", "Thanks!"]
# what cutting "Yes, " leaves of a copied sentence, and a context that writes in lower case
SENTENCES += ["order A17 shipped on 3 March by courier.", "refunds are paid within 5 working days."]


@settings(max_examples=20, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.lists(st.sampled_from([*SENTENCES, None]), max_size=3),
            st.lists(st.sampled_from(SENTENCES), max_size=3),
        ),
        min_size=1,
        max_size=8,
    )
)
def test_skipping_the_features_of_copied_questions_changes_no_verdict(
    rows: list[tuple[list[str | None], list[str]]],
) -> None:
    asked = questions(rows)
    for judge in (*JUDGES[:2], JUDGES[-1]):  # v4, v3 and v2 take v5's path; a calibration's
        assert_frame_equal(judge.verdicts(asked), judge._judged(asked))


def test_the_single_case_api_agrees_on_a_copied_answer() -> None:
    from faith_udfs import FaithfulnessMetric

    metric = FaithfulnessMetric()
    metric.measure(LLMTestCase(input="q", actual_output=SHIPPED, retrieval_context=[SHIPPED]))
    assert (metric.score, [v.verdict for v in metric.verdicts]) == (1.0, ["yes"])
