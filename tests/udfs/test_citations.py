"""grounded-v4 reads answers as RAG bots write them: citation markers and attribution phrases
say where a claim comes from, not what it claims, so a bot that cites its passages scores as
one that does not (v3 judged "[1]" a figure no passage holds)."""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faith_udfs import FaithfulnessMetric, GroundedJudge, LLMTestCase, MetricConfig, score_cases
from faith_udfs.citations import without_citations
from faith_udfs.grounded import GroundedV3Judge

TOWER = [
    "The Eiffel Tower is 330 metres tall and was completed in 1889 for the World Fair in Paris.",
    "It is made of wrought iron.",
]
PLAIN = "The Eiffel Tower is 330 metres tall. It is made of wrought iron."
CITED = [
    "The Eiffel Tower is 330 metres tall [1]. It is made of wrought iron [2].",
    "The Eiffel Tower is 330 metres tall. [1] It is made of wrought iron. [2]",
    "The Eiffel Tower is 330 metres tall [1, 2]. It is made of wrought iron [^2].",
    "The Eiffel Tower is 330 metres tall (Passage 1). It is made of wrought iron (source: doc 2).",
    "Based on the provided passages, the Eiffel Tower is 330 metres tall. "
    "According to passage 2, it is made of wrought iron.",
    "The Eiffel Tower is 330 metres tall, according to the context. "
    "Passage 2 says it is made of wrought iron.",
    "The passage states that the Eiffel Tower is 330 metres tall. "
    "It is stated in the documents provided that it is made of wrought iron.",
    "The Eiffel Tower, according to the retrieved documents, is 330 metres tall. "
    "It is made of wrought iron [Doc 2].",
]


def verdicts(answer: str, judge: GroundedJudge | None = None) -> tuple[float | None, list[str]]:
    metric = FaithfulnessMetric(model=judge or GroundedJudge())
    score = metric.measure(LLMTestCase(input="q", actual_output=answer, retrieval_context=TOWER))
    return score, [v.verdict for v in metric.verdicts]


@pytest.mark.parametrize("answer", CITED)
def test_a_cited_answer_scores_as_the_same_answer_uncited(answer: str) -> None:
    assert verdicts(answer) == verdicts(PLAIN) == (1.0, ["yes", "yes"])


def test_v3_read_citations_as_words_and_keeps_doing_so() -> None:
    score, _ = verdicts(CITED[0], GroundedV3Judge())
    assert score == 0.0  # "[1]" and "[2]": figures found nowhere in the context


def test_the_stored_claim_is_the_sentence_without_its_citations() -> None:
    cases = pl.DataFrame(
        {"case_id": ["c"], "actual_output": [CITED[4]], "retrieval_context": [TOWER]}
    )
    stored = score_cases(cases, GroundedJudge(), MetricConfig()).claim_verdicts
    assert stored["claim"].to_list() == [
        "the Eiffel Tower is 330 metres tall.",
        "it is made of wrought iron.",
    ]
    assert stored["evidence"].to_list() == TOWER


def test_a_sentence_that_is_only_a_citation_is_not_a_claim() -> None:
    score, said = verdicts("The Eiffel Tower is 330 metres tall. [1].")
    assert (score, said) == (1.0, ["yes"])


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        # a named source is part of the claim: "Organization" is a name the context lacks
        ("According to the World Health Organization, the tower is 330 metres tall.", "no"),
        # "in the context of" is not a citation
        ("In the context of the World Fair, the tower was completed in 1848.", "no"),
        # a citation does not make a wrong figure right
        ("The Eiffel Tower is 300 metres tall [1].", "no"),
    ],
)
def test_what_is_not_a_citation_is_still_judged(answer: str, verdict: str) -> None:
    assert verdicts(answer)[1] == [verdict]


MARKERS = st.sampled_from(
    [
        " [1]",
        " [2, 3]",
        " (Passage 1)",
        ", according to the passages",
        " [citation needed]",
    ]
)
LEADS = st.sampled_from(["", "Based on the given context, ", "The passage says that "])


@settings(max_examples=60, deadline=None)
@given(lead=LEADS, marker=MARKERS, which=st.integers(0, 1))
def test_citing_any_sentence_leaves_every_verdict_as_it_was(
    lead: str, marker: str, which: int
) -> None:
    sentences = ["The Eiffel Tower is 300 metres tall.", "It is made of wrought iron."]
    cited = list(sentences)
    cited[which] = lead + cited[which][:-1] + marker + "."
    assert verdicts(" ".join(cited)) == verdicts(" ".join(sentences))


def test_without_citations_keeps_the_rest_of_the_sentence() -> None:
    got = pl.select(
        without_citations(
            pl.lit(
                pl.Series(
                    [
                        "Refunds take 5 days [3].",
                        "Refunds take 5 days, as stated in the provided documents.",
                        "Refunds (see passage 2) take 5 days.",
                        "From the passages, refunds take 5 days.",
                        "Refunds take 5 days from the documents.",
                    ]
                )
            )
        )
    ).to_series()
    assert got.to_list() == [
        "Refunds take 5 days.",
        "Refunds take 5 days.",
        "Refunds take 5 days.",
        "refunds take 5 days.",
        # only before its closing comma is "from the ..." a citation
        "Refunds take 5 days from the documents.",
    ]
