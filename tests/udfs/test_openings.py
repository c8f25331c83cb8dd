"""grounded-v6 (the default) reads a chat bot's openings as v5 meant to: every one of them
("Yes, of course, ..."), before an attribution phrase too, after an ellipsis or a full-width
mark, but never a name's first word ("Oh Sehun ...") or a quote; and a claim that is a
sentence of its context but for its first letter's case (what cutting "Yes, " leaves of a
copied sentence) is a copy of it: `yes`, support 1, that sentence as evidence."""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faith_udfs import FaithfulnessMetric, GroundedJudge, LLMTestCase, MetricConfig, score_cases
from faith_udfs.grounded import GroundedV5Judge
from faith_udfs.grounded_words import without_opening, without_openings
from faith_udfs.judges import Judge
from faith_udfs.one_case import one_case_result

SHIPPED = "Order A17 shipped on 3 March by courier."
A17 = [SHIPPED, "Refunds are paid within 30 days."]
PLAIN = "It shipped on 3 March."


def judged(answer: str, judge: Judge, context: list[str] = A17) -> list[tuple]:
    """(claim, verdict, support, evidence) of each claim, by the one-case path (measure())."""
    metric = FaithfulnessMetric(model=judge)
    metric.measure(LLMTestCase(input="q", actual_output=answer, retrieval_context=context))
    return [(v.claim, v.verdict, round(v.support or 0.0, 6), v.evidence) for v in metric.verdicts]


def batch_judged(answers: list[str], judge: Judge, context: list[str] = A17) -> list[tuple]:
    """The same through `faith score`'s batch path, one answer a case."""
    cases = pl.DataFrame(
        {
            "case_id": [f"c{i:03d}" for i in range(len(answers))],
            "actual_output": answers,
            "retrieval_context": [context] * len(answers),
        }
    )
    verdicts = score_cases(cases, judge, MetricConfig()).claim_verdicts.sort(
        "case_id", "claim_index"
    )
    return [
        (claim, verdict, round(support, 6), evidence)
        for claim, verdict, support, evidence in verdicts.select(
            "claim", "verdict", "support", "evidence"
        ).rows()
    ]


@pytest.mark.parametrize(
    "opening",
    [
        "Yes, of course, ",
        "Okay, sure, ",
        "Sure, according to the passages, ",
        "Of course, based on the context, ",
        "Yes… ",
        "Sure！ ",
        "Of\u00a0course, ",
        "Um, hmm, ok, yes, ",
    ],
)
def test_every_opening_is_cut_where_v5_left_one(opening: str) -> None:
    plain = judged(PLAIN, GroundedJudge())
    said = PLAIN[0].lower() + PLAIN[1:]
    assert judged(opening + said, GroundedJudge()) == [(said, *plain[0][1:])]
    assert batch_judged([opening + said], GroundedJudge()) == [(said, *plain[0][1:])]
    ((claim, _, support, _),) = judged(opening + said, GroundedV5Judge())
    assert claim != said  # v5 kept an opening ...
    assert support < plain[0][2]  # ... and doubted the claim


@pytest.mark.parametrize(
    ("answer", "context"),
    [
        ("Oh Sehun was born in 1994.", ["Kim Sehun was born in 1994."]),  # a name
        ("OK has no state income tax.", ["Texas has no state income tax."]),  # a state
        ("UM won the title in 2019.", ["UCLA won the title in 2019."]),
        ("(Yes, it shipped on 3 March.)", A17),  # a quote, not an opening
        ('"Yes," said the clerk, "order A17 shipped on 3 March."', A17),
    ],
)
def test_a_names_first_word_or_a_quote_is_no_opening(answer: str, context: list[str]) -> None:
    for got in (
        judged(answer, GroundedJudge(), context),
        batch_judged([answer], GroundedJudge(), context),
    ):
        assert [claim for claim, *_ in got] == [answer]
    if "Sehun" in answer:  # v5 cut "Oh" and passed another person's birth year
        assert judged(answer, GroundedV5Judge(), context)[0][:2] == (
            "Sehun was born in 1994.",
            "yes",
        )
        assert judged(answer, GroundedJudge(), context)[0][1] != "yes"


@pytest.mark.parametrize(
    "answer",
    [
        "Yes, order A17 shipped on 3 March by courier.",
        "Sure! Order A17 shipped on 3 March by courier.",
        "order A17 shipped on 3 March by courier.",  # a bot that writes in lower case
    ],
)
def test_a_copied_sentence_is_a_copy_whatever_its_first_letters_case(answer: str) -> None:
    claim = "order A17 shipped on 3 March by courier."
    if answer.startswith("Sure"):
        claim = SHIPPED
    want = [(claim, "yes", 1.0, SHIPPED)]  # the context's sentence as written is the evidence
    assert judged(answer, GroundedJudge()) == want
    assert batch_judged([answer], GroundedJudge()) == want
    if claim != SHIPPED:  # v5 weighed its words
        assert judged(answer, GroundedV5Judge())[0][2] < 1.0


def test_the_copy_of_one_claim_leaves_the_others_judged_on_their_words() -> None:
    answer = "Yes, order A17 shipped on 3 March by courier. It arrives tomorrow."
    got = batch_judged([answer], GroundedJudge())
    assert got[0] == ("order A17 shipped on 3 March by courier.", "yes", 1.0, SHIPPED)
    assert got[1][:2] == ("It arrives tomorrow.", "idk")
    assert judged(answer, GroundedJudge()) == got


# Plain ASCII, so that the one-case path takes every case (it leaves other text to the batch).
OPENINGS = [
    *("", "Yes, ", "yes ", "Oh ", "OK ", "Sure - ", "Yes, of course, ", "Wow! ", "(Yes, "),
    *("Sure, according to the passages, ", "1) Yes, ", "Yes. ", "ok ok ok ok ok ", "No, "),
]
BODIES = [
    "order A17 shipped on 3 March by courier.",
    SHIPPED,
    "Sehun was born in 1994.",
    "refunds are paid within 30 days [1].",
    "Refunds are paid within 30 days (Passage 2).",
    "it did not ship.",
    "i love that show",
]
CONTEXTS = [*A17, "Kim Sehun was born in 1994.", "refunds are paid within 30 days."]


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.lists(
                st.tuples(st.sampled_from(OPENINGS), st.sampled_from(BODIES)),
                min_size=1,
                max_size=3,
            ),
            st.lists(st.sampled_from(CONTEXTS), min_size=1, max_size=3, unique=True),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_the_one_case_path_and_the_batch_path_agree(
    rows: list[tuple[list[tuple[str, str]], list[str]]],
) -> None:
    answers = [" ".join(o + b for o, b in pieces) for pieces, _ in rows]
    cases = pl.DataFrame(
        {
            "case_id": [f"c{i}" for i in range(len(rows))],
            "actual_output": answers,
            "retrieval_context": [context for _, context in rows],
        }
    )
    for judge in (GroundedJudge(), GroundedV5Judge()):
        frames = score_cases(cases, judge, MetricConfig())
        verdicts = frames.claim_verdicts.sort("case_id", "claim_index")
        scores = dict(frames.case_scores.select("case_id", "score").rows())
        for i, (answer, (_, context)) in enumerate(zip(answers, rows, strict=True)):
            one = one_case_result(judge, MetricConfig(), f"c{i}", answer, context)
            assert one is not None  # plain ASCII: the one-case path takes it
            batch = verdicts.filter(pl.col("case_id") == f"c{i}")
            assert [
                (v.claim, v.verdict, v.support, v.evidence, v.context_lacks) for v in one.verdicts
            ] == batch.select("claim", "verdict", "support", "evidence", "context_lacks").rows()
            assert one.score == scores[f"c{i}"]


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.none(),
            st.lists(st.builds(str.__add__, st.sampled_from(OPENINGS), st.sampled_from(BODIES))),
        ),
        max_size=8,
    )
)
def test_the_flat_cut_of_lists_equals_the_cut_of_each_sentence(
    answers: list[list[str] | None],
) -> None:
    """without_openings (the batch path's plain claims: each sentence cut once) gives what
    without_opening gives each sentence, empty and null lists kept as they are."""
    sentences = pl.Series("claims", answers, dtype=pl.List(pl.String))
    expected = sentences.to_frame().select(
        pl.col("claims").list.eval(without_opening(pl.element()))
    )
    assert without_openings(sentences).to_list() == expected.to_series().to_list()
