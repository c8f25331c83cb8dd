"""The knowledge base's passages, topic by topic: each sentence with the questions it
answers."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from data.generator.vocabulary import (
    _CARRIERS,
    _CATEGORIES,
    _CITIES,
    _COUNTRIES,
    _DAYS,
    _FEATURES,
    _FUNCTION_WORDS,
    _METHODS,
    _MONTHS,
    _PARTS,
    _PLANS,
    _PRODUCTS,
    _STOP,
    _STREETS,
    _VOUCHER_WORDS,
    _WORD,
)

# The judge's own word rules, so what the data is built to test is what the judge reads.


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
