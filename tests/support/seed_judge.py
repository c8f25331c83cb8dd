"""The seed tutorial's pretend judge, copied as the tutorial shows it, answering our prompts.

`answers`, `section` and `share` are the tutorial harness's helpers, which it does not print:
`answers` registers on a PromptHandlers, `section` is faithpipe's documented reader of a
rendered prompt, and `share` follows design.md's lexical rules in plain per-case Python, written
independently of the vectorised LexicalJudge so the two can be compared.
"""

from __future__ import annotations

import ast
import re
from collections import Counter

from faith_udfs import PromptHandlers, PromptJudge, section
from faith_udfs.words import STOP_WORDS, WORD_PATTERN

pretend_judge = PromptHandlers("pretend-judge")
answers = pretend_judge.answers


def content_words(text: str) -> set[str]:
    return {w for w in re.findall(WORD_PATTERN, text.lower()) if w not in STOP_WORDS}


def share(claim: str, truths: str) -> float:
    words = content_words(claim)
    if not words:
        return 0.0
    return len(words & content_words(truths)) / len(words)


# --- from the seed, unchanged -------------------------------------------------------------


@answers("faithfulness.Truths")
def faithfulness_truths(prompt, judge):
    return {"truths": sentences(section(prompt, "Text"))}


@answers("faithfulness.Claims")
def faithfulness_claims(prompt, judge):
    return {"claims": sentences(section(prompt, "AI Output"))}


@answers("faithfulness.Verdicts")
def faithfulness_verdicts(prompt, judge):
    truths = section(prompt, "Retrieval Contexts")
    verdicts = []
    for claim in listed(prompt, "Claims"):
        found = share(claim, truths)
        if found == 1:
            verdicts.append({"verdict": "yes"})
        elif found > 0:
            verdicts.append(
                {"verdict": "no", "reason": f"The context says otherwise about: {claim}"}
            )
        else:
            verdicts.append({"verdict": "idk", "reason": f"The context does not mention: {claim}"})
    return {"verdicts": verdicts}


def read_back_score(prompt):
    score = re.findall(r"Score:\s*\n([\d.]+)", prompt)
    return f"The score is {score[-1]}." if score else "No score was given."


def sentences(text):
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]


def listed(prompt, name):
    return ast.literal_eval(section(prompt, name) or "[]")


# --- the fourth question: the tutorial's judge reads the score back ------------------------


@answers("faithfulness.Reason")
def faithfulness_reason(prompt, judge):
    return {"reason": read_back_score(prompt)}


class CountingJudge(PromptJudge):
    """The seed's pretend judge, counting every prompt it answers, by schema."""

    def __init__(self) -> None:
        self.calls: Counter[str] = Counter()

        def answer(prompt: str, schema: str) -> dict:
            self.calls[schema] += 1
            return pretend_judge(prompt, schema)

        super().__init__(answer, model="counting-pretend-judge")
