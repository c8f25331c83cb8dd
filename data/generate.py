"""Seeded generator of realistic logged support-bot RAG conversations (the *cases* table).

Policy passages come from a fixed knowledge base built once with small Python loops, order
records are formatted per case; cases are drawn with numpy and assembled by Arrow gathers.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import re
import sys
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

# The judge's own word rules, so what the data is built to test is what the judge reads.
from faith_udfs.words import STOP_WORDS, WORD_PATTERN

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

# Cases are drawn in fixed-size chunks, each with its own random stream, so memory stays
# bounded and the output for a seed does not depend on how a caller writes it out.
_CHUNK_ROWS = 100_000
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


# --- the knowledge base -----------------------------------------------------------------------

_WORD = re.compile(WORD_PATTERN)
# A subset of the lexical judge's stop words. Checking with fewer stop words is stricter, so
# what the build checks here (no new words, disjoint vocabularies) also holds for the judge.
_STOP = frozenset(
    "a an the is are was were be been to of in on at by for and or it its we our you your i my "
    "this that will can with from as has have had do does".split()
)
# The judge's stop words plus the negations and "may" it keeps as content words. A
# contradiction's changed word must be outside this set, so that any reasonable judge sees
# the change as a changed fact.
_FUNCTION_WORDS = STOP_WORDS | {"may", "no", "nor", "not"}

_MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip
_DAYS = tuple(str(d) for d in range(1, 29))
_CARRIERS = ("courier", "DHL", "UPS", "DPD", "GLS", "Hermes")
_CITIES = (
    "Berlin", "Hamburg", "Munich", "Cologne", "Vienna", "Zurich", "Paris", "Lyon", "Madrid",
    "Milan", "Amsterdam", "Rotterdam", "Brussels", "Copenhagen", "Oslo", "Stockholm", "Prague",
    "Warsaw", "Dublin", "Lisbon",
)  # fmt: skip
_COUNTRIES = (
    "Germany", "Austria", "Switzerland", "France", "Spain", "Italy", "Belgium", "Denmark",
    "Norway", "Sweden", "Poland", "Ireland", "Portugal", "Finland", "Czechia",
)  # fmt: skip
_STREETS = ("Hauptstrasse", "Market Street", "Station Road", "Lindenallee", "Harbour Street")
_PLANS = ("Basic", "Plus", "Premium", "Business", "Family", "Student")
_METHODS = ("card", "PayPal", "Klarna", "SEPA")
_PRODUCTS = (
    ("X200", "laptop"), ("Aria", "headphones"), ("Pulse", "smartwatch"), ("Nimbus", "router"),
    ("Vega", "tablet"), ("Orbit", "speaker"), ("K9", "blender"), ("Luma", "lamp"),
    ("Atlas", "backpack"), ("Zen", "kettle"), ("Nova", "phone"), ("Echo", "earbuds"),
    ("Terra", "bike"), ("Polar", "fridge"), ("Swift", "vacuum"),
)  # fmt: skip
_PARTS = ("battery", "screen", "motor", "charger", "keyboard")
_CATEGORIES = (
    "Shoes", "Headphones", "Laptops", "Phones", "Toys", "Books", "Mattresses", "Bikes",
    "Kettles", "Jackets", "Watches", "Printers",
)  # fmt: skip
_VOUCHER_WORDS = ("SPRING", "SUMMER", "AUTUMN", "WINTER", "WELCOME", "SAVE", "FLASH", "VIP")
_FEATURES = (
    "24/7 phone support", "free express shipping", "priority email support",
    "extended returns", "free gift wrapping", "early access to sales",
)  # fmt: skip

# Sentences no passage supports (the judge's `idk`) and small talk; the build checks that
# none of their words occurs anywhere in the knowledge base.
_UNSUPPORTED = (
    "It arrives tomorrow.", "Our team will call you back.",
    "You will receive a confirmation text shortly.", "A manager has approved an exception.",
    "We have added a small present as an apology.", "This is the fastest option available.",
    "Everything should be sorted out soon.", "I have escalated this to our specialists.",
    "A replacement has been reserved.", "The delay was caused by bad weather.",
    "You qualify for a loyalty bonus.", "Our new app makes this much easier.",
    "Someone from accounting will contact you.", "This happens quite rarely.",
    "Your ticket has been marked urgent.", "Most customers hear back the same afternoon.",
    "We see no problem on our side.", "Our logistics team is looking into it.",
    "It was probably left with a neighbour.", "A technician will visit on Tuesday.",
)  # fmt: skip
_OPENERS = ("Thanks for reaching out!", "Good question!", "Thanks for your patience.")
_CLOSERS = (
    "Happy to help!", "Have a great day!", "Hope this helps!", "Anything else I can do?",
    "Glad I could help.", "You're welcome.", "Thanks!", "Sorry for the trouble.", "We are sorry.",
)  # fmt: skip


@dataclass(frozen=True)
class _Sentence:
    text: str
    grounded: tuple[str, ...]  # the sentence itself first, then rewordings that only drop words
    contradictions: tuple[tuple[str, str], ...]  # (sentence with one value changed, new word)


@dataclass(frozen=True)
class _Passage:
    topic: str
    sentences: tuple[_Sentence, ...]
    questions: tuple[str, ...]

    @property
    def text(self) -> str:
        return " ".join(s.text for s in self.sentences)


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _STOP}


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _sentence(
    rng: random.Random,
    template: str,
    values: Mapping[str, str],
    *,
    short: Sequence[str] = (),
    wrong: Mapping[str, Sequence[str]] | None = None,
) -> _Sentence:
    """One passage sentence with its word-dropping rewordings and one-value contradictions."""
    text = _cap(template.format(**values))
    base = _words(text)
    grounded = [text]
    for form in short:
        variant = _cap(form.format(**values))
        if not _words(variant) <= base:
            raise ValueError(f"rewording adds words: {variant!r} of {text!r}")
        grounded.append(variant)
    contradictions = []
    for field, pool in (wrong or {}).items():
        alt = rng.choice([v for v in pool if v != values[field]])
        variant = _cap(template.format(**{**values, field: alt}))
        new = _words(variant) - base
        if (
            len(new) == 1
            and not new & _FUNCTION_WORDS
            and (_words(variant) & base) - _FUNCTION_WORDS
        ):
            contradictions.append((variant, new.pop()))
    return _Sentence(text, tuple(dict.fromkeys(grounded)), tuple(contradictions))


def _passage(topic: str, sentences: Iterable[_Sentence], questions: Iterable[str]) -> _Passage:
    return _Passage(topic, tuple(sentences), tuple(questions))


def _num(rng: random.Random, low: int, high: int) -> str:
    return str(rng.randint(low, high))


def _nums(low: int, high: int) -> tuple[str, ...]:
    return tuple(str(v) for v in range(low, high + 1))


def _refund_passages(rng: random.Random) -> list[_Passage]:
    days = _nums(2, 14)
    out = [
        _passage(
            "refunds",
            [
                _sentence(
                    rng, "Refunds are paid within {n} working days.", {"n": "5"},
                    short=["Refunds are paid within {n} days."], wrong={"n": days},
                )
            ],
            ["How long do refunds take?", "When will I get my refund?", "How are refunds paid?"],
        )
    ]  # fmt: skip
    for method in _METHODS:
        v = {"method": method, "n": _num(rng, 1, 10), "cond": "faulty"}
        out.append(_passage(
            "refunds",
            [
                _sentence(rng, "Refunds to {method} are paid within {n} working days.", v,
                          short=["Refunds to {method} are paid within {n} days."],
                          wrong={"n": days, "method": _METHODS}),
                _sentence(rng, "Shipping costs are refunded only for {cond} items.", v,
                          wrong={"cond": ("unwanted", "opened", "used")}),
            ],
            [f"How long does a refund to {method} take?", f"When do I get my {method} refund?"],
        ))  # fmt: skip
    for country in rng.sample(_COUNTRIES, 8):
        v = {"country": country, "n": _num(rng, 3, 14)}
        out.append(_passage(
            "refunds",
            [_sentence(rng, "Refunds for orders from {country} are paid within {n} working days.",
                       v, short=["Refunds for orders from {country} are paid within {n} days."],
                       wrong={"n": days, "country": _COUNTRIES})],
            [q.format(**v) for q in ("How long do refunds to {country} take?",
                                     "I live in {country}, when is my refund paid?")],
        ))  # fmt: skip
    return out


def _plan_passages(rng: random.Random) -> list[_Passage]:
    out = []
    for i, plan in enumerate(_PLANS):
        feature = "24/7 phone support" if plan == "Premium" else _FEATURES[i % len(_FEATURES)]
        v = {
            "plan": plan, "price": str(rng.choice((5, 9, 12, 15, 19, 25, 29, 39, 49))),
            "pct": _num(rng, 10, 25), "feature": feature,
            "gb": str(rng.choice((50, 100, 200, 500))),
            "users": _num(rng, 2, 12), "other": rng.choice([p for p in _PLANS if p != plan]),
        }  # fmt: skip
        passages = [
            ([_sentence(rng, "The {plan} plan costs {price} euros per month.", v,
                        short=["The {plan} plan costs {price} euros."],
                        wrong={"price": _nums(4, 60), "plan": _PLANS}),
              _sentence(rng, "Yearly billing saves {pct} percent.", v,
                        wrong={"pct": _nums(5, 30)})],
             ["How much is the {plan} plan?", "What does {plan} cost per year?"]),
            ([_sentence(rng, "{plan} plans include {feature}.", v,
                        wrong={"plan": _PLANS, "feature": _FEATURES})],
             ["What does the {plan} plan include?", "Does {plan} include phone support?"]),
            ([_sentence(rng, "The {plan} plan includes {gb} GB of cloud storage.", v,
                        short=["The {plan} plan includes {gb} GB of storage."],
                        wrong={"gb": ("20", "40", "80", "250", "1000")}),
              _sentence(rng, "Up to {users} people can share one {plan} account.", v,
                        wrong={"users": _nums(2, 12)})],
             ["How much storage comes with {plan}?", "Can I share my {plan} account?"]),
            ([_sentence(rng, "Switching from {plan} to {other} takes effect next month.", v,
                        wrong={"other": _PLANS})],
             ["Can I switch from {plan} to {other}?", "When does my change to {other} start?"]),
        ]  # fmt: skip
        out += [_passage("plans", s, [q.format(**v) for q in qs]) for s, qs in passages]
    return out


def _store_passages(rng: random.Random) -> list[_Passage]:
    out = []
    for city in _CITIES:
        v = {
            "city": city, "open": _num(rng, 7, 10), "close": _num(rng, 16, 20),
            "street": rng.choice(_STREETS), "num": _num(rng, 1, 180), "h": _num(rng, 2, 4),
            "days": _num(rng, 2, 7), "cat": rng.choice(("phones", "laptops", "bikes", "watches")),
        }  # fmt: skip
        passages = [
            ([_sentence(rng, "The {city} store opens at {open}:00 on weekdays.", v,
                        short=["The {city} store opens at {open}:00."],
                        wrong={"open": _nums(6, 11), "city": _CITIES}),
              _sentence(rng, "It closes at {close}:00 on Saturdays.", v,
                        wrong={"close": _nums(13, 22)})],
             ["When does the {city} store open?", "Is the {city} store open on Saturday?",
              "What are the opening hours in {city}?"]),
            ([_sentence(rng, "The {city} store is at {street} {num}.", v,
                        wrong={"num": _nums(1, 180), "street": _STREETS}),
              _sentence(rng, "Parking there is free for {h} hours.", v,
                        short=["Parking is free for {h} hours."], wrong={"h": _nums(2, 5)})],
             ["What is the address of the {city} store?", "Can I park at the {city} store?"]),
            ([_sentence(rng, "The {city} store repairs {cat} on site.", v,
                        wrong={"cat": ("phones", "laptops", "bikes", "watches", "tablets")}),
              _sentence(rng, "A repair there takes about {days} days.", v,
                        wrong={"days": _nums(1, 10)})],
             ["Does the {city} store do repairs?", "Can the {city} store fix my {cat}?"]),
        ]  # fmt: skip
        out += [_passage("stores", s, [q.format(**v) for q in qs]) for s, qs in passages]
    return out


def _return_passages(rng: random.Random) -> list[_Passage]:
    out = []
    for cat in _CATEGORIES:
        v = {
            "cat": cat, "low": cat.lower(), "n": str(rng.choice((14, 30, 60, 100))),
            "cond": "unused", "country": rng.choice(_COUNTRIES), "amount": _num(rng, 3, 9),
        }  # fmt: skip
        passages = [
            ([_sentence(rng, "{cat} can be returned within {n} days of delivery.", v,
                        short=["{cat} can be returned within {n} days."],
                        wrong={"n": ("7", "10", "21", "45", "90")}),
              _sentence(rng, "They must be {cond} and in the original box.", v,
                        short=["They must be {cond}."], wrong={"cond": ("used", "washed")})],
             ["Can I return {low}?", "How many days do I have to return {low}?"]),
            ([_sentence(rng, "Return labels for {country} cost {amount} euros.", v,
                        wrong={"amount": _nums(1, 12), "country": _COUNTRIES})],
             ["How much is a return label for {country}?", "Are returns from {country} free?"]),
        ]  # fmt: skip
        out += [_passage("returns", s, [q.format(**v) for q in qs]) for s, qs in passages]
    return out


def _shipping_passages(rng: random.Random) -> list[_Passage]:
    out = []
    for country in _COUNTRIES:
        low = rng.randint(1, 5)
        v = {
            "country": country, "a": str(low), "b": str(low + rng.randint(1, 4)),
            "price": _num(rng, 6, 25), "amount": str(rng.choice((29, 39, 49, 79, 99))),
            "carrier": rng.choice(_CARRIERS[1:]),
        }  # fmt: skip
        passages = [
            ([_sentence(rng, "Standard shipping to {country} takes {a} to {b} working days.", v,
                        short=["Shipping to {country} takes {a} to {b} days."],
                        wrong={"b": _nums(2, 12), "country": _COUNTRIES}),
              _sentence(rng, "Express shipping costs {price} euros.", v,
                        wrong={"price": _nums(5, 30)})],
             ["How long does shipping to {country} take?", "How much is express shipping?"]),
            ([_sentence(rng, "Orders to {country} over {amount} euros ship for free.", v,
                        short=["Orders over {amount} euros ship for free."],
                        wrong={"amount": ("19", "59", "69", "120", "150")}),
              _sentence(rng, "Deliveries to {country} are made by {carrier}.", v,
                        wrong={"carrier": _CARRIERS[1:]})],
             ["Is shipping to {country} free?", "Who delivers to {country}?"]),
        ]  # fmt: skip
        out += [_passage("shipping", s, [q.format(**v) for q in qs]) for s, qs in passages]
    return out


def _warranty_passages(rng: random.Random) -> list[_Passage]:
    out = []
    names = tuple(n for n, _ in _PRODUCTS)
    for name, kind in _PRODUCTS:
        v = {
            "name": name, "kind": kind, "n": _num(rng, 1, 5), "part": rng.choice(_PARTS),
            "damage": rng.choice(("scratches", "drops", "misuse")), "city": rng.choice(_CITIES),
            "days": _num(rng, 3, 15),
        }  # fmt: skip
        passages = [
            ([_sentence(rng, "The {name} {kind} has a {n} year warranty.", v,
                        short=["The {name} has a {n} year warranty."],
                        wrong={"n": _nums(1, 6), "name": names}),
              _sentence(rng, "The warranty covers the {part} but not {damage}.", v,
                        short=["The warranty covers the {part}."], wrong={"part": _PARTS})],
             ["What warranty does the {name} {kind} have?", "My {name} broke, is it covered?"]),
            ([_sentence(rng, "Repairs for the {name} {kind} are done at the {city} service centre.",
                        v, short=["Repairs for the {name} are done at the {city} service centre."],
                        wrong={"city": _CITIES, "name": names}),
              _sentence(rng, "A repair usually takes {days} working days.", v,
                        short=["A repair takes {days} days."], wrong={"days": _nums(2, 20)})],
             ["Where can I get my {name} {kind} repaired?", "How long does a {name} repair take?"]),
        ]  # fmt: skip
        out += [_passage("warranty", s, [q.format(**v) for q in qs]) for s, qs in passages]
    return out


def _account_passages(rng: random.Random) -> list[_Passage]:
    specs = [
        ("Passwords must be at least {n} characters long.", "10", _nums(6, 16),
         ("How long must my password be?", "Why is my new password rejected?")),
        ("Accounts are locked after {n} failed login attempts.", "5", _nums(3, 10),
         ("Why is my account locked?", "How many login attempts do I get?")),
        ("A locked account unlocks after {n} minutes.", "30", ("10", "15", "45", "60"),
         ("When will my account unlock?", "My account is locked, how long do I wait?")),
        ("Login codes expire after {n} minutes.", "10", ("2", "5", "15", "20"),
         ("My login code expired, what now?", "How long is a login code valid?")),
        ("Email changes are confirmed by a link valid for {n} hours.", "24", _nums(1, 12),
         ("How do I change my email address?", "The confirmation link does not work.")),
        ("Business accounts are locked after {n} failed login attempts.", "3", _nums(4, 9),
         ("Why is our business account locked?",)),
        ("Deleted accounts can be restored within {n} days.", "30", ("7", "14", "60", "90"),
         ("Can I get my deleted account back?", "I deleted my account by mistake.")),
    ]  # fmt: skip
    return [
        _passage("account", [_sentence(rng, t, {"n": n}, wrong={"n": pool})], qs)
        for t, n, pool, qs in specs
    ]


def _voucher_passages(rng: random.Random, count: int) -> list[_Passage]:
    codes = sorted({f"{rng.choice(_VOUCHER_WORDS)}{rng.randint(5, 60)}" for _ in range(count * 3)})
    codes = rng.sample(codes, count)
    out = []
    for code in codes:
        v = {
            "code": code, "pct": str(rng.choice((5, 10, 15, 20, 25, 30))),
            "amount": str(rng.choice((20, 30, 50, 75, 100))), "day": _num(rng, 1, 28),
            "month": rng.choice(_MONTHS),
        }  # fmt: skip
        qs = ["Is voucher {code} still valid?", "How much does {code} take off?",
              "Why does voucher {code} not work?"]  # fmt: skip
        sents = [
            _sentence(rng, "Voucher {code} gives {pct} percent off orders over {amount} euros.", v,
                      short=["Voucher {code} gives {pct} percent off."],
                      wrong={"pct": ("12", "35", "40", "50"), "amount": ("40", "60", "150")}),
            _sentence(rng, "It expires on {day} {month}.", v,
                      wrong={"day": _DAYS, "month": _MONTHS}),
        ]  # fmt: skip
        if rng.random() < 0.3:
            sents.append(_sentence(rng, "It cannot be combined with other discounts.", v))
        out.append(_passage("vouchers", sents, [q.format(**v) for q in qs]))
    return out


def _invoice_passages(rng: random.Random, count: int) -> list[_Passage]:
    numbers = rng.sample(range(100, 9999), count)
    out = []
    for number in numbers:
        v = {
            "inv": f"INV-2026-{number:04d}",
            "amount": f"{rng.randint(9, 900)}.{rng.randint(0, 99):02d}",
            "day": _num(rng, 1, 28), "month": rng.choice(_MONTHS), "day2": _num(rng, 1, 28),
            "month2": rng.choice(_MONTHS), "method": rng.choice(_METHODS),
        }  # fmt: skip
        qs = ["Can you send me invoice {inv}?", "Has invoice {inv} been paid?",
              "When is invoice {inv} due?"]  # fmt: skip
        paid = rng.random() < 0.6
        second = (
            _sentence(rng, "It was paid by {method} on {day2} {month2}.", v,
                      short=["It was paid by {method}."], wrong={"method": _METHODS, "day2": _DAYS})
            if paid
            else _sentence(rng, "It is due on {day2} {month2}.", v,
                           wrong={"day2": _DAYS, "month2": _MONTHS})
        )  # fmt: skip
        sents = [
            _sentence(rng, "Invoice {inv} for {amount} euros was issued on {day} {month}.", v,
                      short=["Invoice {inv} was issued on {day} {month}.",
                             "Invoice {inv} for {amount} euros was issued."],
                      wrong={"day": _DAYS, "month": _MONTHS}),
            second,
        ]  # fmt: skip
        out.append(_passage("invoices", sents, [q.format(**v) for q in qs]))
    return out


def _support_passages(rng: random.Random) -> list[_Passage]:
    out = [
        _passage("support", [
            _sentence(rng, "Phone support is open from {a}:00 to {b}:00 on weekdays.",
                      {"a": "8", "b": "18"}, short=["Phone support is open from {a}:00 to {b}:00."],
                      wrong={"a": _nums(6, 10), "b": _nums(16, 22)})],
            ["When is phone support open?", "Can I call you on weekdays?"]),
        _passage("support", [
            _sentence(rng, "Chat support answers within {n} minutes.", {"n": "3"},
                      wrong={"n": _nums(1, 15)}),
            _sentence(rng, "Email support replies within {n} hours on working days.", {"n": "24"},
                      short=["Email support replies within {n} hours."],
                      wrong={"n": ("4", "8", "12", "48")})],
            ["How fast does chat support answer?", "How long does an email reply take?"]),
    ]  # fmt: skip
    for country in rng.sample(_COUNTRIES, 10):
        v = {"country": country, "phone": f"{rng.randint(100, 999)} {rng.randint(1000, 9999)}"}
        out.append(_passage(
            "support",
            [_sentence(rng, "The support number for {country} is {phone}.", v,
                       wrong={"phone": [f"{rng.randint(100, 999)} {v['phone'][-4:]}"]})],
            [f"What is the support number for {country}?", f"Can I call support in {country}?"],
        ))  # fmt: skip
    return out


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


# --- per-case order records -------------------------------------------------------------------
# An order lookup belongs to the customer who asks, so order passages are drawn per case rather
# than taken from the knowledge base; the record, its rewordings and its contradictions are
# formatted column-wise from these templates.


@dataclass(frozen=True)
class _OrderTemplate:
    first: str
    short: tuple[str, ...]  # one or two rewordings of `first`
    wrong: tuple[str, ...]  # fields of `first` a contradiction may change (at most four)
    second: tuple[str, ...]  # the second sentence, one drawn per record ("" for none)
    questions: tuple[str, ...]


_ORDER_SHARE = 0.45
_ORDER_STATUS_P = np.array([0.5, 0.27, 0.15, 0.08])
_ORDER_TEMPLATES = (
    _OrderTemplate(
        "Order {id} shipped on {day} {month} by {carrier}.",
        ("Order {id} shipped on {day} {month}.", "Order {id} shipped by {carrier}."),
        ("day", "month", "carrier", "id"),
        ("", "", "The tracking number is {trk}.",
         "Parcels from the {city} warehouse usually arrive in {n} working days."),
        ("Where is order {id}?", "Has order {id} shipped yet?", "When was order {id} sent?",
         "Can you track order {id} for me?", "Where is my order {id}?"),
    ),
    _OrderTemplate(
        "Order {id} was delivered to the {city} pickup point on {day} {month}.",
        ("Order {id} was delivered on {day} {month}.",
         "Order {id} was delivered to the {city} pickup point."),
        ("city", "day", "month", "id"),
        ("", "The pickup point keeps parcels for {n} days."),
        ("Was order {id} delivered?", "Where can I pick up order {id}?",
         "Can't find order {id}, where was it delivered?"),
    ),
    _OrderTemplate(
        "Order {id} is waiting for stock at the {city} warehouse.",
        ("Order {id} is waiting for stock.",),
        ("city", "id"),
        ("It is expected to ship on {day} {month}.",),
        ("Why has order {id} not shipped?", "When will order {id} ship?", "Is order {id} delayed?"),
    ),
    _OrderTemplate(
        "Order {id} was cancelled on {day} {month} at the customer's request.",
        ("Order {id} was cancelled on {day} {month}.",),
        ("day", "month", "id"),
        ("The refund of {amount} euros is sent to the original {method} payment.",),
        ("Why was order {id} cancelled?", "Where is my refund for order {id}?"),
    ),
)  # fmt: skip
_ORDER_LETTERS = tuple("ABCDEFGHJKLMNPRSTUVWXY")
# Roles of a record's strings: passage, first sentence, 2 rewordings, second sentence,
# 4 contradictions, question as written and in lower case.
_ROLES = 11
_MAY = _MONTHS.index("May")  # never a changed month: "may" is in _FUNCTION_WORDS


def _order_vocabulary() -> set[str]:
    """Words order records can contain; also checks their templates like `_sentence` does."""
    rng = random.Random(_KB_SEED)
    sample = {
        "id": "K20417", "day": "3", "month": "March", "carrier": "DHL", "city": "Berlin",
        "n": "4", "trk": "TRK1234567", "amount": "120", "method": "card",
    }  # fmt: skip
    other = {"id": ("B55555",), "day": ("17",), "month": ("October",), "carrier": ("GLS",),
             "city": ("Oslo",)}  # fmt: skip
    words = set().union(*(_words(v) for v in (*_MONTHS, *_CARRIERS, *_CITIES, *_METHODS)))
    for t in _ORDER_TEMPLATES:
        s = _sentence(rng, t.first, sample, short=t.short, wrong={f: other[f] for f in t.wrong})
        if len(s.contradictions) != len(t.wrong):
            raise ValueError(f"a contradiction of {t.first!r} changes more than one word")
        words |= set().union(*(_words(x.format(**sample)) for x in (t.first, *t.second)))
    return words


def _fmt(template: str, swap: str | None = None) -> pl.Expr:
    """`template`'s {field}s filled from columns; `swap` takes its value from `wrong_<swap>`."""
    fields = re.findall(r"\{(\w+)\}", template)
    columns = (pl.col(f"wrong_{f}" if f == swap else f) for f in fields)
    return pl.format(re.sub(r"\{\w+\}", "{}", template), *columns)


def _choose(options: Sequence[str], by: str) -> pl.Expr:
    """Per row, `options[by]` formatted; null where that option is empty."""
    out = pl.lit(None, dtype=pl.String)
    for i, option in enumerate(options):
        if option:
            out = pl.when(pl.col(by) == i).then(_fmt(option)).otherwise(out)
    return out


def _lookup(options: Sequence[str], index: np.ndarray) -> pl.Series:
    return pl.Series(pa.array(options, pa.large_string()).take(pa.array(index)))


def _other(
    value: np.ndarray, size: int, rng: np.random.Generator, avoid: Sequence[np.ndarray] = ()
) -> np.ndarray:
    """A different value in [0, size) per row, also unequal to every `avoid` array."""
    out = (value + rng.integers(1, size, len(value))) % size
    bad = np.zeros(len(value), dtype=bool)
    for _ in range(len(avoid) + 2):
        bad = out == value
        for a in avoid:
            bad |= out == a
        out = np.where(bad, (out + 1) % size, out)
    return out


@dataclass(frozen=True)
class _Orders:
    """`r` order records: their strings by role and what each record has."""

    strings: pa.Array  # (_ROLES * r,) role-major: role j of record i is at j * r + i
    n_short: np.ndarray  # (r,) rewordings of the first sentence (1 or 2)
    has_second: np.ndarray  # (r,)
    contradiction_token: np.ndarray  # (r, 4) value id of the changed word; -1 never clashes
    has_contradiction: np.ndarray  # (r, 4)


def _order_records(kb: _Kb, r: int, rng: np.random.Generator) -> _Orders:
    status = _pick(rng.random(r), np.broadcast_to(np.cumsum(_ORDER_STATUS_P), (r, 4)))
    day, n, amount = rng.integers(0, 28, r), rng.integers(2, 10, r), rng.integers(12, 481, r)
    month, carrier, city = rng.integers(0, 12, r), rng.integers(0, 6, r), rng.integers(0, 20, r)
    # Changed values differ from every number or name in the record, so the change is new.
    wrong = {
        "day": _other(day, 28, rng, (n - 1, amount - 1)),
        "month": _other(month, 12, rng, (np.full(r, _MAY),)),
        "carrier": _other(carrier, len(_CARRIERS), rng),
        "city": _other(city, len(_CITIES), rng),
    }
    number = rng.integers(10_000, 100_000, r)
    second = rng.random(r) * np.array([len(t.second) for t in _ORDER_TEMPLATES])[status]
    question = rng.random(r) * np.array([len(t.questions) for t in _ORDER_TEMPLATES])[status]
    values = pl.DataFrame(
        {
            "status": status,
            "second": second.astype(np.int64),
            "question": question.astype(np.int64),
            "id": _lookup(_ORDER_LETTERS, rng.integers(0, 22, r))
            + pl.Series(number).cast(pl.String),
            "wrong_id": _lookup(_ORDER_LETTERS, rng.integers(0, 22, r))
            + pl.Series((number - 10_000 + rng.integers(1, 90_000, r)) % 90_000 + 10_000).cast(
                pl.String
            ),
            "day": pl.Series(day + 1).cast(pl.String),
            "wrong_day": pl.Series(wrong["day"] + 1).cast(pl.String),
            "month": _lookup(_MONTHS, month),
            "wrong_month": _lookup(_MONTHS, wrong["month"]),
            "carrier": _lookup(_CARRIERS, carrier),
            "wrong_carrier": _lookup(_CARRIERS, wrong["carrier"]),
            "city": _lookup(_CITIES, city),
            "wrong_city": _lookup(_CITIES, wrong["city"]),
            "n": pl.Series(n).cast(pl.String),
            "trk": pl.Series(rng.integers(1_000_000, 10_000_000, r)).cast(pl.String),
            "amount": pl.Series(amount).cast(pl.String),
            "method": _lookup(_METHODS, rng.integers(0, len(_METHODS), r)),
        }
    ).with_row_index("row")
    values = values.with_columns(trk=pl.lit("TRK") + pl.col("trk"))
    null = pl.lit(None, dtype=pl.String)
    parts = []
    for s, t in enumerate(_ORDER_TEMPLATES):
        shorts = [_fmt(x) for x in t.short] + [null] * (2 - len(t.short))
        contras = [_fmt(t.first, swap=f) for f in t.wrong] + [null] * (4 - len(t.wrong))
        parts.append(
            values.filter(pl.col("status") == s).select(
                "row", _fmt(t.first).alias("first"),
                *(e.alias(f"short{i}") for i, e in enumerate(shorts)),
                _choose(t.second, "second").alias("second"),
                *(e.alias(f"wrong{i}") for i, e in enumerate(contras)),
                _choose(t.questions, "question").alias("question"),
            )
        )  # fmt: skip
    roles = (
        pl.concat(parts)
        .sort("row")
        .select(
            passage=pl.concat_str("first", "second", separator=" ", ignore_nulls=True),
            first="first", short0="short0", short1="short1", second="second",
            wrong0="wrong0", wrong1="wrong1", wrong2="wrong2", wrong3="wrong3",
            question="question",
            casual=pl.col("question").str.slice(0, 1).str.to_lowercase()
            + pl.col("question").str.slice(1),
        )
    )  # fmt: skip
    strings = pa.concat_arrays([c.to_arrow() for c in roles.get_columns()])

    has_second = np.zeros(r, dtype=bool)
    token = np.full((r, 4), -1, dtype=np.int64)
    has_contradiction = np.zeros((r, 4), dtype=bool)
    new_word = {
        "day": kb.value_ids(_DAYS)[wrong["day"]],
        "month": kb.value_ids(_MONTHS)[wrong["month"]],
        "carrier": kb.value_ids(_CARRIERS)[wrong["carrier"]],
        "city": kb.value_ids(_CITIES)[wrong["city"]],
        "id": np.full(r, -1, dtype=np.int64),  # a fresh order number is in no passage
    }
    for s, t in enumerate(_ORDER_TEMPLATES):
        rows = status == s
        has_second[rows] = np.array([bool(x) for x in t.second])[second[rows].astype(np.int64)]
        for f, field in enumerate(t.wrong):
            token[rows, f] = new_word[field][rows]
            has_contradiction[rows, f] = True
    n_short = np.array([len(t.short) for t in _ORDER_TEMPLATES])[status]
    return _Orders(strings, n_short, has_second, token, has_contradiction)


# --- drawing cases ----------------------------------------------------------------------------

# Relative traffic by hour of day (UTC): quiet at night, peaks late morning and evening.
_HOURLY = np.array(
    [2, 1, 1, 1, 1, 2, 4, 7, 10, 13, 15, 15, 13, 12, 12, 12, 11, 11, 12, 13, 12, 9, 6, 3],
    dtype=float,
)
_WEEKDAY = np.array([1.0, 1.0, 0.97, 0.95, 0.9, 0.65, 0.55])  # Monday first
# Answer-kind weights (grounded, unsupported, contradicting, chitchat) and their drift:
# 2.4.1 regresses (more invented and contradicted facts), llama-3.1-8b is weaker than 4o-mini.
_KIND_BASE = np.array([0.69, 0.185, 0.097, 0.03])
_KIND_BY_VERSION = np.array([[0.95, 1.1, 1.15, 1.2], [1.0, 1.0, 1.0, 1.0], [0.85, 1.35, 1.8, 1.0]])
_KIND_BY_MODEL = np.array([[1.04, 0.9, 0.85, 1.0], [0.88, 1.3, 1.4, 1.0]])
_GREETINGS = ("", "", "", "", "Hi, ", "Hello, ", "Hey! ", "Quick question: ", "Hi there. ")
# A greeting ending in a comma or colon runs on into the question, which then starts lower-case.
_RUNS_ON = np.array([g.endswith((", ", ": ")) for g in _GREETINGS])
_GREETING_LEN = np.array([len(g) for g in _GREETINGS])
_SIGN_OFFS = ("", " Thanks, Anna", " Best regards, Jonas", " Thank you! Maria", " Cheers, Tom")


def _draw_times(n: int, rng: np.random.Generator, start: dt.date, days: int) -> np.ndarray:
    """Sorted microseconds since `start` midnight: weekly and daily rhythm, slow growth."""
    weekday = np.array([(start + dt.timedelta(d)).weekday() for d in range(days)])
    per_day = _WEEKDAY[weekday] * (1.0 + 0.15 * np.arange(days) / max(days, 1))
    day = rng.choice(days, size=n, p=per_day / per_day.sum())
    hour = rng.choice(24, size=n, p=_HOURLY / _HOURLY.sum())
    offset = day * _US_PER_DAY + hour * _US_PER_HOUR + rng.integers(0, _US_PER_HOUR, n)
    offset.sort()
    return offset


def _pick(u: np.ndarray, cumulative: np.ndarray) -> np.ndarray:
    """Index of the category each uniform draw falls in, per row (`cumulative` is (n, k))."""
    return (u[:, None] >= cumulative[:, :-1]).sum(axis=1)


def _versions(t: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """App version by time: 2.3.0 fades out over the first half, 2.4.1 rolls out in the second."""
    old = 0.35 * np.clip(1.0 - t / 0.5, 0.0, 1.0)
    new = 0.85 * np.clip((t - 0.45) / 0.45, 0.0, 1.0)
    weights = np.stack([old, 1.0 - old - new, new], axis=1)
    return _pick(rng.random(len(t)), np.cumsum(weights, axis=1))


@dataclass(frozen=True)
class _Tables:
    """The knowledge base's tables extended with one chunk's order records."""

    pieces: pa.Array
    passages: pa.Array
    questions: pa.Array
    passage_sentences: np.ndarray
    sentence_text: np.ndarray
    grounded: np.ndarray
    grounded_count: np.ndarray
    contradicting: np.ndarray
    contradicting_count: np.ndarray
    contradiction_piece: np.ndarray
    contradiction_token: np.ndarray  # value id of a record contradiction's new word, else -1


def _stack(top: np.ndarray, bottom: np.ndarray) -> np.ndarray:
    """Rows of two -1 padded tables, padded to the wider one."""
    width = max(top.shape[1], bottom.shape[1])
    pad = [np.pad(a, ((0, 0), (0, width - a.shape[1])), constant_values=-1) for a in (top, bottom)]
    return np.concatenate(pad)


def _with_orders(kb: _Kb, orders: _Orders) -> _Tables:
    r = len(orders.n_short)
    n_sentences, n_contradictions = len(kb.sentence_text), len(kb.contradiction_piece)
    local = np.arange(_ROLES)[None, :] * r + np.arange(r)[:, None]  # into orders.strings
    role = len(kb.pieces) + local  # into the extended pieces
    first = n_sentences + 2 * np.arange(r)  # record sentence ids: first, first + 1
    sentences = np.stack([first, np.where(orders.has_second, first + 1, -1)], axis=1)
    grounded = np.full((2 * r, 3), -1, dtype=np.int64)
    grounded[0::2] = np.where(np.arange(3) < 1 + orders.n_short[:, None], role[:, 1:4], -1)
    grounded[1::2, 0] = role[:, 4]
    grounded_count = np.stack([1 + orders.n_short, np.ones(r, dtype=np.int64)], axis=1).ravel()
    ids = n_contradictions + 4 * np.arange(r)[:, None] + np.arange(4)[None, :]
    contradicting = np.full((2 * r, 4), -1, dtype=np.int64)
    contradicting[0::2] = _compact(np.where(orders.has_contradiction, ids, -1))
    contradicting_count = np.stack(
        [orders.has_contradiction.sum(axis=1), np.zeros(r, dtype=np.int64)], axis=1
    ).ravel()
    return _Tables(
        pieces=pa.concat_arrays([kb.pieces, orders.strings]),
        passages=pa.concat_arrays([kb.passage_text, orders.strings.take(pa.array(local[:, 0]))]),
        questions=pa.concat_arrays(
            [kb.questions, orders.strings.take(pa.array(local[:, 9:].ravel()))]
        ),
        passage_sentences=_stack(kb.passage_sentences, sentences),
        sentence_text=np.concatenate(
            [kb.sentence_text, kb.sentence_text.max() + 1 + np.arange(2 * r)]
        ),
        grounded=_stack(kb.grounded, grounded),
        grounded_count=np.concatenate([kb.grounded_count, grounded_count]),
        contradicting=_stack(kb.contradicting, contradicting),
        contradicting_count=np.concatenate([kb.contradicting_count, contradicting_count]),
        contradiction_piece=np.concatenate([kb.contradiction_piece, role[:, 5:9].ravel()]),
        contradiction_token=np.concatenate(
            [np.full(n_contradictions, -1), orders.contradiction_token.ravel()]
        ),
    )


def _contexts(
    kb: _Kb, n: int, rng: np.random.Generator, popularity: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """A knowledge-base passage drawn by popularity and up to 3 distinct others next to it."""
    n_passages = len(kb.passages)
    primary = rng.choice(n_passages, size=n, p=popularity)
    k = rng.choice(4, size=n, p=[0.12, 0.38, 0.32, 0.18]) + 1
    extras = np.full((n, 3), -1, dtype=np.int64)
    neighbour = primary.copy()
    chosen = [primary]
    for j in range(3):
        # Retrievers return related passages (neighbours in the topic-ordered base) or
        # popular ones that happen to match.
        neighbour = (neighbour + rng.integers(1, 6, n)) % n_passages
        popular = rng.choice(n_passages, size=n, p=kb.popularity)
        cand = np.where(rng.random(n) < 0.6, neighbour, popular)
        clash = np.any(np.stack([cand == c for c in chosen]), axis=0)
        while clash.any():
            cand = np.where(clash, (cand + 1) % n_passages, cand)
            clash = np.any(np.stack([cand == c for c in chosen]), axis=0)
        chosen.append(cand)
        extras[:, j] = np.where(j + 1 < k, cand, -1)
    return primary, extras


def _variant(table: np.ndarray, count: np.ndarray, ids: np.ndarray, u: np.ndarray) -> np.ndarray:
    """A random entry of row `ids` of a padded table (first entry favoured); -1 where none."""
    safe = np.maximum(ids, 0)
    n = count[safe]
    col = np.where(u < 0.5, 0, np.minimum((u * 2 - 1) * n, n - 1).astype(np.int64))
    out = table[safe, np.maximum(col, 0)]
    return np.where((ids >= 0) & (n > 0), out, -1)


def _compact(rows: np.ndarray) -> np.ndarray:
    """Move each row's -1 entries to the end, keeping the order of the rest."""
    order = np.argsort(rows < 0, axis=1, kind="stable")
    return np.take_along_axis(rows, order, axis=1)


def _grounded_order(
    t: _Tables,
    primary: np.ndarray,
    extras: np.ndarray,
    skip_first: np.ndarray,
    rng: np.random.Generator,
) -> np.ndarray:
    """Sentences an answer may use, in answer order, -1 padded (n, 6).

    The primary passage's sentences in order (its first left out where `skip_first`, being
    contradicted), then the first sentence of each other passage in random order.
    """
    n = len(primary)
    extra_first = np.where(extras >= 0, t.passage_sentences[np.maximum(extras, 0), 0], -1)
    cand = np.concatenate([t.passage_sentences[primary, :3], extra_first], axis=1)
    key = np.concatenate([np.tile(np.arange(3.0), (n, 1)), 3.0 + rng.random((n, 3))], axis=1)
    key[skip_first, 0] = 9.0
    key[cand < 0] = 9.0
    order = np.argsort(key, axis=1)
    cand = np.where(
        np.take_along_axis(key, order, axis=1) < 9.0, np.take_along_axis(cand, order, axis=1), -1
    )
    # Two passages may share a sentence word for word; say it once.
    text = np.where(cand >= 0, t.sentence_text[np.maximum(cand, 0)], -1)
    for j in range(1, 4):
        repeated = np.any(text[:, :j] == text[:, j : j + 1], axis=1) & (cand[:, j] >= 0)
        cand[repeated, j] = -1
    return _compact(cand)


def _clashes(kb: _Kb, t: _Tables, passage: np.ndarray, contradiction: np.ndarray) -> np.ndarray:
    """True where `passage` holds the word `contradiction` changed (the judge would agree)."""
    in_kb = (passage >= 0) & (passage < len(kb.passages))
    p = np.where(in_kb, passage, 0)
    c = np.maximum(contradiction, 0)
    from_kb = c < len(kb.contradiction_piece)
    token = t.contradiction_token[c]
    held_kb = kb.contradiction_clash[p, np.where(from_kb, c, 0)] & from_kb
    held_value = kb.value_has[p, np.maximum(token, 0)] & (token >= 0)
    return in_kb & (contradiction >= 0) & (held_kb | held_value)


def _answers(
    kb: _Kb,
    t: _Tables,
    primary: np.ndarray,
    extras: np.ndarray,
    *,
    kind: np.ndarray,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray]:
    """Piece ids of each answer's sentences (n, 4, -1 padded) and the final answer kind."""
    n = len(primary)
    none = np.full(n, -1)
    unsupported = kb.unsupported[rng.integers(0, len(kb.unsupported), n)]
    opener = kb.openers[rng.integers(0, len(kb.openers), n)]
    closer = kb.closers[rng.integers(0, len(kb.closers), n)]

    # A contradiction of the primary passage's first sentence whose changed word no passage of
    # the case holds (else the judge would find it supported); none left -> invent instead.
    contra = none.copy()
    target = t.passage_sentences[primary, 0]
    n_contra = t.contradicting_count[target]
    start = rng.integers(0, 4, n)
    context = np.concatenate([primary[:, None], extras], axis=1)
    for attempt in range(4):
        cid = t.contradicting[target, (start + attempt) % np.maximum(n_contra, 1)]
        clash = np.zeros(n, dtype=bool)
        for j in range(4):
            clash |= _clashes(kb, t, context[:, j], cid)
        ok = (cid >= 0) & ~clash & (contra < 0)
        contra = np.where(ok, t.contradiction_piece[np.maximum(cid, 0)], contra)
    kind = np.where((kind == 2) & (contra < 0), 1, kind)

    sources = _grounded_order(t, primary, extras, kind == 2, rng)
    # At most one sentence from a passage other than the one asked about.
    own = (t.passage_sentences[primary] >= 0).sum(axis=1) - (kind == 2)
    available = np.minimum((sources >= 0).sum(axis=1), own + 1)
    g = [_variant(t.grounded, t.grounded_count, sources[:, j], rng.random(n)) for j in range(3)]

    def take(count: np.ndarray) -> list[np.ndarray]:
        """The first `count` grounded sentences (capped by what the passages hold)."""
        cap = np.minimum(count, available)
        return [np.where(j < cap, g[j], -1) for j in range(3)]

    # Canned replies: the primary passage's first sentence, verbatim, alone.
    canned = rng.random(n) < 0.1
    g0, g1, g2 = take(rng.choice(3, size=n, p=[0.2, 0.45, 0.35]) + 1)
    grounded = np.stack(
        [np.where(canned, t.grounded[target, 0], g0), np.where(canned, -1, g1),
         np.where(canned, -1, g2), none], axis=1,
    )  # fmt: skip
    first = rng.random(n) < 0.2
    sign_off = np.where(rng.random(n) < 0.3, closer, -1)
    t0, t1, _ = take(rng.choice(3, size=n, p=[0.1, 0.6, 0.3]))
    invented = np.stack(
        [np.where(first, unsupported, t0), np.where(first, t0, t1),
         np.where(first, t1, unsupported), sign_off], axis=1,
    )  # fmt: skip
    c1, c2, _ = take(rng.choice(3, size=n, p=[0.35, 0.45, 0.2]))
    extra = np.where(rng.random(n) < 0.15, unsupported, np.where(rng.random(n) < 0.2, closer, -1))
    contradicting = np.stack([contra, c1, c2, extra], axis=1)
    small_talk = np.stack([np.where(rng.random(n) < 0.5, -1, opener), closer, none, none], axis=1)

    options = np.stack([grounded, invented, contradicting, small_talk])  # (4, n, 4)
    return _compact(options[kind, np.arange(n)]), kind


def _lists(values: pa.Array, ids: np.ndarray) -> pa.Array:
    """Arrow list array of `values[ids]` per row, skipping -1 (ids is (n, width))."""
    lengths = (ids >= 0).sum(axis=1)
    offsets = np.zeros(len(ids) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    flat = values.take(pa.array(ids[ids >= 0]))
    return pa.LargeListArray.from_arrays(pa.array(offsets), flat)


def _chunk(
    kb: _Kb,
    offsets_us: np.ndarray,
    first_id: int,
    rng: np.random.Generator,
    *,
    start: dt.date,
    days: int,
    with_labels: bool,
) -> pl.DataFrame:
    n = len(offsets_us)
    version = _versions(offsets_us / (days * _US_PER_DAY), rng)
    channel = rng.choice(3, size=n, p=[0.55, 0.35, 0.10])
    model = (rng.random(n) < np.where(channel == 2, 0.6, 0.2)).astype(np.int64)
    weights = _KIND_BASE * _KIND_BY_VERSION[version] * _KIND_BY_MODEL[model]
    kind = _pick(rng.random(n), np.cumsum(weights / weights.sum(axis=1, keepdims=True), axis=1))

    # Nearly half the questions are about the customer's own order: the bot looked up the
    # order record and read a few policy passages next to it.
    is_order = rng.random(n) < _ORDER_SHARE
    record = np.cumsum(is_order) - 1
    tables = _with_orders(kb, _order_records(kb, int(is_order.sum()), rng))
    kb_primary, kb_extras = _contexts(kb, n, rng, kb.popularity)
    anchor, more = _contexts(kb, n, rng, kb.order_popularity)
    alone = rng.random(n) < 0.15
    order_extras = np.where(alone[:, None], -1, np.stack([anchor, more[:, 0], more[:, 1]], axis=1))
    primary = np.where(is_order, len(kb.passages) + record, kb_primary)
    extras = np.where(is_order[:, None], order_extras, kb_extras)
    answer_ids, kind = _answers(kb, tables, primary, extras, kind=kind, rng=rng)

    # The passage the question is about is usually, not always, the retriever's first hit.
    context = _compact(np.concatenate([primary[:, None], extras], axis=1))
    k = (context >= 0).sum(axis=1)
    shift = np.where(rng.random(n) < 0.3, rng.integers(0, 4, n) % k, 0)
    cols = (np.arange(4)[None, :] + shift[:, None]) % k[:, None]
    context = np.where(np.arange(4)[None, :] < k[:, None], np.take_along_axis(context, cols, 1), -1)

    q = np.where(
        is_order,
        len(kb.questions) + 2 * record,
        _variant(kb.passage_questions, kb.question_count, kb_primary, rng.random(n)),
    )
    greeting = rng.integers(0, len(_GREETINGS), n)
    casual = _RUNS_ON[greeting] | ((_GREETING_LEN[greeting] == 0) & (rng.random(n) < 0.15))
    sign_off = np.where(channel == 2, rng.integers(1, len(_SIGN_OFFS), n), 0)

    frame = pl.DataFrame(
        {
            "case_id": pl.int_range(first_id, first_id + n, eager=True),
            "greeting": _lookup(_GREETINGS, greeting),
            "question": pl.Series(tables.questions.take(pa.array(q + casual))),
            "sign_off": _lookup(_SIGN_OFFS, sign_off),
            "actual_output": pl.Series(_lists(tables.pieces, answer_ids)).list.join(" "),
            "retrieval_context": pl.Series(_lists(tables.passages, context)),
            "logged_at": pl.Series(
                np.datetime64(start, "us") + offsets_us.astype("timedelta64[us]")
            ),
            "app_version": _lookup(APP_VERSIONS, version),
            "model": _lookup(MODELS, model),
            "channel": _lookup(CHANNELS, channel),
            "answer_kind": _lookup(ANSWER_KINDS, kind),
        }
    )
    frame = frame.with_columns(
        case_id=pl.lit("c") + pl.col("case_id").cast(pl.String).str.zfill(9),
        input=pl.concat_str("greeting", "question", "sign_off"),
    ).select(*SCHEMA, *(["answer_kind"] if with_labels else []))
    return frame.cast(SCHEMA)


def iter_cases(
    n: int,
    *,
    seed: int = 0,
    start: dt.date = dt.date(2026, 10, 1),
    days: int = 30,
    id_offset: int = 0,
    with_labels: bool = False,
) -> Iterator[pl.DataFrame]:
    """`generate_cases` in chunks of at most 100,000 rows, for bounded memory at any `n`."""
    if n < 0 or days < 1:
        raise ValueError(f"need n >= 0 and days >= 1, got n={n}, days={days}")
    kb = _knowledge_base()
    offsets = _draw_times(n, np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(0,))),
                          start, days)  # fmt: skip
    for i, first in enumerate(range(0, n, _CHUNK_ROWS)):
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(i + 1,)))
        yield _chunk(
            kb, offsets[first : first + _CHUNK_ROWS], id_offset + first, rng,
            start=start, days=days, with_labels=with_labels,
        )  # fmt: skip


def generate_cases(
    n: int,
    *,
    seed: int = 0,
    start: dt.date = dt.date(2026, 10, 1),
    days: int = 30,
    id_offset: int = 0,
    with_labels: bool = False,
) -> pl.DataFrame:
    """`n` logged cases over `days` days from `start`, the same for the same arguments.

    `id_offset` numbers case_ids from there (for appending months); `with_labels` adds the
    `answer_kind` each answer was built as (grounded, unsupported, contradicting, chitchat).
    """
    frames = list(
        iter_cases(n, seed=seed, start=start, days=days, id_offset=id_offset,
                   with_labels=with_labels)
    )  # fmt: skip
    if not frames:
        extra = {"answer_kind": pl.String()} if with_labels else {}
        return pl.DataFrame(schema={**SCHEMA, **extra})
    return pl.concat(frames, rechunk=True)


# --- table forms and writing ------------------------------------------------------------------


def to_three_tables(cases: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """Split a wide cases table into questions, long-form contexts and outputs.

    Columns beyond the contract (extra segments) go with the questions.
    """
    extra = [c for c in cases.columns if c not in SCHEMA]
    questions = cases.select(*QUESTION_COLUMNS, *extra)
    contexts = (
        cases.select(
            "case_id",
            position=pl.int_ranges(pl.col("retrieval_context").list.len(), dtype=pl.Int32),
            text="retrieval_context",
        )
        .explode("position", "text")
        .drop_nulls("position")
    )
    return questions, contexts, cases.select(OUTPUT_COLUMNS)


def _parts(frames: Iterable[pl.DataFrame], rows: int) -> Iterator[pl.DataFrame]:
    """Re-cut a stream of frames into frames of exactly `rows` rows (the last may be shorter)."""
    buffer: list[pl.DataFrame] = []
    held = 0
    for frame in frames:
        buffer.append(frame)
        held += frame.height
        while held >= rows:
            joined = pl.concat(buffer)
            yield joined.head(rows)
            rest = joined.slice(rows)
            buffer, held = [rest], rest.height
    if held:
        yield pl.concat(buffer)


def _tables(frame: pl.DataFrame, form: Form) -> dict[str, pl.DataFrame]:
    if form == "wide":
        return {"cases": frame}
    questions, contexts, outputs = to_three_tables(frame)
    return {"questions": questions, "contexts": contexts, "outputs": outputs}


def write_stream(
    frames: Iterable[pl.DataFrame],
    path: str | Path,
    *,
    form: Form = "wide",
    rows_per_file: int | None = None,
) -> tuple[int, list[Path]]:
    """Write frames of cases as zstd Parquet without holding them all; (rows, files written).

    wide: one file at `path`, or `path/part-00000.parquet`, ... with `rows_per_file`.
    three: `path/{questions,contexts,outputs}.parquet`, or those sub-folders of part files.
    """
    if form not in ("wide", "three"):
        raise ValueError(f"form must be 'wide' or 'three', got {form!r}")
    if rows_per_file is not None and rows_per_file < 1:
        raise ValueError(f"rows_per_file must be positive, got {rows_per_file}")
    if rows_per_file is None:
        return _write_files(frames, Path(path), form)
    return _write_parts(frames, Path(path), form, rows_per_file)


def _write_files(frames: Iterable[pl.DataFrame], path: Path, form: Form) -> tuple[int, list[Path]]:
    """One file per table, appended chunk by chunk and renamed into place when complete."""
    targets = {name: path if form == "wide" else path / f"{name}.parquet" for name in _names(form)}
    partial = {name: t.with_name(f".{t.name}.partial") for name, t in targets.items()}
    writers: dict[str, pq.ParquetWriter] = {}
    rows = 0
    try:
        stream = iter(frames)
        first = next(stream, pl.DataFrame(schema=SCHEMA))  # gives the schema, even with no rows
        for frame in _prepend(first, stream):
            rows += frame.height
            for name, table in _tables(frame, form).items():
                arrow = table.to_arrow()
                if name not in writers:
                    partial[name].parent.mkdir(parents=True, exist_ok=True)
                    writers[name] = pq.ParquetWriter(
                        partial[name], arrow.schema, compression="zstd"
                    )
                if table.height:
                    writers[name].write_table(arrow)
    except BaseException:
        for writer in writers.values():
            writer.close()
        for file in partial.values():
            file.unlink(missing_ok=True)
        raise
    for name, writer in writers.items():
        writer.close()
        partial[name].replace(targets[name])
    return rows, list(targets.values())


def _write_parts(
    frames: Iterable[pl.DataFrame], path: Path, form: Form, rows_per_file: int
) -> tuple[int, list[Path]]:
    """Part files of `rows_per_file` cases; stale part files in the folders are removed first."""
    folders = {name: path if form == "wide" else path / name for name in _names(form)}
    for folder in folders.values():
        folder.mkdir(parents=True, exist_ok=True)
        for stale in folder.glob("part-*.parquet"):
            stale.unlink()
    rows, written = 0, []
    for i, part in enumerate(_parts(frames, rows_per_file)):
        rows += part.height
        for name, table in _tables(part, form).items():
            file = folders[name] / f"part-{i:05d}.parquet"
            table.write_parquet(file, compression="zstd")
            written.append(file)
    return rows, written


def _names(form: Form) -> tuple[str, ...]:
    return ("cases",) if form == "wide" else ("questions", "contexts", "outputs")


def write_cases(
    cases: pl.DataFrame,
    path: str | Path,
    *,
    form: Form = "wide",
    rows_per_file: int | None = None,
) -> list[Path]:
    """Write a cases table as zstd Parquet, wide or as three tables; returns the files written."""
    return write_stream([cases], path, form=form, rows_per_file=rows_per_file)[1]


def main(argv: Sequence[str] | None = None) -> int:
    """CLI: generate cases and write them as Parquet."""
    parser = argparse.ArgumentParser(description="Generate logged RAG cases as Parquet.")
    parser.add_argument("--rows", type=int, required=True, help="generated cases")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--start", type=dt.date.fromisoformat, default=dt.date(2026, 10, 1))
    parser.add_argument("--out", type=Path, required=True, help="file (wide) or folder")
    parser.add_argument("--form", choices=("wide", "three"), default="wide")
    parser.add_argument("--rows-per-file", type=int, default=None)
    parser.add_argument("--id-offset", type=int, default=0, help="first case_id number")
    parser.add_argument("--with-seed-cases", action="store_true", help="prepend the seed's 3")
    parser.add_argument("--labels", action="store_true", help="add the answer_kind column")
    args = parser.parse_args(argv)

    began = time.perf_counter()
    frames: Iterable[pl.DataFrame] = iter_cases(
        args.rows, seed=args.seed, start=args.start, days=args.days, id_offset=args.id_offset,
        with_labels=args.labels,
    )  # fmt: skip
    if args.with_seed_cases:
        seeds = seed_cases(args.start)
        if args.labels:
            kinds = ["grounded", "unsupported", "contradicting"]
            seeds = seeds.with_columns(answer_kind=pl.Series(kinds, dtype=pl.String))
        frames = _prepend(seeds, frames)
    rows, files = write_stream(frames, args.out, form=args.form, rows_per_file=args.rows_per_file)
    seconds = time.perf_counter() - began
    size = sum(f.stat().st_size for f in files)
    print(f"wrote {rows} rows to {args.out} ({len(files)} files, {size / 1e6:.2f} MB) "
          f"in {seconds:.2f} s")  # fmt: skip
    return 0


def _prepend(first: pl.DataFrame, rest: Iterable[pl.DataFrame]) -> Iterator[pl.DataFrame]:
    yield first
    yield from rest


if __name__ == "__main__":
    sys.exit(main())
