"""The one-case path's twins (plain Python strings, `re`) of the grounded judge's cuts of a
sentence's opening: grounded_words.without_interjection (v5), without_opening (v6) and
greetings.without_greetings (v13). Each gives the batch path's text for one sentence."""

from __future__ import annotations

import re

from faith_udfs.greetings import (
    GREETING_OPENING_PATTERN,
    GREETINGS_CUT,
    WHOLE_PLEASANTRY_PATTERN,
)
from faith_udfs.grounded_words import (
    GROUNDED_STOP_WORDS,
    INTERJECTION_PATTERN,
    OPENING_PATTERN,
    OPENINGS_CUT,
)
from faith_udfs.words import WORD_PATTERN

_INTERJECTION = re.compile(INTERJECTION_PATTERN)
_OPENING = re.compile(OPENING_PATTERN)
_GREETING_OPENING = re.compile(GREETING_OPENING_PATTERN)
_WHOLE_PLEASANTRY = re.compile(WHOLE_PLEASANTRY_PATTERN)
_WORD = re.compile(WORD_PATTERN)


def without_opening_text(sentence: str) -> str:
    """grounded_words.without_opening of one sentence."""
    if not _OPENING.search(sentence):
        return sentence
    rest = sentence
    for _ in range(OPENINGS_CUT):
        rest = _OPENING.sub(r"\g<1>", rest, count=1)
    return rest if says_something_text(rest) else sentence


def without_interjection_text(sentence: str) -> str:
    """grounded_words.without_interjection of one sentence."""
    rest = _INTERJECTION.sub("", sentence, count=1)
    return rest if says_something_text(rest) else sentence


def without_greeting_text(sentence: str) -> str:
    """v13's cut of one sentence (greetings.without_greetings after grounded_words.
    without_openings): its openings, then its greetings one at a time while what is left is no
    whole pleasantry, then the openings those hid, when what is left holds a content word."""
    sentence = without_opening_text(sentence)
    rest = sentence
    for _ in range(GREETINGS_CUT):
        if not _GREETING_OPENING.search(rest) or _WHOLE_PLEASANTRY.search(rest):
            break
        rest = _GREETING_OPENING.sub("", rest, count=1)
    if rest == sentence or not says_something_text(rest):
        return sentence
    return without_opening_text(rest)


def is_whole_pleasantry_text(sentence: str) -> bool:
    """greetings.is_whole_pleasantry of one sentence."""
    return _WHOLE_PLEASANTRY.search(sentence) is not None


def says_something_text(text: str) -> bool:
    """Whether the text holds a content word (grounded_words' `_says_something`)."""
    return any(word not in GROUNDED_STOP_WORDS for word in _WORD.findall(text.lower()))
