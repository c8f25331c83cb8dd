"""Per-case order records, formatted with polars expressions."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import polars as pl
import pyarrow as pa

from data.generator.contract import _KB_SEED, _pick
from data.generator.passages import _sentence, _words
from data.generator.vocabulary import _CARRIERS, _CITIES, _DAYS, _METHODS, _MONTHS

if TYPE_CHECKING:
    from data.generator.knowledge_base import _Kb

# The judge's own word rules, so what the data is built to test is what the judge reads.

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
