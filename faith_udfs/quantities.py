"""Quantities of a text for the grounded judge's unit rule (v7): each number paired with each
unit at most QUANTITY_REACH content words before or after it ("5 working days", "€10 per
month", "20%"); from v8 each unit with its nearest number only, the one before it first. A
claim that gives a number units its best sentence gives it none of, while that sentence gives
it others ("5 weeks" where it says "5 working days"), says otherwise (`units_swapped`; from v8
kind by kind). The batch path reads quantities with polars, the one-case twin with
`quantities_of`, the same way."""

from __future__ import annotations

import re
from collections.abc import Mapping

import polars as pl

from faith_udfs.grounded_words import GROUNDED_STOP_WORDS
from faith_udfs.word_rules import WordRules
from faith_udfs.words import WORD_PATTERN, WORD_SEPARATOR, cached_when_short, normalized

QUANTITY_REACH = 2
# Words between a number and its unit that do not part them: "5 working days", "10 per month".
QUANTITY_FILLERS = frozenset({"per", "working", "business", "calendar"})
# Signs are no words; read beside their amount as the unit they stand for ("€50", "20%").
UNIT_SIGNS = {"€": " euro ", "$": " dollar ", "£": " gbp ", "%": " percent "}
# A clock time is no amount ("9:00" is one token, no number); a decimal or thousands mark joins
# its digits ("578.31" is one number, not 578 and 31). The same in Rust's and Python's syntax.
_CLOCK, _CLOCK_AS, _CLOCK_AS_RE = r"(\d):(\d\d)", "${1}h${2}", r"\1h\2"
_MARK, _MARK_AS, _MARK_AS_RE = r"(\d)[.,](\d)", "${1}${2}", r"\1\2"
_SKIPPED = sorted(GROUNDED_STOP_WORDS | QUANTITY_FILLERS)
_NOT = r"(?i)n['’]t\b"
_NUMBER = r"^[0-9]+$"
_OFFSETS = [d for d in range(-QUANTITY_REACH, QUANTITY_REACH + 1) if d]
# v8 (WordRules.nearest_number): the places a unit's number is looked for, nearest first, those
# before it first; a currency sign before its amount ("€10") is read after it ("10 euro"), as
# "%" is written.
_NEAREST = sorted(_OFFSETS, key=lambda d: -d if d < 0 else d + QUANTITY_REACH)
_SIGNED = {sign: rf"{re.escape(sign)}\s*([0-9][0-9.,]*)" for sign in "€$£"}
_EMPTY = {"text_hash": pl.UInt64, "number": pl.String, "unit": pl.String}


def quantity_rows(texts: pl.DataFrame, rules: WordRules) -> pl.DataFrame:
    """(`text_hash`, `number`, `unit`), each pair once, of each distinct text of `texts`
    (`text_hash`, `text`) that may hold one (a digit and a unit's form or sign)."""
    if not rules.unit_names:
        return pl.DataFrame(schema=_EMPTY)
    frame = normalized(texts.select("text_hash", "text").unique("text_hash"), "text")
    text = pl.col("text")
    frame = frame.filter(text.str.contains(r"\d") & text.str.contains(rules.any_unit))
    if frame.is_empty():
        return pl.DataFrame(schema=_EMPTY)
    for sign, word in UNIT_SIGNS.items():
        if rules.nearest_number and sign in _SIGNED:
            text = text.str.replace_all(_SIGNED[sign], f"${{1}}{word}")
        text = text.str.replace_all(sign, word, literal=True)
    text = text.str.replace_all(_CLOCK, _CLOCK_AS).str.replace_all(_MARK, _MARK_AS)
    words = text.str.replace_all(_NOT, " not").str.to_lowercase()
    tokens = (
        frame.select("text_hash", token=words.str.split(WORD_SEPARATOR, literal=False))
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
    # Each unit looks at the QUANTITY_REACH places on either side: a join on positions, not a
    # product of a text's numbers and units (a price list of 2,000 lines made that 2.4 GB).
    near = (
        tokens.filter(token.is_in(sorted(rules.unit_names)))
        .select("text_hash", unit_at="position", unit=token)
        .join(pl.DataFrame({"offset": _OFFSETS}), how="cross")
        .with_columns(position=pl.col("unit_at") + pl.col("offset"))
    )
    paired = near.join(numbers, on=["text_hash", "position"])
    if rules.nearest_number:  # each unit's nearest number only (_NEAREST's order)
        offset = pl.col("offset")
        rank = pl.when(offset < 0).then(-offset).otherwise(offset + QUANTITY_REACH)
        paired = paired.filter(rank == rank.min().over("text_hash", "unit_at"))
    return paired.select("text_hash", "number", "unit").unique(maintain_order=True)


def units_swapped(
    claim_rows: pl.DataFrame, best_rows: pl.DataFrame, kinds: Mapping[str, str]
) -> pl.Series:
    """The `claim_row`s, each once, with a number their best sentence gives units of its own
    only, none of the claim's (`claim_row`, `number`, `unit` on both sides): "5 weeks" where it
    says "5 working days". Any unit in common is no swap ("5 euros and takes 3 days" pairs 3
    with euros too). With `kinds` (v8: each unit's kind), the same holds kind by kind: units of
    one kind on both sides, none in common, are a swap though another kind's unit is shared
    ("20 euros per month" where it says "20 euros per year")."""
    keys = ["claim_row", "number"]
    # each unit the claim gives a number beside each its best sentence gives the same number
    pairs = claim_rows.join(best_rows, on=keys, suffix="_best")
    shared = (pl.col("unit") == pl.col("unit_best")).any().alias("shared")
    swapped = pairs.group_by(keys).agg(shared).filter(~pl.col("shared"))["claim_row"]
    if kinds:
        kind = pl.col("unit").replace_strict(kinds, default=None, return_dtype=pl.String)
        kind_best = pl.col("unit_best").replace_strict(kinds, default=None, return_dtype=pl.String)
        alike = pairs.with_columns(kind=kind).filter(pl.col("kind") == kind_best)
        by_kind = alike.group_by([*keys, "kind"]).agg(shared).filter(~pl.col("shared"))
        swapped = pl.concat([swapped, by_kind["claim_row"]])
    return swapped.unique()


@cached_when_short(2**12)
def quantities_of(text: str, rules: WordRules) -> Mapping[str, frozenset[str]]:
    """quantity_rows of one text (printable ASCII: the one-case twin): each number's units."""
    if not rules.unit_names or not re.search(r"\d", text) or not rules.unit_pattern.search(text):
        return {}
    for sign, word in UNIT_SIGNS.items():
        if rules.nearest_number and sign in _SIGNED:
            text = re.sub(_SIGNED[sign], rf"\1{word}", text)
        text = text.replace(sign, word)
    text = re.sub(_MARK, _MARK_AS_RE, re.sub(_CLOCK, _CLOCK_AS_RE, text))
    words = [
        rules.form_of.get(word, word)
        for word in re.findall(WORD_PATTERN, re.sub(_NOT, " not", text).lower())
        if word not in GROUNDED_STOP_WORDS and word not in QUANTITY_FILLERS
    ]
    number_at = {i: word for i, word in enumerate(words) if re.fullmatch("[0-9]+", word)}
    units: dict[str, set[str]] = {}
    for i, word in enumerate(words):
        if word in rules.unit_names:
            for offset in _NEAREST if rules.nearest_number else _OFFSETS:
                if i + offset in number_at:
                    units.setdefault(number_at[i + offset], set()).add(word)
                    if rules.nearest_number:
                        break
    return {number: frozenset(found) for number, found in units.items()}


def says_other_unit(claim: str, sentence: str, rules: WordRules) -> bool:
    """units_swapped of one claim and its best sentence (the one-case twin)."""
    theirs = quantities_of(sentence, rules)
    kind_of = rules.kind_of
    for number, units in quantities_of(claim, rules).items():
        other = theirs.get(number)
        if other is None:
            continue
        if not units & other:
            return True
        for kind in {kind_of[unit] for unit in units if unit in kind_of}:
            mine = {unit for unit in units if kind_of.get(unit) == kind}
            given = {unit for unit in other if kind_of.get(unit) == kind}
            if given and not mine & given:
                return True
    return False
