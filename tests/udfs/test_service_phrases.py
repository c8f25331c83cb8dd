"""grounded-v12: a support bot's offer of help ("How can I help?") and its welcome ("You are
welcome.") are no claims. Under v11 each was a claim the context lacked, `no`: a greeting turn
scored 0 and failed, and so did every conversation's opening."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faith_udfs import FaithfulnessMetric, GroundedJudge, LLMTestCase
from faith_udfs.grounded import GroundedV11Judge
from faith_udfs.judges import Judge
from faith_udfs.service_phrases import serves, serves_text
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.db_reading import query

CONTEXT = ["Order A17 shipped on 3 March by courier.", "Refunds are paid within 5 working days."]
SHIPPED = "Order A17 shipped on 3 March."


def judged(answer: str, judge: Judge) -> tuple[list[tuple[str, str]], float]:
    metric = FaithfulnessMetric(model=judge)
    score = metric.measure(LLMTestCase(input="q", actual_output=answer, retrieval_context=CONTEXT))
    return [(v.claim, v.verdict) for v in metric.verdicts], score


@pytest.mark.parametrize(
    "phrase",
    [
        "How can I help?",
        "How may I assist you today?",
        "What else can I do for you?",
        "Can I help you with anything else?",
        "Anything else I can do for you?",
        "So, how can we help you with your order?",
        "You are welcome.",
        "My pleasure!",
        "Welcome to Acme support!",
        "Good morning!",
        "Good morning, Anna!",
        "Take care :)",
        "You are welcome, have a great day!",
        "Glad I could help you today!",
    ],
)
def test_an_offer_of_help_or_a_welcome_is_no_claim(phrase: str) -> None:
    assert judged(f"{SHIPPED} {phrase}", GroundedJudge()) == ([(SHIPPED, "yes")], 1.0)
    alone, score = judged(phrase, GroundedJudge())
    assert (alone, score) == ([], 1.0)
    # v11 judged it a claim the context lacked: alone (a greeting turn) `no`, the answer
    # failed; beside a supported claim `no` or `idk`
    assert judged(phrase, GroundedV11Judge()) == ([(phrase, "no")], 0.0)
    v11_claims, _ = judged(f"{SHIPPED} {phrase}", GroundedV11Judge())
    assert v11_claims[0] == (SHIPPED, "yes")
    assert v11_claims[1][1] in ("no", "idk")


@pytest.mark.parametrize(
    "sentence",
    [
        "How can I help you track order A17 from 3 March to Berlin?",  # its facts are claims
        "Did you know the courier delivers on Sundays?",  # a question that says something
        "We can help you with refunds within 30 days.",  # a policy, not an offer
        "Welcome back, your order A17 shipped on 3 March to Berlin by courier.",
        # a figure after a greeting is a claim's, whatever few words it takes
        "Good morning, your refund is $50.",
        "No worries, refunds take 30 days.",
        "Welcome bonus is 50 dollars.",
        "How can I help you track order A17?",
        # nor is a statement after a welcome, figure or not: only a wish, a place or a name
        "Cheers, your order ships Monday.",
        "You are welcome to visit on Sunday.",
        "Take care when opening the box.",
        "Welcome to our store, where refunds take thirty days and returns are free.",
    ],
)
def test_a_sentence_that_says_something_stays_a_claim(sentence: str) -> None:
    claims, _ = judged(sentence, GroundedJudge())
    assert [claim for claim, _ in claims] == [sentence]


WORDS = (
    "how can I help you welcome anything else A17 good morning my pleasure take care what do "
    "for so with"
).split()


@settings(max_examples=300, deadline=None)
@given(
    words=st.lists(st.sampled_from(WORDS), min_size=1, max_size=9),
    end=st.sampled_from(["?", "!", ".", " :)", "?!", ""]),
)
def test_the_batch_and_the_one_case_twin_read_a_sentence_alike(words: list[str], end: str) -> None:
    sentence = " ".join(words).capitalize() + end
    batch = pl.select(serves(pl.lit(pl.Series([sentence])))).item()
    assert batch == serves_text(sentence)


def test_a_conversations_greeting_turn_passes(tmp_path: Path) -> None:
    """A chat log as OpenAI writes it: the greeting turn has no claim and scores 1; v11 failed
    it."""
    chat = {
        "conversation_id": "c1",
        "logged_at": "2026-12-01T09:00:00",
        "retrieval_context": CONTEXT,
        "messages": [
            {"role": "user", "content": "Hi"},
            {"role": "assistant", "content": "Hello! How can I help?"},
            {"role": "user", "content": "Where is A17?"},
            {"role": "assistant", "content": f"{SHIPPED} Anything else I can do for you?"},
            {"role": "user", "content": "No, thanks!"},
            {"role": "assistant", "content": "You are welcome. Take care!"},
        ],
    }
    source, db = tmp_path / "chats.jsonl", tmp_path / "f.duckdb"
    source.write_text(json.dumps(chat) + "\n")
    summary = run_score(ScoreSettings(source=str(source), db=str(db)))
    assert (summary["status"], summary["rows_scored"]) == ("completed", 3)
    scores = query(db, "SELECT case_id, score, success, n_claims FROM case_scores ORDER BY 1")
    assert scores == [("c1:2", 1.0, True, 0), ("c1:4", 1.0, True, 1), ("c1:6", 1.0, True, 0)]
