"""grounded-v13: a greeting or thanks is no claim only whole; before a statement it is cut off
("Thanks, your refund was sent." -> "your refund was sent."). Under v12 a pleasantry took any
four words after it, so such a statement was dropped unjudged and its answer passed."""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faith_udfs import FaithfulnessMetric, GroundedJudge, LLMTestCase
from faith_udfs.greetings import GREETING_OPENING_PATTERN, WHOLE_PLEASANTRY_PATTERN
from faith_udfs.grounded import GroundedV12Judge
from faith_udfs.judges import Judge
from faith_udfs.one_case_grounded import grounded_v12_claims, grounded_v13_claims
from flows.run.pipeline import run_score
from flows.run.settings import JudgeSettings, ScoreSettings
from tests.support.builders import case_row, cases, write
from tests.support.db_reading import query

REFUND = ["Your refund of $50 was sent on Monday.", "Order A17 shipped on Monday by courier."]

WHOLE = [
    "Thanks!",
    "Thank you for your patience.",
    "Thanks so much for reaching out!",
    "Thanks again, Anna!",
    "Hi there!",
    "Hello Anna,",
    "Hey everyone!",
    "Hope this helps!",
    "Anything else I can do?",
    "Anything else you need?",
    "Thank you very much, Anna Smith!",
    "Thanks in advance!",
    "Hi, thanks for waiting!",
    "Hi Anna, hope this helps!",
    # a greeting and a welcome (v12's): "welcome!" is what the cut leaves
    "Hello and welcome!",
    "Hi and welcome to Acme Support!",
]
# (sentence, the claim v13 reads in it)
CUT = [
    ("Thanks, your refund was sent.", "your refund was sent."),
    ("Hi Anna, order A17 shipped on Monday.", "order A17 shipped on Monday."),
    ("Thank you for waiting, your refund of $50 was sent.", "your refund of $50 was sent."),
    ("Hi, order A17 shipped.", "order A17 shipped."),
    ("Thanks, the store opens at 9.", "the store opens at 9."),
    ("Hi, thanks for waiting, your refund was sent.", "your refund was sent."),
    ("Hi Anna, yes, order A17 shipped.", "order A17 shipped."),  # the opening it hid, too
    ("Thanks - your refund was sent.", "your refund was sent."),
    ("Happy to help, your refund is on its way.", "your refund is on its way."),
    # a RAG bot's citations and list markers are cut first (the answers CUE_PATTERN finds)
    ("Hi Anna, your refund [1] was sent.", "your refund was sent."),
    ("- Thanks, according to the passages, order A17 shipped.", "order A17 shipped."),
]
# Whole sentences that stay claims as written: a figure after a greeting, or no mark after it.
KEPT = [
    "Thanks for order A17!",
    "Thanks for letting us know the box was damaged.",
    "Hi-fi speakers are on sale.",
]


def batch_claims(answers: list[str], judge: GroundedJudge) -> list[list[str]]:
    frame = pl.DataFrame({"key": range(len(answers)), "text": answers})
    return judge.claims(frame)["claims"].to_list()


def judged(answer: str, judge: Judge) -> tuple[list[tuple[str, str]], float]:
    metric = FaithfulnessMetric(model=judge)
    score = metric.measure(LLMTestCase(input="q", actual_output=answer, retrieval_context=REFUND))
    return [(v.claim, v.verdict) for v in metric.verdicts], score


def test_a_whole_greeting_or_thanks_is_no_claim_in_both_paths() -> None:
    assert batch_claims(WHOLE, GroundedJudge()) == [[]] * len(WHOLE)
    assert [grounded_v13_claims(sentence) for sentence in WHOLE] == [[]] * len(WHOLE)


def test_a_greeting_is_cut_off_the_statement_it_opens_in_both_paths() -> None:
    sentences = [sentence for sentence, _ in CUT] + KEPT
    expected = [[claim] for _, claim in CUT] + [[sentence] for sentence in KEPT]
    assert batch_claims(sentences, GroundedJudge()) == expected
    assert [grounded_v13_claims(sentence) for sentence in sentences] == expected


@pytest.mark.parametrize(("sentence", "claim"), CUT[:5])
def test_a_statement_after_a_greeting_is_judged(sentence: str, claim: str) -> None:
    claims, _ = judged(sentence, GroundedJudge())
    assert [c for c, _ in claims] == [claim]


def test_v12_still_drops_the_statement_after_a_greeting() -> None:
    """The old series scores as it did: "Thanks, your refund was sent." is no claim to v12."""
    answers = ["Thanks, your refund was sent.", "Thanks, your refund was $80."]
    assert batch_claims(answers, GroundedV12Judge()) == [[], []]
    assert [grounded_v12_claims(answer) for answer in answers] == [[], []]
    assert judged(answers[1], GroundedV12Judge()) == ([], 1.0)
    assert judged(answers[1], GroundedJudge()) == ([("your refund was $80.", "no")], 0.0)


def test_a_wrong_amount_after_thanks_fails_a_whole_run(tmp_path: Path) -> None:
    """`faith score` of a Parquet log: the $80 the context says is $50 fails under v13; v12
    read the sentence as a courtesy, no claim, and passed it."""
    rows = [
        case_row("wrong", "Thanks, your refund was $80.", retrieval_context=REFUND),
        case_row("right", "Thanks, your refund was $50.", retrieval_context=REFUND),
    ]
    source, db = write(cases(rows), tmp_path / "cases.parquet"), tmp_path / "f.duckdb"
    for rules in (None, "grounded-v12"):
        judge = JudgeSettings(kind="grounded", model=rules)
        summary = run_score(ScoreSettings(source=str(source), db=str(db), judge=judge))
        assert summary["status"] == "completed"
    scores = query(
        db,
        "SELECT r.config ->> '$.judge.model', s.case_id, s.score, s.success, s.n_claims "
        "FROM case_scores s JOIN (SELECT DISTINCT config_id, config FROM runs) r "
        "USING (config_id) ORDER BY 1, 2",
    )
    assert scores == [
        ("grounded-v12", "right", 1.0, True, 0),
        ("grounded-v12", "wrong", 1.0, True, 0),
        ("grounded-v13", "right", 1.0, True, 1),
        ("grounded-v13", "wrong", 0.0, False, 1),
    ]


WORDS = (
    "hi hello hey Thanks thank you for your patience so much again there everyone all Anna "
    "Smith your refund was sent A17 9 and yes anything else need hope this helps [1] \n-"
).split()


@settings(max_examples=300, deadline=None)
@given(
    words=st.lists(st.sampled_from(WORDS), min_size=1, max_size=8),
    marks=st.lists(st.sampled_from(["", ",", " -", "!", ":", " —"]), min_size=8, max_size=8),
    end=st.sampled_from(["?", "!", ".", ""]),
)
def test_the_batch_and_the_one_case_twin_read_greetings_alike(
    words: list[str], marks: list[str], end: str
) -> None:
    sentence = " ".join(w + m for w, m in zip(words, marks, strict=False)) + end
    sentence = sentence[0].upper() + sentence[1:]
    for pattern in (WHOLE_PLEASANTRY_PATTERN, GREETING_OPENING_PATTERN):
        batch = pl.select(pl.lit(pl.Series([sentence])).str.contains(pattern)).item()
        assert batch == (re.search(pattern, sentence) is not None)
    assert batch_claims([sentence], GroundedJudge()) == [grounded_v13_claims(sentence)]


# A capitalised statement is no name: up to six capitalised words, or any word that opened with
# a letter other than a-z ("ваш", "élodie"), read as names made these a whole pleasantry.
NO_NAMES = [
    ("THANKS, YOUR ORDER SHIPPED.", "YOUR ORDER SHIPPED."),
    ("Hi Your Refund Was Sent.", "Hi Your Refund Was Sent."),
    ("Thanks Your Order Shipped Today!", "Thanks Your Order Shipped Today!"),
    ("Hi Мария, ваш заказ отправлен.", "ваш заказ отправлен."),
    ("Thanks, élodie est partie.", "élodie est partie."),
]
NAMES = ["Thanks, Zoë!", "Hi Élodie,", "Thanks Anna for your patience!", "Hi Łukasz!", "Hi Мария!"]


def test_a_capitalised_statement_after_a_greeting_is_no_name() -> None:
    sentences = [sentence for sentence, _ in NO_NAMES] + NAMES
    expected = [[claim] for _, claim in NO_NAMES] + [[]] * len(NAMES)
    assert batch_claims(sentences, GroundedJudge()) == expected
    assert [grounded_v13_claims(sentence) for sentence in sentences] == expected


@settings(max_examples=300, deadline=None)
@given(
    name=st.text(alphabet="ZoeéE\u0301\u0308\u0903\u093eनमस्ते", max_size=6).map("Zo".__add__),
    head=st.sampled_from(["Hi ", "Thanks, ", "Thanks for your "]),
    end=st.sampled_from(["!", ", your refund was sent.", ", order A17 shipped."]),
)
def test_the_twins_read_a_letter_with_its_marks_alike(name: str, head: str, end: str) -> None:
    """Rust's \\w holds the combining marks ("Zoe\u0308", NFD's "Zoë"), Python's not: the
    batch path cut "Hi Zoe\u0308, ..." and the one-case twin kept it whole."""
    sentence = head + name + end
    for pattern in (WHOLE_PLEASANTRY_PATTERN, GREETING_OPENING_PATTERN):
        batch = pl.select(pl.lit(pl.Series([sentence])).str.contains(pattern)).item()
        assert batch == (re.search(pattern, sentence) is not None)
    assert batch_claims([sentence], GroundedJudge()) == [grounded_v13_claims(sentence)]
