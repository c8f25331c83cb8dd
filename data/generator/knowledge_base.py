"""The fixed knowledge base, built once: passages, their word sets and vocabularies as
arrays."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pyarrow as pa

from data.generator.contract import _KB_SEED, POLICY
from data.generator.orders import _order_vocabulary
from data.generator.passages import (
    _account_passages,
    _invoice_passages,
    _Passage,
    _plan_passages,
    _refund_passages,
    _return_passages,
    _shipping_passages,
    _store_passages,
    _support_passages,
    _voucher_passages,
    _warranty_passages,
    _words,
)
from data.generator.vocabulary import (
    _CARRIERS,
    _CITIES,
    _CLOSERS,
    _DAYS,
    _MONTHS,
    _OPENERS,
    _UNSUPPORTED,
)

# The judge's own word rules, so what the data is built to test is what the judge reads.


@dataclass(frozen=True)
class _Kb:
    """The knowledge base as arrays for vectorised drawing."""

    passages: tuple[_Passage, ...]
    passage_text: pa.Array  # (P,) strings
    popularity: np.ndarray  # (P,) probabilities, Zipf-like over a fixed shuffled ranking
    passage_sentences: np.ndarray  # (P, 3) global sentence ids, -1 padded
    sentence_text: np.ndarray  # (S,) the same number for sentences with the same text
    pieces: pa.Array  # every answer sentence: rewordings, contradictions, unsupported, small talk
    grounded: np.ndarray  # (S, G) piece ids of each sentence's rewordings, -1 padded
    grounded_count: np.ndarray  # (S,)
    contradicting: np.ndarray  # (S, C) contradiction ids, -1 padded
    contradicting_count: np.ndarray  # (S,)
    contradiction_piece: np.ndarray  # (K,) piece id of each contradiction
    contradiction_clash: np.ndarray  # (P, K) True if passage p holds contradiction k's new word
    unsupported: np.ndarray  # piece ids
    openers: np.ndarray  # piece ids of small talk that starts an answer
    closers: np.ndarray  # piece ids of small talk that ends one
    questions: pa.Array  # question texts, each in two forms: as written, lower-case start
    passage_questions: np.ndarray  # (P, Q) question ids (the as-written form), -1 padded
    question_count: np.ndarray  # (P,)
    value_has: np.ndarray  # (P, V) True if passage p holds order-record value v (a day, city...)
    value_index: Mapping[str, int]  # lower-cased order-record value -> v
    order_popularity: np.ndarray  # (P,) popularity of passages read next to an order record

    def value_ids(self, values: Sequence[str]) -> np.ndarray:
        """Value ids of `values` (order-record values such as days, months, carriers)."""
        return np.array([self.value_index[v.lower()] for v in values], dtype=np.int64)


def _build_passages() -> list[_Passage]:
    rng = random.Random(_KB_SEED)
    return [
        *_refund_passages(rng),
        *_plan_passages(rng),
        *_store_passages(rng),
        *_return_passages(rng),
        *_shipping_passages(rng),
        *_warranty_passages(rng),
        *_account_passages(rng),
        *_voucher_passages(rng, 60),
        *_invoice_passages(rng, 80),
        *_support_passages(rng),
    ]


def _padded(rows: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
    width = max([1, *(len(r) for r in rows)])
    out = np.full((len(rows), width), -1, dtype=np.int64)
    for i, r in enumerate(rows):
        out[i, : len(r)] = r
    return out, np.array([len(r) for r in rows], dtype=np.int64)


@lru_cache(maxsize=1)
def _knowledge_base() -> _Kb:
    passages = _build_passages()
    vocabularies = [_words(p.text) for p in passages]
    vocabulary = set().union(*vocabularies, _order_vocabulary())
    for line in (*_UNSUPPORTED, *_OPENERS, *_CLOSERS):
        if _words(line) & vocabulary:
            raise ValueError(f"{line!r} shares {_words(line) & vocabulary} with the passages")

    pieces: list[str] = []
    grounded_rows: list[list[int]] = []
    contradicting_rows: list[list[int]] = []
    contradiction_piece: list[int] = []
    new_words: list[str] = []
    passage_rows: list[list[int]] = []
    sentences: list[str] = []
    for p in passages:
        passage_rows.append([])
        for s in p.sentences:
            passage_rows[-1].append(len(grounded_rows))
            sentences.append(s.text)
            grounded_rows.append(list(range(len(pieces), len(pieces) + len(s.grounded))))
            pieces += s.grounded
            contradicting_rows.append([])
            for text, word in s.contradictions:
                contradicting_rows[-1].append(len(contradiction_piece))
                contradiction_piece.append(len(pieces))
                new_words.append(word)
                pieces.append(text)
    unsupported = np.arange(len(pieces), len(pieces) + len(_UNSUPPORTED))
    pieces += _UNSUPPORTED
    openers = np.arange(len(pieces), len(pieces) + len(_OPENERS))
    pieces += _OPENERS
    closers = np.arange(len(pieces), len(pieces) + len(_CLOSERS))
    pieces += _CLOSERS

    clash = np.array([[w in v for w in new_words] for v in vocabularies], dtype=bool)
    questions: list[str] = []
    question_rows: list[list[int]] = []
    for p in passages:
        question_rows.append(list(range(len(questions), len(questions) + 2 * len(p.questions), 2)))
        for q in p.questions:
            questions += [q, q if re.match(r"I\b", q) else q[:1].lower() + q[1:]]

    # Popularity: Zipf over a fixed shuffled ranking; the general refund policy leads.
    ranking = np.random.default_rng(_KB_SEED).permutation(len(passages))
    refund = next(i for i, p in enumerate(passages) if p.text == POLICY[1])
    ranking = np.concatenate([[refund], ranking[ranking != refund]])
    popularity = np.empty(len(passages))
    popularity[ranking] = 1.0 / np.arange(1, len(passages) + 1) ** 0.9
    values = list(dict.fromkeys(v.lower() for v in (*_DAYS, *_MONTHS, *_CARRIERS, *_CITIES)))
    value_has = np.array([[v in words for v in values] for words in vocabularies], dtype=bool)
    near_orders = np.array([p.topic in ("refunds", "shipping", "returns") for p in passages])
    order_popularity = popularity * np.where(near_orders, 1.0, 0.05)
    passage_sentences, _ = _padded(passage_rows)
    grounded, grounded_count = _padded(grounded_rows)
    contradicting, contradicting_count = _padded(contradicting_rows)
    passage_questions, question_count = _padded(question_rows)
    return _Kb(
        passages=tuple(passages),
        passage_text=pa.array([p.text for p in passages], pa.large_string()),
        popularity=popularity / popularity.sum(),
        passage_sentences=passage_sentences,
        sentence_text=np.unique(np.array(sentences), return_inverse=True)[1],
        pieces=pa.array(pieces, pa.large_string()),
        grounded=grounded,
        grounded_count=grounded_count,
        contradicting=contradicting,
        contradicting_count=contradicting_count,
        contradiction_piece=np.array(contradiction_piece, dtype=np.int64),
        contradiction_clash=clash,
        unsupported=unsupported,
        openers=openers,
        closers=closers,
        questions=pa.array(questions, pa.large_string()),
        passage_questions=passage_questions,
        question_count=question_count,
        value_has=value_has,
        value_index={v: i for i, v in enumerate(values)},
        order_popularity=order_popularity / order_popularity.sum(),
    )


def knowledge_base() -> list[str]:
    """The passages cases are retrieved from, in a fixed order (same for every seed)."""
    return [p.text for p in _knowledge_base().passages]
