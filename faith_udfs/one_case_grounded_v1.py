"""The grounded judge v1 (grounded_v1.py, grounded_v1_support.py) on plain Python strings, for
one case (one_case.py): each claim's weakest clause against its best context sentence, read
off the same patterns, word lists, weights and cut-offs (integer weights, exact sums)."""

from __future__ import annotations

import math
import re

from faith_udfs.grounded_v1 import SHORT_CLAIM_WORDS, SILENT, SUPPORTED
from faith_udfs.grounded_v1_support import (
    _BREAK,
    _WEIGHT_UNIT,
    CLAUSE_BREAK,
    COMMON_WORD_DAMPING,
    MIN_PART_WORDS,
)
from faith_udfs.grounded_words import NEGATIONS
from faith_udfs.grounded_words import word_stem as stem
from faith_udfs.judges import Judge
from faith_udfs.one_case_grounded import (
    _LEAD_IN,
    _NON_CLAIM,
    _NOT,
    _WORD,
    _token,
    truth_words,
)
from faith_udfs.one_case_rules import WHITE_SPACE, Verdict, sentences, verdict_reason
from faith_udfs.word_rules import NUMBER_RULES
from faith_udfs.words import cached_when_short

_CLAUSE = re.compile(CLAUSE_BREAK)
_NEGATION_STEMS = frozenset(stem(word) for word in NEGATIONS)


def grounded_v1_claims(answer: str) -> list[str]:
    """GroundedV1Judge.claims of one answer: its sentences after any lead-in, without refusals
    and meta sentences (v1 judges courtesies as claims)."""
    return [s for s in sentences(_LEAD_IN.sub("", answer, count=1)) if not _NON_CLAIM.search(s)]


@cached_when_short(2**12)
def unit_words(text: str) -> dict[str, tuple[bool, bool]]:
    """A claim's (or clause's) distinct word stems: stem -> (negation, specific: a figure or a
    name in any of its tokens), as `word_rows(specifics=True)`."""
    raw = _NOT.sub(" not", text).lstrip(WHITE_SPACE)
    raw = raw[:1].lower() + raw[1:]
    words: dict[str, tuple[bool, bool]] = {}
    for cased in _WORD.findall(raw):
        word = _token(cased, NUMBER_RULES)
        if word is None:
            continue
        specific = word.figure or word.name
        negation = word.word in _NEGATION_STEMS
        _, before = words.get(word.word, (negation, False))
        words[word.word] = (negation, before or specific)
    return words


def _coverage(
    words: dict[str, tuple[bool, bool]], rows: list[frozenset[str]]
) -> tuple[int, int | None, int, bool, bool]:
    """(total weight, best truth row, weight found there, a specific word found nowhere, a
    negation word) of one unit, as `_judged` gives them."""
    weights, missing = {}, False
    for word, (_, specific) in words.items():
        spread = sum(1 for row in rows if word in row)
        weights[word] = round(_WEIGHT_UNIT / (1.0 + COMMON_WORD_DAMPING * math.log(spread + 1)))
        missing = missing or (specific and spread == 0)
    best_row, best = None, 0
    for index, row in enumerate(rows):
        found = sum(w for word, w in weights.items() if word in row)
        if found > best:  # the lowest row on a tie
            best_row, best = index, found
    negated = any(negation for negation, _ in words.values())
    return sum(weights.values()), best_row, best, missing, negated


def grounded_v1_verdicts(_: Judge, claims: list[str], truths: list[str]) -> list[Verdict]:
    """GroundedV1Judge.verdicts of one case."""
    rows = [truth_words(truth, NUMBER_RULES)[0] for truth in truths]  # v1 read no dates
    negated_truth = [any(w in _NEGATION_STEMS for w in row) for row in rows]
    verbatim_texts = set(truths)
    out: list[Verdict] = []
    for claim in claims:
        if claim in verbatim_texts:
            out.append(("yes", None, 1.0, claim, None))
            continue
        words = unit_words(claim)
        if not words:
            out.append(("idk", verdict_reason("idk", claim), 0.0, None, None))
            continue
        total, best_row, best, missing, claim_negated = _coverage(words, rows)
        coverage = best / total if best_row is not None else 0.0
        support = coverage
        parts = _CLAUSE.sub(_BREAK, claim).split(_BREAK)
        if len(parts) > 1:
            weakest = None
            for part in parts:
                part_words = unit_words(part)
                if len(part_words) < MIN_PART_WORDS:
                    continue
                part_total, part_row, part_best, *_rest = _coverage(part_words, rows)
                part_cov = part_best / part_total if part_row is not None else 0.0
                weakest = part_cov if weakest is None else min(weakest, part_cov)
            support = coverage if weakest is None else weakest
        negation_unmatched = claim_negated and not (
            best_row is not None and negated_truth[best_row]
        )
        n_words = len(words)
        covered = support >= SUPPORTED and (n_words > SHORT_CLAIM_WORDS or coverage >= 1.0)
        if covered and not (missing or negation_unmatched):
            verdict = "yes"
        elif coverage < SILENT:
            verdict = "idk"
        else:
            verdict = "no"
        evidence = truths[best_row] if best_row is not None and verdict != "idk" else None
        out.append((verdict, verdict_reason(verdict, claim), support, evidence, None))
    return out
