"""grounded-v13: a greeting or thanks is no claim only whole ("Thanks for your patience!", "Hi
Anna,"); before a statement ("Thanks, your refund was sent.") it is an opening, cut off.

Through v12 a pleasantry (grounded_words.PLEASANTRY_PATTERN) took any four words after it, so
"Thanks, your refund was sent." and "Hi, order A17 shipped." were dropped as no claim: a
statement, faithful or not, went unjudged, and an answer of such sentences alone passed. From
v13 what may follow the greeting is narrow (_TAIL: "for" and a few letter words, "so much",
"again", "there", a name; no figure), and otherwise the greeting is cut as v6 cuts "Yes, ..."
(when what is left holds a content word). The patterns read the same under Rust's regex (the
batch path: no look-around) and Python's `re` (the one-case twin: one_case_openings.py)."""

from __future__ import annotations

from unicodedata import category

import polars as pl

from faith_udfs.grounded_words import when_it_says, without_opening
from faith_udfs.list_rows import as_lists

# The greetings and thanks of PLEASANTRY_PATTERN, its heads unchanged.
_HEAD = (
    r"(?:thanks?|thank you|happy to help|glad to help|you['’]?re welcome"
    r"|hope (?:this|that|it) helps|anything else|hello|hi|hey)\b"
)


def _spelt_out(categories: tuple[str, ...], last: int) -> str:
    """A class of the characters of Unicode's `categories` to code point `last`, spelt out:
    Python's `re` has no \\p{Lu}, and one list read by both engines reads alike in both."""
    capitals = [c for c in range(last + 1) if category(chr(c)) in categories]
    runs: list[list[int]] = []
    for c in capitals:
        if runs and runs[-1][1] == c - 1:
            runs[-1][1] = c
        else:
            runs.append([c, c])
    # \U and eight digits: a code point to Rust's regex and to Python's `re` alike
    spans = (rf"\U{a:08x}" if a == b else rf"\U{a:08x}-\U{b:08x}" for a, b in runs)
    return "[" + "".join(spans) + "]"


# A letter, or a mark on one ("Zoe\u0308", NFD's "Zoë"): Rust's \w holds the marks, Python's not.
_LETTER = rf"(?:[^\W\d]|{_spelt_out(('Mn', 'Mc', 'Me'), 0xFFFF)})"
_WORD = rf"{_LETTER}+(?:['’]{_LETTER}+)?"  # a word of letters: a figure is a claim's
# A name: a word that opens with a capital ("Anna", "O'Brien", "Élodie"; not "élodie" nor
# "ваш"), one or two, once: "Hi Your Refund Was Sent." and "THANKS, YOUR ORDER SHIPPED." read
# as three names or more were no claim.
_NAME = rf"(?-i:{_spelt_out(('Lu', 'Lt'), 0x52F)}{_LETTER}*(?:['’]{_LETTER}+)?)"
_PIECE = (
    rf"[\s,]+(?:and\s+)?(?:for(?:\s+{_WORD}){{1,4}}|so much|a lot|very much|again|in advance"
    r"|there|everyone|all|you)"
)
# What may follow a greeting and still state nothing: "for your patience", "so much", "again",
# "in advance", "there", "everyone", "you", and once a name and one of those after it: "Anna",
# "Anna Smith", "Anna, for your patience" (one piece after the name: two made it 4x dearer).
_TAIL = rf"(?:{_PIECE}){{0,3}}(?:[\s,]+{_NAME}(?:\s+{_NAME})?(?:{_PIECE})?)?"
_GREETING = _HEAD + _TAIL
_SEP = r"(?:[,;:!.…！，：；–—]|-+\s)"
# A pleasantry, whole (no claim from v13 on): a greeting with its narrow tail, or "anything
# else" asked with a few letter words ("Anything else you need?": an offer, as service_phrases'
# HELP_OFFER_PATTERN). One greeting: two or more in one pattern ("Hi, thanks!") made it too
# large for Rust's fast engines (60x the time a sentence) and let Python's backtracking `re`
# read "Hi, Hi, ..." 2^n ways; the cut below takes them one at a time.
WHOLE_PLEASANTRY_PATTERN = rf"(?i)^\W*(?:{_GREETING}|anything else(?:\s+{_WORD}){{0,5}}\s*\?)\W*$"
# A greeting as a sentence's opening, with its tail up to a mark ("Hi Anna, ...", "Thank you for
# waiting - ..."), and an "and" after it ("Hello, and welcome to Acme!"), or up to an "and"
# alone ("Hello and welcome!": left "welcome!", a welcome, no claim from v12; it was a claim).
GREETING_OPENING_PATTERN = rf"(?i)^\W*{_GREETING}(?:\s*{_SEP}(?:\s|{_SEP})*(?:and\s+)?|\s+and\s+)"
# Greetings cut at most, one at a time, each only from what is no whole pleasantry: "Hi,
# thanks for waiting, your refund was sent." loses both, "Hi, thanks for waiting!" is left
# "thanks for waiting!", a whole one (no claim).
GREETINGS_CUT = 3


def is_whole_pleasantry(sentence: pl.Expr) -> pl.Expr:
    """v13: whether the sentence is a greeting or thanks and nothing more (no claim)."""
    return sentence.str.contains(WHOLE_PLEASANTRY_PATTERN)


def without_greetings(sentences: pl.Series) -> pl.Series:
    """v13: each sentence of each list of `sentences` without its opening greetings, then
    without the openings they hid (grounded_words.without_opening: "Hi Anna, yes, ..."), when
    it is no whole pleasantry and what is left holds a content word ("Thanks, your refund was
    sent." -> "your refund was sent."; "Thanks again, Anna!" stays as it is). Only the
    sentences that open with a greeting take the cut, in steps that read each pattern once."""
    flat = sentences.explode()
    # a chat bot's "Thanks!" and "Hope this helps!" open so too, whole: they take no cut
    to_cut = flat.str.contains(GREETING_OPENING_PATTERN) & ~flat.str.contains(
        WHOLE_PLEASANTRY_PATTERN
    )
    rows = to_cut.fill_null(False).arg_true()
    if rows.len() == 0:
        return sentences
    sentence, rest, said = pl.col("sentence"), pl.col("rest"), pl.col("said")
    greeted = pl.DataFrame({"sentence": flat.gather(rows)}).with_columns(rest=sentence)
    for _ in range(GREETINGS_CUT):
        opens = rest.str.contains(GREETING_OPENING_PATTERN) & ~is_whole_pleasantry(rest)
        greeted = greeted.with_columns(
            rest=pl.when(opens).then(rest.str.replace(GREETING_OPENING_PATTERN, "")).otherwise(rest)
        )
    cut = (
        greeted.with_columns(said=when_it_says(sentence, rest))
        .select(pl.when(said == sentence).then(sentence).otherwise(without_opening(said)))
        .to_series()
    )
    return as_lists(flat.scatter(rows, cut), sentences)
