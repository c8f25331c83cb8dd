"""grounded-v12: what a support bot says to serve, not to inform, as whole sentences: an offer
of help ("How can I help?", "What else can I do for you?") and a welcome or a farewell
("You are welcome.", "Welcome to Acme support!", "Take care!").

None of them states anything a context could support, yet each was a claim the context
lacked, `no`: "Hello! How can I help?" scored 0, and every greeting turn of a conversation
failed. The v4 pleasantries (grounded_words.PLEASANTRY_PATTERN) had "you're welcome" but not
"you are welcome", and no question. Only these offers are dropped, not questions at large: in
the dialogue dev set (BEGIN) a question is a reply's content ("Did you know the NFL has no
rule against women playing?"), and dropping every question moved its balanced accuracy from
0.806 to 0.784; these patterns move no dev-set verdict. The patterns read the same under
Rust's regex (the batch path) and Python's `re` (the one-case path)."""

from __future__ import annotations

import re

import polars as pl

# The words a phrase may have after it: words of letters, no figure ("Welcome to Acme!"; in
# "Good morning, your refund is $50." or "No worries, refunds take 30 days." the figure is a
# claim's, which a context can contradict).
_LETTER_WORDS = r"(?:\W+[^\W\d]+)"
# An offer of the bot's help, asked: "how/what (else) can I ...", "can I help you ...",
# "anything else I can do ...".
HELP_OFFER_PATTERN = (
    r"(?i)^\W*(?:(?:so|and|now|then)\W+)?"
    r"(?:(?:how|what)(?: else)? (?:can|may|could|shall|should) (?:i|we) (?:help|assist|do)"
    r"|(?:can|may|could|shall) (?:i|we) (?:help|assist) you"
    r"|anything else (?:that )?(?:i|we) (?:can|could|may) (?:help|assist|do))"
    rf"\b{_LETTER_WORDS}{{0,5}}\W*\?\W*$"
)
# A welcome or a farewell, whole: only a wish ("..., have a nice day!"), a welcome's place
# ("Welcome to Acme support!") or a greeting's name ("Good morning, Anna!") may follow it, so
# "Cheers, your order ships Monday." or "You are welcome to visit on Sunday." stay claims.
_WISH = (
    r"(?:\W+(?:and\s+)?(?:take care"
    r"|have a (?:great|nice|good|wonderful|lovely) (?:day|one|evening|weekend)))"
)
WELCOME_PATTERN = (
    r"(?i)^\W*(?:"
    rf"(?:you are welcome|my pleasure|no worries|take care|cheers|anytime){_WISH}?"
    rf"|(?:happy|glad) to (?:help|assist)(?: you)?{_WISH}?"
    rf"|glad i could (?:help|assist)(?: you)?(?: today)?{_WISH}?"
    rf"|welcome(?: back)?(?: to{_LETTER_WORDS}{{1,3}})?"
    rf"|good (?:morning|afternoon|evening){_LETTER_WORDS}?"
    r")\W*$"
)

_HELP_OFFER = re.compile(HELP_OFFER_PATTERN)
_WELCOME = re.compile(WELCOME_PATTERN)


def serves(sentence: pl.Expr) -> pl.Expr:
    """Whether the sentence is an offer of help or a welcome (no claim from v12 on)."""
    return sentence.str.contains(HELP_OFFER_PATTERN) | sentence.str.contains(WELCOME_PATTERN)


def serves_text(sentence: str) -> bool:
    """`serves` of one sentence (the one-case path's twin)."""
    return _HELP_OFFER.search(sentence) is not None or _WELCOME.search(sentence) is not None
