"""grounded-v5 reads a chat bot's opening interjection ("Yes, ...", "Sure, ...") as no part of the
claim: it states no fact, yet it was a word the context lacks and cost the claim support (v6,
the default, cuts every opening: tests/udfs/test_openings.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from faith_udfs import FaithfulnessMetric, GroundedJudge, LLMTestCase, MetricConfig, score_cases
from faith_udfs.grounded import GroundedV4Judge

A17 = ["Order A17 shipped on 3 March by courier.", "Refunds are paid within 5 working days."]


def verdicts(answer: str, judge: GroundedJudge) -> list[tuple[str, str, float]]:
    metric = FaithfulnessMetric(model=judge)
    metric.measure(LLMTestCase(input="Where is A17?", actual_output=answer, retrieval_context=A17))
    return [(v.claim, v.verdict, round(v.support or 0.0, 6)) for v in metric.verdicts]


@pytest.mark.parametrize(
    "opening",
    ["Yes, ", "Yeah ", "Sure, ", "Of course, ", "Okay, ", "Well, ", "Sure - ", "Yes—", "Great -- "],
)
@pytest.mark.parametrize("said", ["order A17 shipped on 3 March.", "it shipped on 3 March."])
def test_an_opening_interjection_changes_neither_the_claims_support_nor_its_verdict(
    opening: str, said: str
) -> None:
    plain = verdicts(said[0].upper() + said[1:], GroundedJudge())
    ((claim, verdict, support),) = verdicts(opening + said, GroundedJudge())
    assert claim == said  # the claim stored is what the bot said after it
    assert (verdict, support) == plain[0][1:]
    # v4 read "yes" as a word the context lacks, the rarest there is
    ((_, _, old),) = verdicts(opening + said, GroundedV4Judge())
    assert old < support


def test_the_shortest_affirmation_fell_to_the_cutoff_under_v4() -> None:
    answer = "Yes, it shipped on 3 March."
    assert verdicts(answer, GroundedV4Judge()) == [(answer, "yes", 0.566794)]
    assert verdicts(answer, GroundedJudge()) == [("it shipped on 3 March.", "yes", 0.829716)]


@pytest.mark.parametrize(
    "answer",
    [
        "No, order A17 shipped on 4 March.",  # a negation, not an interjection
        "Yes!",  # nothing left to claim: judged as it is, as v4 did
        "Well water is free of charge.",  # "well" counts only before punctuation
        "Great refunds are paid within 5 working days.",
        "Well-known couriers ship order A17.",  # a hyphen is no punctuation inside a word
        "Yes-men ship order A17.",
        "Okay'd refunds are paid within 5 working days.",
    ],
)
def test_what_is_no_opening_interjection_stays_in_the_claim(answer: str) -> None:
    assert [claim for claim, _, _ in verdicts(answer, GroundedJudge())] == [answer]


def test_the_batch_path_judges_an_opened_answer_as_the_plain_one() -> None:
    """`faith score`'s path (measure() above takes the one-case path): the same supports,
    verdicts and scores, each claim stored without its opening."""
    answers = [
        "Order A17 shipped on 3 March.",
        "It shipped on 3 March by courier.",
        "Refunds are paid within 5 days.",
        "Order A17 shipped on 4 March.",
        "Order A17 was cancelled.",
    ]
    opened = [f"{o}, {a[0].lower()}{a[1:]}" for o in ("Yes", "Sure", "Absolutely") for a in answers]
    texts = answers + opened
    cases = pl.DataFrame(
        {
            "case_id": [f"c{i:02d}" for i in range(len(texts))],
            "actual_output": texts,
            "retrieval_context": [A17] * len(texts),
        }
    )
    frames = score_cases(cases, GroundedJudge(), MetricConfig())
    claims = frames.claim_verdicts.sort("case_id")
    judged = list(zip(claims["verdict"], claims["support"], strict=True))
    n = len(answers)
    assert judged[n:] == judged[:n] * 3
    assert claims["claim"].to_list()[n:] == [o.split(", ", 1)[1] for o in opened]
    scores = frames.case_scores.sort("case_id")["score"].to_list()
    assert scores[n:] == scores[:n] * 3
    assert sorted(set(scores)) == [0.0, 1.0]  # the unfaithful ones fail, opened or not


def test_the_bench_shows_no_case_failing_for_its_opening_under_v6() -> None:
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, str(root / "bench" / "interjections.py"), "--rows", "2000"],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=root,
    )
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines()[2:]]
    lost = {(row[0], " ".join(row[1:-4])): row[-1] for row in rows}
    single = ["(as generated)", "'Yes, '", "'Sure, '", "'Absolutely, '"]
    stacked = ["'Yes, of course, '", "'Sure, according to the passages, '"]
    judges = ("grounded-v6", "grounded-v5", "grounded-v4")
    assert list(lost) == [(judge, o) for judge in judges for o in single + stacked]
    assert {lost["grounded-v6", o] for o in single + stacked} == {"0"}
    assert {lost["grounded-v5", o] for o in single} == {"0"}
    assert "0" not in {lost["grounded-v5", o] for o in stacked}  # what v6 set right
    assert lost["grounded-v4", "'Yes, '"] != "0"  # what v5 set right
