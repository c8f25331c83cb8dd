"""v8: whether a claim and its sentence, saying the two sides of an opposite pair, order the
same two things (word_rules.py reads the pairs).

"Payment is taken after the order ships." says what "The order ships before payment is
taken." says: the clauses around "after" are those around "before", swapped. And "You will
receive a confirmation email after placing your order." is not contradicted by "Please check
your cart before placing your order; ...": that "before" orders another act. Each text is cut at
the first place it says its side: the clause before and the clause from there on (the side's
own words left out). The two contradict each other only when they order the same things the
same way round: each clause sharing a stem with the other text's clause on the same side (an
empty clause matches any). Told the other way round, the clause before one pivot is the clause
after the other, and the clauses on the same side share nothing. The batch path reads it with
polars, the one-case twin with `ordered_alike`, the same way."""

from __future__ import annotations

import re
from functools import lru_cache

import polars as pl

from faith_udfs.grounded_words import GROUNDED_STOP_WORDS, stem, word_stem
from faith_udfs.words import WORD_PATTERN

# The words the sides of word_rules.OPPOSITES are made of: no part of what a clause orders.
SIDE_WORDS = frozenset(
    """before after earlier later above over more higher greater exceed exceeds exceeded below
    under less fewer lower minimum least maximum most increase increases increased rose risen
    grew decrease decreases decreased fell fallen dropped open opens closed close closes every
    daily""".split()
)
_SKIPPED_SET = GROUNDED_STOP_WORDS | SIDE_WORDS
_SKIPPED = sorted(_SKIPPED_SET)


def _clause_pattern(says: str) -> str:
    """The text before the first place it says the side, and the text from there on."""
    return rf"(?s)^(.*?)\b((?:{says}).*)$"


def _stems(clause: pl.Expr) -> pl.Expr:
    """The stems of a clause's content words (side words left out)."""
    word = pl.element()
    return clause.str.extract_all(WORD_PATTERN).list.eval(stem(word.filter(~word.is_in(_SKIPPED))))


def _agrees(a: pl.Expr, b: pl.Expr) -> pl.Expr:
    """The two clauses share a stem, or one of them is empty."""
    shared = a.list.set_intersection(b).list.len() > 0
    return shared | (a.list.len() == 0) | (b.list.len() == 0)


def ordered_alike_expr(said: pl.Expr, says: str, other: pl.Expr, other_says: str) -> pl.Expr:
    """Whether the lower-cased claim (`said`, saying the side `says`) and its lower-cased
    sentence (`other`, saying `other_says`) order the same things the same way round."""
    claim, sentence = _clause_pattern(says), _clause_pattern(other_says)
    before, after = _stems(said.str.extract(claim, 1)), _stems(said.str.extract(claim, 2))
    other_before = _stems(other.str.extract(sentence, 1))
    other_after = _stems(other.str.extract(sentence, 2))
    return _agrees(before, other_before) & _agrees(after, other_after)


@lru_cache(maxsize=64)
def _compiled(says: str) -> re.Pattern[str]:
    return re.compile(_clause_pattern(says))


def _stems_of(clause: str) -> set[str]:
    """_stems of one clause (the twin)."""
    return {word_stem(w) for w in re.findall(WORD_PATTERN, clause) if w not in _SKIPPED_SET}


def ordered_alike(said: str, says: str, other: str, other_says: str) -> bool:
    """ordered_alike_expr of one lower-cased claim and sentence (the one-case twin)."""
    claim, sentence = _compiled(says).match(said), _compiled(other_says).match(other)
    if claim is None or sentence is None:
        return False
    before, after = _stems_of(claim.group(1)), _stems_of(claim.group(2))
    other_before, other_after = _stems_of(sentence.group(1)), _stems_of(sentence.group(2))

    def agrees(a: set[str], b: set[str]) -> bool:
        return bool(a & b) or not a or not b

    return agrees(before, other_before) and agrees(after, other_after)
