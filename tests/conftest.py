"""Shared fixtures: the seed's policy example."""

from __future__ import annotations

import pytest

from faith_udfs import LLMTestCase

POLICY = [
    "Order A17 shipped on 3 March by courier.",
    "Refunds are paid within 5 working days.",
]
QUESTION = "Where is order A17?"


def retrieve(question: str) -> list[str]:
    """The seed's crude retriever: any policy line sharing a word with the question."""
    asked = set(question.lower().strip("?").split())
    return [doc for doc in POLICY if asked & set(doc.lower().strip(".").split())]


@pytest.fixture
def seed_cases() -> dict[str, LLMTestCase]:
    context = retrieve(QUESTION)
    return {
        "grounded": LLMTestCase(
            input=QUESTION, actual_output="Order A17 shipped on 3 March.", retrieval_context=context
        ),
        "invented": LLMTestCase(
            input=QUESTION,
            actual_output="Order A17 shipped on 3 March. It arrives tomorrow.",
            retrieval_context=context,
        ),
        "wrong": LLMTestCase(
            input=QUESTION,
            actual_output="Order A17 was cancelled. We are sorry.",
            retrieval_context=context,
        ),
    }
