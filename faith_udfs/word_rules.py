"""What a grounded rules version reads as a figure, as a unit, and as words that say the
opposite of each other: a claim that puts one in place of its best sentence's is contradicted
(grounded_support.contradicted). v7 added dates, units and opposites to v1's numbers."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property

import polars as pl

from faith_udfs.grounded_words import NUMBER_WORDS
from faith_udfs.opposite_clauses import ordered_alike, ordered_alike_expr
from faith_udfs.words import normalized

# v7: the names of months (and their abbreviations) and of weekdays are figures too, so a date
# swapped for another of the best sentence ("12 November" where it says "12 January", "open
# Monday to Saturday" where it says "to Friday") is a contradiction, as a swapped number is; v6
# read them as names, which a long claim's other words carried past the cut-off. Left out:
# "may" (a claim's modal verb, most often: "You may return it within 30 days." lost its `yes`),
# "mar", "sat" and "sun" (words of their own). An abbreviation is read as its month and a plural
# as its weekday ("Sept" is "September", "Sundays" is "Sunday"), so neither is a swap.
DATE_WORDS = frozenset(
    """january february march april june july august september october november december
    monday tuesday wednesday thursday friday saturday sunday""".split()
)
DATE_FORMS: dict[str, str] = {
    **{
        short: month
        for month in DATE_WORDS
        for short in ([month[:3], "sept"] if month == "september" else [month[:3]])
        if month not in {"march", "may"} and not month.endswith("day")
    },
    **{f"{day}s": day for day in DATE_WORDS if day.endswith("day")},
}
FIGURE_WORDS = NUMBER_WORDS | DATE_WORDS
# v7: units of time, money, weight, length and data, each form read as its first ("weeks" ->
# "week", "eur" -> "euro", "monthly" -> "month"), so "30 days" meets "a 30-day window". A claim
# with a number and unit its best sentence does not pair, where that sentence gives the number
# another unit ("5 weeks" where it says "5 working days", "578.31 dollars" where "578.31 euros"),
# is contradicted (quantities.py). Left out: "min", "m", "g" (words or letters too), "second"
# (an ordinal more often), "cent" ("5 per cent" is "5 percent") and "pound" (money or weight).
UNIT_FORMS: dict[str, str] = {
    form: forms.split()[0]
    for forms in """day days daily|week weeks weekly|month months monthly|year years yearly
    annually|hour hours hr hrs hourly|minute minutes mins|euro euros eur|dollar dollars usd|gbp|kg
    kilo kilos kilogram kilograms|gram grams|lb lbs|km kilometre kilometres kilometer
    kilometers|mile miles|metre metres meter meters|cm centimetre centimetres centimeter
    centimeters|mm|percent|gb gigabyte gigabytes|mb megabyte megabytes|tb terabyte
    terabytes""".split("|")
    for form in forms.split()
}
# v8: each unit's kind. A number both sides give units of one kind, none in common, is swapped
# though a unit of another kind is shared: "20 euros per month" where it says "20 euros per
# year", "15 dollars a month" where it says "15 euros a month" (v7 looked for any unit in common).
UNIT_KINDS: dict[str, str] = {
    unit: kind
    for kind, units in {
        "time": "day week month year hour minute",
        "money": "euro dollar gbp",
        "weight": "kg gram lb",
        "length": "km mile metre cm mm",
        "share": "percent",
        "data": "gb mb tb",
    }.items()
    for unit in units.split()
}

# v7: words that say the opposite of each other (an order in time, a comparison, a trend,
# opening hours), as regular expressions on the lower-cased text, each matched from a word
# boundary. Each side has what a claim must say to take it ("closed on") and what a text that
# mentions it at all says ("closed"). A claim that says one side and does not mention the
# other, where its best sentence says the other and does not mention the claim's ("Orders placed
# after 2 pm ship the same day." against "... before 2 pm ..."), is contradicted; "The store is
# open on Saturdays." against "... open Monday to Saturday and closed on Sundays." is not.
# "over" and "under" say a comparison only before an amount ("over the phone" is none); polars'
# regex engine (Rust's) has no look-around, so the amount's first character is matched, not
# looked ahead at, and a side ends at `\b` only where it ends in a word character.
Side = tuple[str, str]  # (says, mentions)
OPPOSITES: tuple[tuple[Side, Side], ...] = (
    ((r"before\b", r"before\b"), (r"after\b", r"after\b")),
    ((r"earlier\b", r"earlier\b"), (r"later\b", r"later\b")),
    (
        (
            r"above\b|over [0-9€$£]|more than\b|higher than\b|greater than\b",
            r"above\b|over\b|more\b|higher\b|greater\b|exceed",
        ),
        (
            r"below\b|under [0-9€$£]|less than\b|fewer than\b|lower than\b",
            r"below\b|under\b|less\b|fewer\b|lower\b",
        ),
    ),
    ((r"minimum\b|at least\b",) * 2, (r"maximum\b|at most\b",) * 2),
    (
        (r"increase[sd]?\b|rose\b|risen\b|grew\b",) * 2,
        (r"decrease[sd]?\b|fell\b|fallen\b|dropped\b",) * 2,
    ),
    (
        (r"open on\b|open every\b|open daily\b", r"open\b"),
        (r"closed on\b|closed every\b|closed daily\b", r"close[sd]?\b"),
    ),
)


@dataclass(frozen=True)
class WordRules:
    """A rules version's figures (words read as figures besides those with a digit), forms
    (a written form and the word it is read as: units' and dates'), unit names and opposites;
    hashable, so the one-case twin caches by it."""

    figures: frozenset[str]
    forms: frozenset[tuple[str, str]] = frozenset()
    unit_names: frozenset[str] = frozenset()
    opposites: tuple[tuple[Side, Side], ...] = ()
    unit_kinds: frozenset[tuple[str, str]] = frozenset()
    # v8: an opposite swapped only where both texts order the same things the same way round
    # (opposite_clauses.py: "after the order ships" is "the order ships before")
    aligns_opposites: bool = False
    # v8: each unit with one number, the nearest before it (else after), a currency sign read
    # after its amount ("10 euros a month, 120 euros for the year": "month" is the 10's); v7
    # paired a unit with every number within reach, so 120 had a month too
    nearest_number: bool = False
    # v9: a number's words as the context may write them (number_forms): "1,000" as "1000",
    # one figure; "$5", "5%" as "dollar 5", "5 percent"; "4.95" one word
    number_forms: bool = False
    # v10: a context's number written in groups with a comma and a space ("235, 000", as
    # tokenised news articles write it) is also read whole (joined_numbers)
    joined_numbers: bool = False

    @cached_property
    def form_of(self) -> dict[str, str]:
        """Each form's word ("weeks" -> "week", "nov" -> "november")."""
        return dict(self.forms)

    @cached_property
    def kind_of(self) -> dict[str, str]:
        """Each unit's kind ("month" -> "time"): none before v8, whose unit swaps are by kind."""
        return dict(self.unit_kinds)

    @cached_property
    def any_unit(self) -> str:
        """A unit's form, any case, or a currency sign: which texts may hold a quantity."""
        forms = sorted(f for f, word in self.form_of.items() if word in self.unit_names)
        return rf"(?i)\b(?:{'|'.join(sorted({*forms, *self.unit_names}))})\b|[€$£%]"

    @cached_property
    def unit_pattern(self) -> re.Pattern[str]:
        """any_unit for Python's `re` (the one-case twin)."""
        return re.compile(self.any_unit)

    @cached_property
    def opposite_patterns(self) -> tuple[tuple[re.Pattern[str], ...], ...]:
        """Each pair's (a says, a mentions, b says, b mentions) for Python's `re` (the twin)."""
        return tuple(
            tuple(re.compile(rf"\b(?:{pattern})") for side in pair for pattern in side)
            for pair in self.opposites
        )

    @cached_property
    def any_opposite(self) -> str:
        """What any side of any pair says, in one pattern, any case: which claims to look at."""
        says = (says for pair in self.opposites for says, _ in pair)
        return rf"(?i)\b(?:{'|'.join(says)})"


# v9: a number's words as the context may write them. Thousands separated by commas are one
# figure, as the number is without them ("1,000" was the words "1" and "000", missing from
# "1000": `no`, support 0.11), and a currency or percent sign is its word ("$5" held no word
# for "5 dollars", "5%" none for "5 percent": `no` where the other side wrote it out). A comma
# and a space do not join ("codes 401, 403" is two numbers). A number is matched whole, in
# groups of three (no lookahead in Rust's regex, and a match may not take a digit another
# took), and each pass drops up to _GROUPS of its commas (an unmatched group writes nothing):
# one pass left a trillion's last comma ("1000000000,000"), whose "1000000000" then
# supported a claim's billion.
_GROUPS = 8
_THOUSANDS = r"\b(\d+),(\d{3})" + r"(?:,(\d{3}))?" * (_GROUPS - 1) + r"((?:,\d{3})*)\b"
_THOUSANDS_AS = "".join(f"${{{n}}}" for n in range(1, _GROUPS + 3))
_THOUSANDS_AS_RE = "".join(f"\\g<{n}>" for n in range(1, _GROUPS + 3))
_PASSES = 3
SIGN_WORDS: dict[str, str] = {"$": "dollar", "€": "euro", "£": "pound", "%": "percent"}
# "£" is "pound" (as "5 pounds" is written), which is not the unit "gbp" ("pound" is a weight
# too: UNIT_FORMS), so the word GBP is read as "pound" as well: "£5" meets "5 GBP" (v8's `yes`,
# "£" being no word) and "5 pounds". Words only; the unit rule reads "£" and "GBP" as "gbp".
_GBP = r"(?i)\bgbp\b"
# A decimal number is one word ("4.95" as "4point95"): its point split it into "4" and "95",
# so "$4" against "$4.95" (or "1000" against "1,000.50") found all its words: `yes`.
_DECIMAL = r"(\d)\.(\d)"


def number_forms(text: pl.Expr) -> pl.Expr:
    """Texts with their thousands' commas dropped, their currency and percent signs as words
    and their decimal numbers one word each."""
    for _ in range(_PASSES):
        text = text.str.replace_all(_THOUSANDS, _THOUSANDS_AS)
    # the signs in one pass: each is one character, and no word written holds a sign
    signs = [f" {word} " for word in SIGN_WORDS.values()]
    text = text.str.replace_many(list(SIGN_WORDS), signs)
    return text.str.replace_all(_GBP, "pound").str.replace_all(_DECIMAL, "${1}point${2}")


# What number_forms can change: a thousands or decimal mark between digits, a sign, the word
# GBP. A text without one is left as it is by each of its steps, so by all of them.
_NUMBER_MARKED = r"\d[,.]\d|[$€£%]|(?i:gbp)"


def number_forms_of(texts: pl.Series) -> pl.Series:
    """`number_forms` of each text, rewritten only where it can change one: each pass copies
    every text it is given, and few texts hold a mark (most hold a digit: an order number, a
    date; a digit alone had every such text rewritten, 0.02 CPU-s a support batch)."""
    return changed_where(texts, _NUMBER_MARKED, number_forms)


def joined_numbers_of(texts: pl.Series) -> pl.Series:
    """`joined_numbers` of the texts that hold a spaced number; the others as they are (not
    with the trailing space `joined_numbers` gives them, which separates no word)."""
    return changed_where(texts, _SPACED_THOUSANDS, joined_numbers)


def changed_where(
    texts: pl.Series, pattern: str, change: Callable[[pl.Expr], pl.Expr]
) -> pl.Series:
    """`change` of the texts `pattern` finds, the others as they are: for a change that leaves
    every text without `pattern` as it is, `change` of all of them, for one scan where few
    hold it (a rewrite copies every text it is given)."""
    found = texts.str.contains(pattern)
    if not found.any():  # most calls: one step, not three (each a query on a small batch)
        return texts
    rows = found.fill_null(False).arg_true()
    changed = texts.gather(rows).to_frame("text").select(change(pl.col("text"))).to_series()
    # scatter writes in place: on a clone (its buffers shared until written), the caller's
    # series stays as given
    return texts.clone().scatter(rows, changed)


# `context_lacks` is read by a person: a decimal word is shown with its point ("4.95", not the
# "4point95" it is compared as). The other forms read as words already ("1000", "dollar").
_DECIMAL_WORD = r"(\d)point(\d)"


def shown_words(words: pl.Expr) -> pl.Expr:
    """Words as `number_forms` wrote them, as a person reads them: "4point95" as "4.95"."""
    return words.str.replace_all(_DECIMAL_WORD, "${1}.${2}")


_DECIMAL_WORD_TEXT = re.compile(_DECIMAL_WORD)


def shown_word_text(word: str) -> str:
    """`shown_words` of one word, in Python (the one-case twin)."""
    return _DECIMAL_WORD_TEXT.sub(r"\1.\2", word)


_THOUSANDS_TEXT = re.compile(_THOUSANDS)
_GBP_TEXT = re.compile(_GBP)
_DECIMAL_TEXT = re.compile(_DECIMAL)


def number_forms_text(text: str) -> str:
    """`number_forms` of one text, in Python (the one-case twin)."""
    for _ in range(_PASSES):
        text = _THOUSANDS_TEXT.sub(_THOUSANDS_AS_RE, text)
    for sign, word in SIGN_WORDS.items():
        text = text.replace(sign, f" {word} ")
    return _DECIMAL_TEXT.sub(r"\1point\2", _GBP_TEXT.sub("pound", text))


# v10, the context's side only: a number written in groups of three with a comma and a space
# ("viewed more than 235, 000 times": CNN/DM articles are tokenised so) is also that number
# whole, so a claim's "235,000" (read as 235000 since v9) is found there (v8 found it by
# accident, as the words "235" and "000"; v9 did not). The groups stay words too, so a list
# ("codes 401, 403") still holds each number; a claim's side is never joined, so a claim
# "codes 401, 403" still needs both.
_SPACED_THOUSANDS = r"\b\d{1,3}(?:, \d{3})+\b"


def joined_numbers(text: pl.Expr) -> pl.Expr:
    """Texts with each spaced number ("235, 000") also written whole after them ("235000")."""
    whole = (
        text.str.extract_all(_SPACED_THOUSANDS)
        .list.eval(pl.element().str.replace_all(", ", "", literal=True))
        .list.join(" ")
    )
    return pl.concat_str([text, whole], separator=" ")


_SPACED_THOUSANDS_TEXT = re.compile(_SPACED_THOUSANDS)


def joined_numbers_text(text: str) -> str:
    """`joined_numbers` of one text, in Python (the one-case twin)."""
    whole = (number.replace(", ", "") for number in _SPACED_THOUSANDS_TEXT.findall(text))
    return f"{text} {' '.join(whole)}"


V7_WORD_RULES = WordRules(
    FIGURE_WORDS,
    frozenset({**DATE_FORMS, **UNIT_FORMS}.items()),
    frozenset(UNIT_FORMS.values()),
    OPPOSITES,
)
V8_WORD_RULES = replace(
    V7_WORD_RULES,
    unit_kinds=frozenset(UNIT_KINDS.items()),
    aligns_opposites=True,
    nearest_number=True,
)
V9_WORD_RULES = replace(V8_WORD_RULES, number_forms=True)
V10_WORD_RULES = replace(V9_WORD_RULES, joined_numbers=True)
# v1 to v6: numbers and number words are figures; no units, no opposites.
NUMBER_RULES = WordRules(NUMBER_WORDS)


def says_opposite(claim: str, sentence: str, rules: WordRules) -> bool:
    """opposite_swapped of one claim and its sentence (the one-case twin)."""
    said, other = claim.lower(), sentence.lower()
    patterns = zip(rules.opposite_patterns, rules.opposites, strict=True)
    for (a_says, a_mentions, b_says, b_mentions), ((a, _), (b, _)) in patterns:
        for says, mentions, side, other_says, other_mentions, other_side in (
            (a_says, a_mentions, a, b_says, b_mentions, b),
            (b_says, b_mentions, b, a_says, a_mentions, a),
        ):
            if (
                says.search(said)
                and not other_mentions.search(said)
                and other_says.search(other)
                and not mentions.search(other)
                and (not rules.aligns_opposites or ordered_alike(said, side, other, other_side))
            ):
                return True
    return False


def swapped_opposites(claims: pl.Series, sentences: pl.Series, rules: WordRules) -> pl.Series:
    """opposite_swapped of each claim against its sentence (null: none). Each distinct pair is
    read once, and only the pairs whose claim says a side of some pair are read pair by pair:
    a chat batch's 175,000 claims are 50,000 pairs, 12,000 of which say one."""
    swapped = pl.repeat(False, claims.len(), dtype=pl.Boolean, eager=True)
    if not rules.opposites:
        return swapped
    texts = pl.DataFrame({"claim": claims.cast(pl.String), "sentence": sentences.cast(pl.String)})
    keys = texts.select(pl.struct("claim", "sentence").hash()).to_series()
    first = keys.is_first_distinct()
    # read as the words are: NFC, no format characters ("bef\u00adore" is "before")
    distinct = normalized(normalized(texts.filter(first), "claim"), "sentence")
    says = distinct["claim"].str.contains(rules.any_opposite).fill_null(False)
    said = distinct.filter(says)
    if said.is_empty():
        return swapped
    claim, sentence = pl.col("claim"), pl.col("sentence")
    found = said.select(_fired(claim, sentence, rules, aligned=False)).to_series().fill_null(False)
    if rules.aligns_opposites and found.any():  # the clauses read only where a pair fired
        fired = said.filter(found).select(_fired(claim, sentence, rules, aligned=True))
        found = found.scatter(found.arg_true(), fired.to_series().fill_null(False))
    swapped_keys = keys.filter(first).filter(says).filter(found)
    return keys.is_in(swapped_keys.implode())


def opposite_swapped(claim: pl.Expr, sentence: pl.Expr, rules: WordRules) -> pl.Expr:
    """Whether the claim says one side of an opposite pair and does not mention the other,
    while its sentence says the other and does not mention the claim's (both lower-cased);
    from v8, both ordering the same things the same way round (opposite_clauses.py)."""
    return _fired(claim, sentence, rules, aligned=rules.aligns_opposites)


def _fired(claim: pl.Expr, sentence: pl.Expr, rules: WordRules, *, aligned: bool) -> pl.Expr:
    """opposite_swapped, the clauses read with `aligned` only."""
    said, other = claim.str.to_lowercase(), sentence.fill_null("").str.to_lowercase()
    swapped = pl.lit(False)
    for (a_says, a_mentions), (b_says, b_mentions) in rules.opposites:
        claim_a, claim_b = (
            said.str.contains(rf"\b(?:{a_says})"),
            said.str.contains(rf"\b(?:{b_says})"),
        )
        other_a, other_b = (
            other.str.contains(rf"\b(?:{a_says})"),
            other.str.contains(rf"\b(?:{b_says})"),
        )
        claim_mentions_a = said.str.contains(rf"\b(?:{a_mentions})")
        claim_mentions_b = said.str.contains(rf"\b(?:{b_mentions})")
        other_mentions_a = other.str.contains(rf"\b(?:{a_mentions})")
        other_mentions_b = other.str.contains(rf"\b(?:{b_mentions})")
        a_for_b = claim_a & ~claim_mentions_b & other_b & ~other_mentions_a
        b_for_a = claim_b & ~claim_mentions_a & other_a & ~other_mentions_b
        if aligned:
            a_for_b = a_for_b & ordered_alike_expr(said, a_says, other, b_says)
            b_for_a = b_for_a & ordered_alike_expr(said, b_says, other, a_says)
        swapped = swapped | a_for_b | b_for_a
    return swapped
