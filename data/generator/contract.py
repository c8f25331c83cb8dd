"""The cases table's columns, and the tutorial's seed cases and retriever."""

from __future__ import annotations

import datetime as dt
from typing import Literal

import numpy as np
import polars as pl

# The judge's own word rules, so what the data is built to test is what the judge reads.

Form = Literal["wide", "three"]

SCHEMA: dict[str, pl.DataType] = {
    "case_id": pl.String(),
    "input": pl.String(),
    "actual_output": pl.String(),
    "retrieval_context": pl.List(pl.String()),
    "logged_at": pl.Datetime("us"),
    "app_version": pl.String(),
    "model": pl.String(),
    "channel": pl.String(),
}
QUESTION_COLUMNS = ("case_id", "input", "logged_at", "app_version", "channel")
OUTPUT_COLUMNS = ("case_id", "actual_output", "model")
ANSWER_KINDS = ("grounded", "unsupported", "contradicting", "chitchat")
APP_VERSIONS = ("2.3.0", "2.4.0", "2.4.1")
MODELS = ("gpt-4o-mini", "llama-3.1-8b")
CHANNELS = ("web", "app", "email")

# The tutorial's policy and its crude retriever, verbatim in behaviour.
POLICY = (
    "Order A17 shipped on 3 March by courier.",
    "Refunds are paid within 5 working days.",
)
SEED_QUESTION = "Where is order A17?"

_KB_SEED = 20261001
_US_PER_HOUR = 3_600_000_000
_US_PER_DAY = 24 * _US_PER_HOUR


def retrieve(question: str) -> list[str]:
    """The tutorial's retriever: every POLICY line sharing a word with the question."""
    asked = set(question.lower().strip("?").split())
    return [doc for doc in POLICY if asked & set(doc.lower().strip(".").split())]


def seed_cases(day: dt.date = dt.date(2026, 3, 3)) -> pl.DataFrame:
    """The tutorial's three answers to "Where is order A17?" as cases (its acceptance tests),
    logged on `day` (the sample logs them on its first day, so charts have no gap)."""
    context = retrieve(SEED_QUESTION)
    answers = {
        "seed-grounded": "Order A17 shipped on 3 March.",
        "seed-invented": "Order A17 shipped on 3 March. It arrives tomorrow.",
        "seed-contradicting": "Order A17 was cancelled. We are sorry.",
    }
    return pl.DataFrame(
        {
            "case_id": list(answers),
            "input": [SEED_QUESTION] * 3,
            "actual_output": list(answers.values()),
            "retrieval_context": [context] * 3,
            "logged_at": [dt.datetime.combine(day, dt.time(9, 15 + i)) for i in range(3)],
            "app_version": ["seed"] * 3,
            "model": ["seed"] * 3,
            "channel": ["web"] * 3,
        },
        schema=SCHEMA,
    )


def _pick(u: np.ndarray, cumulative: np.ndarray) -> np.ndarray:
    """Index of the category each uniform draw falls in, per row (`cumulative` is (n, k))."""
    return (u[:, None] >= cumulative[:, :-1]).sum(axis=1)
