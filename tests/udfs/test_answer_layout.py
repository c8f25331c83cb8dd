"""grounded-v4 judges a sentence without its list marker, heading mark or bold label: "1)" is
no figure the context lacks, and "1." cut off by the sentence splitter is no claim."""

from __future__ import annotations

import pytest

from faith_udfs import FaithfulnessMetric, LLMTestCase
from faith_udfs.grounded import GroundedV3Judge

TOWER = [
    "The Eiffel Tower is 330 metres tall and was completed in 1889 for the World Fair in Paris.",
    "It is made of wrought iron.",
]


def judged(answer: str, v3: bool = False) -> tuple[float | None, list[tuple[str, str]]]:
    metric = FaithfulnessMetric(model=GroundedV3Judge() if v3 else None)
    score = metric.measure(LLMTestCase(input="q", actual_output=answer, retrieval_context=TOWER))
    return score, [(v.claim, v.verdict) for v in metric.verdicts]


TALL = "The Eiffel Tower is 330 metres tall."
IRON = "It is made of wrought iron."


@pytest.mark.parametrize(
    "answer",
    [
        f"1. {TALL} 2. {IRON}",
        f"1) {TALL} 2) {IRON}",
        f"(1) {TALL}\n(2) {IRON}",
        f"- {TALL}\n- {IRON}",
        f"* {TALL}\n• {IRON}",
        f"a) {TALL} b) {IRON}",
        f"Step 1: {TALL} Step 2: {IRON}",
        f"**Height:** {TALL} **Material**: {IRON}",
        f"## {TALL} {IRON}",
    ],
)
def test_a_listed_answer_is_judged_as_its_items(answer: str) -> None:
    assert judged(answer) == (1.0, [(TALL, "yes"), (IRON, "yes")])


def test_v3_read_list_numbers_as_figures_and_keeps_doing_so() -> None:
    score, said = judged(f"1) {TALL} 2) {IRON}", v3=True)
    assert (score, [v for _, v in said]) == (0.0, ["no", "no"])


@pytest.mark.parametrize(
    ("answer", "claims"),
    [
        # a last bare number may be the answer itself
        ("How many metres? 330.", ["How many metres?", "330."]),
        # "A." may be an initial: only "a)" letters are list markers
        ("A. Eiffel built it.", ["A.", "Eiffel built it."]),
        # no white space after the figure: not a marker
        ("1.5 million people visit it.", ["1.5 million people visit it."]),
    ],
)
def test_what_is_not_a_list_marker_stays(answer: str, claims: list[str]) -> None:
    assert [c for c, _ in judged(answer)[1]] == claims


@pytest.mark.parametrize(
    "answer",
    [
        "Key facts:\n- The Eiffel Tower is 330 metres tall\n- It is made of wrought iron",
        "The Eiffel Tower is 330 metres tall\n2) It is made of wrought iron",
    ],
)
def test_each_item_of_a_list_on_its_own_lines_is_a_claim_of_its_own(answer: str) -> None:
    assert judged(answer) == (
        1.0,
        [("The Eiffel Tower is 330 metres tall", "yes"), ("It is made of wrought iron", "yes")],
    )


def test_an_item_the_context_lacks_fails_alone() -> None:
    answer = "Facts:\n- The Eiffel Tower is 330 metres tall\n- It is made of concrete"
    assert [v for _, v in judged(answer)[1]] == ["yes", "no"]
    # v3 judged the list as one sentence, heading and all
    assert len(judged(answer, v3=True)[1]) == 1
