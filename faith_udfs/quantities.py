"""Quantities of a text for the grounded judge's unit rule (v7): each number paired with each
unit at most QUANTITY_REACH content words before or after it ("5 working days", "€10 per
month", "20 euros per month"). A claim with a quantity its best sentence lacks, while that
sentence gives the same number with another unit ("5 weeks" where it says "5 working days"),
says otherwise (`units_swapped`). The batch path reads quantities with polars, the one-case twin
with `quantities_of`, the same way."""

from __future__ import annotations

import re
from functools import lru_cache

import polars as pl

from faith_udfs.grounded_words import GROUNDED_STOP_WORDS
from faith_udfs.word_rules import WordRules
from faith_udfs.words import WORD_PATTERN, WORD_SEPARATOR, normalized

QUANTITY_REACH = 2
# Words between a number and its unit that do not part them: "5 working days", "10 per month".
QUANTITY_FILLERS = frozenset({"per", "working", "business", "calendar"})
# Currency signs are no words; read beside their amount as the unit they stand for ("€50").
CURRENCY_SIGNS = {"€": " euro ", "$": " dollar ", "£": " gbp "}
_SKIPPED = sorted(GROUNDED_STOP_WORDS | QUANTITY_FILLERS)
_NOT = r"(?i)n['’]t\b"
_NUMBER = r"^[0-9]+$"
_EMPTY = {"text_hash": pl.UInt64, "number": pl.String, "unit": pl.String}


def quantity_rows(texts: pl.DataFrame, rules: WordRules) -> pl.DataFrame:
    """(`text_hash`, `number`, `unit`), each pair once, of each distinct text of `texts`
    (`text_hash`, `text`) that may hold one (a digit and a unit's form or a currency sign)."""
    if not rules.unit_names:
        return pl.DataFrame(schema=_EMPTY)
    frame = texts.select("text_hash", "text").unique("text_hash")
    frame = frame.filter(
        pl.col("text").str.contains(r"\d") & pl.col("text").str.contains(rules.any_unit)
    )
    if frame.is_empty():
        return pl.DataFrame(schema=_EMPTY)
    text = pl.col("text")
    for sign, word in CURRENCY_SIGNS.items():
        text = text.str.replace_all(sign, word, literal=True)
    words = text.str.replace_all(_NOT, " not").str.to_lowercase()
    tokens = (
        normalized(frame, "text")
        .select("text_hash", token=words.str.split(WORD_SEPARATOR, literal=False))
        .explode("token")
        .filter((pl.col("token") != "") & ~pl.col("token").is_in(_SKIPPED))
        .with_columns(
            pl.col("token").replace(rules.form_of),
            position=pl.int_range(pl.len()).over("text_hash"),
        )
    )
    token = pl.col("token")
    numbers = tokens.filter(token.str.contains(_NUMBER)).select(
        "text_hash", "position", number=token
    )
    units = tokens.filter(token.is_in(sorted(rules.unit_names))).select(
        "text_hash", unit_position="position", unit=token
    )
    near = (pl.col("position") - pl.col("unit_position")).abs() <= QUANTITY_REACH
    return (
        numbers.join(units, on="text_hash")
        .filter(near)
        .select("text_hash", "number", "unit")
        .unique(maintain_order=True)
    )


def units_swapped(claim_rows: pl.DataFrame, best_rows: pl.DataFrame) -> pl.Series:
    """The `claim_row`s, each once, with a quantity (`claim_row`, `number`, `unit`) their best
    sentence's quantities (the same columns) lack while they give its number another unit."""
    missing = claim_rows.join(best_rows, on=["claim_row", "number", "unit"], how="anti")
    return (
        missing.join(best_rows, on=["claim_row", "number"], suffix="_best")
        .filter(pl.col("unit") != pl.col("unit_best"))["claim_row"]
        .unique()
    )


@lru_cache(maxsize=2**12)
def quantities_of(text: str, rules: WordRules) -> frozenset[tuple[str, str]]:
    """quantity_rows of one text (printable ASCII: the one-case twin): its (number, unit)s."""
    if not rules.unit_names or not re.search(r"\d", text) or not rules.unit_pattern.search(text):
        return frozenset()
    for sign, word in CURRENCY_SIGNS.items():
        text = text.replace(sign, word)
    words = [
        rules.form_of.get(word, word)
        for word in re.findall(WORD_PATTERN, re.sub(_NOT, " not", text).lower())
        if word not in GROUNDED_STOP_WORDS and word not in QUANTITY_FILLERS
    ]
    numbers = [(i, word) for i, word in enumerate(words) if re.fullmatch("[0-9]+", word)]
    units = [(i, word) for i, word in enumerate(words) if word in rules.unit_names]
    return frozenset(
        (number, unit) for i, number in numbers for j, unit in units if abs(i - j) <= QUANTITY_REACH
    )


def says_other_unit(claim: str, sentence: str, rules: WordRules) -> bool:
    """units_swapped of one claim and its best sentence (the one-case twin)."""
    theirs = quantities_of(sentence, rules)
    return any(
        (number, unit) not in theirs and any(n == number and u != unit for n, u in theirs)
        for number, unit in quantities_of(claim, rules)
    )
