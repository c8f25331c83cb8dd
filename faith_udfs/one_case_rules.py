"""The offline judges' rules on plain Python strings, for one case (one_case.py): the text
rules they share, and the lexical judge's verdicts."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from faith_udfs.judges import Judge
from faith_udfs.lexical import CONTRADICTED, NOT_MENTIONED
from faith_udfs.sentences import _SENTENCE_END
from faith_udfs.words import STOP_WORDS, WORD_PATTERN

# Printable ASCII plus tab and line breaks: on these, Python's `re` and polars' Rust regex read
# every pattern here alike (`\s`, `\w`, `\b`, case-insensitivity), and NFC changes nothing.
# Python's `\s` and `str.strip` also take \x0b, \x0c and \x1c-\x1f: left out, as is the rest.
PLAIN = re.compile(r"[\t\n\r\x20-\x7e]*")
WHITE_SPACE = " \t\n\r"  # what polars' strip_chars() strips of PLAIN text
_SENTENCE = re.compile(_SENTENCE_END)
_WORD = re.compile(WORD_PATTERN)

# One claim's verdict: (verdict, reason, support, evidence, context lacks).
Verdict = tuple[str, str | None, float | None, str | None, list[str] | None]


@dataclass(frozen=True)
class Rules:
    """One offline judge's rules as Python functions: its claims, and the verdicts of a case's
    claims against its truths."""

    rules_version: str
    claims: Callable[[str], list[str]]
    verdicts: Callable[[Judge, list[str], list[str]], list[Verdict] | None]


def sentences(text: str) -> list[str]:
    """`split_sentences` on PLAIN text: split after . ! ? + white space, stripped, non-empty."""
    pieces, start = [], 0
    for match in _SENTENCE.finditer(text):
        pieces.append(text[start : match.end()])
        start = match.end()
    pieces.append(text[start:])
    return [s for s in (p.strip(WHITE_SPACE) for p in pieces) if s]


def content_words(text: str) -> list[str]:
    """`words.content_words` on PLAIN text."""
    return [w for w in _WORD.findall(text.lower()) if w not in STOP_WORDS]


def lexical_verdicts(_: Judge, claims: list[str], truths: list[str]) -> list[Verdict]:
    """LexicalJudge.verdicts for one case: every content word in the truths -> yes, some ->
    no, none (or no content word) -> idk; a claim that is one of the truths -> yes."""
    verbatim = set(truths)
    known = {word for truth in truths for word in content_words(truth)}
    out: list[Verdict] = []
    for claim in claims:
        words = content_words(claim)
        if not words:
            verdict = "idk"
        elif claim in verbatim or all(w in known for w in words):
            verdict = "yes"
        elif any(w in known for w in words):
            verdict = "no"
        else:
            verdict = "idk"
        out.append((verdict, verdict_reason(verdict, claim), None, None, None))
    return out


def verdict_reason(verdict: str, claim: str) -> str | None:
    """`lexical.verdict_reason` for one claim."""
    if verdict == "no":
        return CONTRADICTED + claim
    if verdict == "idk":
        return NOT_MENTIONED + claim
    return None
