"""grounded-v4 reads answers as RAG bots write them: citation markers and attribution phrases
say where a claim comes from, not what it claims, so a bot that cites its passages scores as
one that does not (v3 judged "[1]" a figure no passage holds)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faith_udfs import FaithfulnessMetric, GroundedJudge, LLMTestCase, MetricConfig, score_cases
from faith_udfs.citations import CONTEXT_NOUNS, CUE_PATTERN, without_citations
from faith_udfs.grounded import GroundedV3Judge, GroundedV10Judge
from faith_udfs.grounded_claims import cited_claims
from faith_udfs.grounded_words import states_something
from faith_udfs.service_phrases import serves
from tests.udfs.test_one_case import FRAGMENTS

ROOT = Path(__file__).resolve().parents[2]
# Answers from the fragments every rule reads, citations and list markers among them, and
# near misses of the cue ("Order", "shipped", "3 March", "(", ...).
TEXTS = st.lists(
    st.tuples(
        st.lists(st.sampled_from(FRAGMENTS), max_size=7).map(" ".join),
        st.sampled_from([".", "!", "?", "", ".\n", ". "]),
    ),
    max_size=4,
).map(lambda parts: " ".join(s + end for s, end in parts))

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


@settings(max_examples=60, deadline=None)
@given(answers=st.lists(TEXTS, min_size=1, max_size=8))
def test_only_answers_the_cue_finds_can_change_so_the_rest_skip_the_patterns(
    answers: list[str],
) -> None:
    frame = pl.DataFrame({"key": range(len(answers)), "text": answers})
    assert GroundedV10Judge().claims(frame).equals(cited_claims(frame, cuts_greetings=False))
    # v11 drops the claims that state nothing (no letter or digit, an announcement) from both,
    # v12 the offers of help; v13 cuts greetings in both
    stated = states_something(pl.element()) & ~serves(pl.element())
    cited = cited_claims(frame).with_columns(pl.col("claims").list.filter(stated))
    assert GroundedJudge().claims(frame).equals(cited)


def test_the_sample_month_is_read_alike_with_and_without_the_cue() -> None:
    sample = pl.read_parquet(ROOT / "data" / "sample" / "cases.parquet")
    frame = sample.select(key=pl.int_range(pl.len()), text="actual_output")
    # the claims() path filters both alike afterwards (v11: stating nothing, v12: serving)
    stated = states_something(pl.element()) & ~serves(pl.element())
    cited = cited_claims(frame).with_columns(pl.col("claims").list.filter(stated))
    assert GroundedJudge().claims(frame).equals(cited)


def _every_cited_form() -> list[str]:
    """One sentence per way a pattern here or in answer_layout.py can change a sentence."""
    noun_forms = [
        form.format(noun=noun)
        for noun in CONTEXT_NOUNS
        for form in (
            "According to the {noun}, refunds take 5 days.",
            "In the {noun}, refunds take 5 days.",
            "Refunds take 5 days, as stated in the {noun}.",
            "Refunds, per the {noun}, take 5 days.",
            "The {noun} says that refunds take 5 days.",
            "It is stated in the {noun} that refunds take 5 days.",
            "Refunds take 5 days (see the {noun}).",
        )
    ]
    markers = [
        "Refunds take 5 days [1].",
        "Refunds take 5 days 【1†source】.",
        "Refunds take 5 days (Passage 1).",
        *(f"{m} Refunds take 5 days." for m in ("1.", "2)", "(3)", "b)", "iv)", "-", "*", "•")),
        *(f"{m} Refunds take 5 days." for m in ("+", "##", "Step 2:", "**Refunds:**")),
    ]
    return noun_forms + markers


def test_every_citation_and_marker_is_cut_and_found_by_the_cue() -> None:
    forms = _every_cited_form()
    frame = pl.DataFrame({"key": range(len(forms)), "text": forms})
    cut = cited_claims(frame)["claims"].to_list()
    as_written = GroundedV3Judge().claims(frame)["claims"].to_list()
    changed = [form for form, a, b in zip(forms, cut, as_written, strict=True) if a != b]
    assert changed == forms
    assert frame["text"].str.contains(CUE_PATTERN).all()
