"""The grounded judge v13 to v2 (grounded.py, grounded_features.py) on plain Python strings,
for one case (one_case.py): the same claims, features, support and verdicts, read off the same
patterns, word lists, the judge's weights and cut-offs. Integer weights as there, so sums agree
exactly."""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from functools import cache

from faith_udfs.answer_layout import (
    BARE_MARKER_PATTERN,
    ITEM_BREAK,
    LAYOUT_PATTERNS,
    LIST_HEADING_PATTERN,
    LIST_ITEM_BREAK_PATTERN,
)
from faith_udfs.citations import ALNUM_PATTERN, CITATION_PATTERNS, CUE_PATTERN, TRAILING_PATTERN
from faith_udfs.grounded import GroundedJudge
from faith_udfs.grounded_features import _UNIT, CONTRADICTION_COVERAGE, NEGATIONS
from faith_udfs.grounded_support import (
    CONTRADICTED_FACTOR,
    GROUNDED_ANSWER,
    SHORT_CLAIM_WORDS,
    feature_columns,
)
from faith_udfs.grounded_words import (
    ANNOUNCEMENT_PATTERN,
    COURTESY_PATTERN,
    DECLINE_PATTERN,
    GROUNDED_STOP_WORDS,
    LEAD_IN_PATTERN,
    NON_CLAIM_PATTERN,
    PLEASANTRY_PATTERN,
)
from faith_udfs.grounded_words import word_stem as stem
from faith_udfs.judges import Judge
from faith_udfs.one_case_openings import (
    is_whole_pleasantry_text,
    without_greeting_text,
    without_interjection_text,
    without_opening_text,
)
from faith_udfs.one_case_rules import WHITE_SPACE, Verdict, sentences, verdict_reason
from faith_udfs.quantities import says_other_unit
from faith_udfs.service_phrases import serves_text
from faith_udfs.word_rules import (
    WordRules,
    joined_numbers_text,
    number_forms_text,
    says_opposite,
    shown_word_text,
)
from faith_udfs.words import WORD_PATTERN, cached_when_short

_LEAD_IN = re.compile(LEAD_IN_PATTERN)
_NON_CLAIM = re.compile(NON_CLAIM_PATTERN)
_PLEASANTRY = re.compile(PLEASANTRY_PATTERN)
_COURTESY = re.compile(COURTESY_PATTERN)
_ANNOUNCEMENT = re.compile(ANNOUNCEMENT_PATTERN)
_DECLINE = re.compile(DECLINE_PATTERN)
_NOT = re.compile(r"(?i)n['’]t\b")
_WORD = re.compile(WORD_PATTERN)
_DIGIT = re.compile(r"\d")


def _from_run_start(pattern: str) -> re.Pattern[str]:
    r"""A pattern that opens with `\s*` (after `(?i)`), tried only where a run of white space
    starts. Python's `re` tries a pattern at each character, and each try in a run of spaces
    scans the rest of the run: n spaces cost n² steps, n³ for TRAILING's `\s*,?\s+` (a sentence
    with 2,000 spaces took 105 s in measure()). Its first match starts where the run starts
    (the `\s*` takes the whole run), so the matches are the same; `\s*,?\s+` is read as
    `(?:\s*,)?\s+`, the same texts. Rust's regex (the batch path) is linear already."""
    head, gap = r"(?i)\s*", r"(?i)\s*,?\s+"
    assert pattern.startswith(head)
    rest = r"(?:\s*,)?\s+" + pattern[len(gap) :] if pattern.startswith(gap) else pattern[4:]
    return re.compile(rf"(?i)(?<!\s)(?:{rest})")


_CITATIONS = tuple(
    _from_run_start(p) if p.startswith(r"(?i)\s*") else re.compile(p) for p in CITATION_PATTERNS
)
_LAYOUT = tuple(re.compile(pattern) for pattern in LAYOUT_PATTERNS)
_BARE_MARKER = re.compile(BARE_MARKER_PATTERN)
_ITEM_BREAK = re.compile(LIST_ITEM_BREAK_PATTERN)
# Tried only where a run of characters other than . ! ? starts (as _from_run_start): each try
# inside the run scanned the rest of it (a 20,000-character list heading line took 1 s).
_HEADING = re.compile(r"(?<![^.!?])" + LIST_HEADING_PATTERN)
_TRAILING = _from_run_start(TRAILING_PATTERN)
_ALNUM = re.compile(ALNUM_PATTERN)
_CUE = re.compile(CUE_PATTERN)
# The features this twin computes, in support_expr's order (which fixes the float sums).
FEATURES = (
    "cov_all", "cov_best", "cov_second", "figure_missing", "figure_swapped", "name_missing",
    "negation", "short_gap", "log_words", "answer_cov",
)  # fmt: skip


_NEGATION_STEMS = frozenset(stem(word) for word in NEGATIONS)


def grounded_claims(answer: str) -> list[str]:
    """GroundedV3Judge.claims (and v2's) of one answer: its sentences after any lead-in,
    without refusals, meta sentences and courtesies."""
    return [
        s
        for s in sentences(_LEAD_IN.sub("", answer, count=1))
        if not _NON_CLAIM.search(s) and not _PLEASANTRY.search(s)
    ]


def grounded_v4_claims(
    answer: str,
    *,
    cuts_interjections: bool = False,
    cuts_openings: bool = False,
    cuts_greetings: bool = False,
) -> list[str]:
    """GroundedV4Judge.claims of one answer: grounded_claims, each sentence without its list
    marker, bold label (answer_layout.py), citation markers and attribution phrases
    (citations.py); a sentence that was only a citation or a list number, or is a chat
    courtesy (`cuts_greetings`, v13: a greeting only whole, else cut), dropped."""
    claims = []
    opened = without_greeting_text if cuts_greetings else without_opening_text
    cued = _CUE.search(answer) is not None
    pieces = _ITEM_BREAK.sub(ITEM_BREAK + r"\g<1>", _LEAD_IN.sub("", answer, count=1))
    pieces_list = pieces.split(ITEM_BREAK)
    split = [
        s
        for i, piece in enumerate(pieces_list)
        for s in sentences(_HEADING.sub("", piece, count=1) if i + 1 < len(pieces_list) else piece)
    ]
    for i, sentence in enumerate(split):
        said = sentence
        for pattern in _LAYOUT:
            said = pattern.sub("", said, count=1)
        if cuts_openings and cued:  # as cited_claims: only answers CUE_PATTERN finds
            said = opened(said)
        for pattern in _CITATIONS:
            said = pattern.sub("", said)
        said = _TRAILING.sub(r"\g<1>", said, count=1).strip(WHITE_SPACE)
        if cuts_openings:
            said = opened(said)
        elif cuts_interjections:
            said = without_interjection_text(said)
        pleasantry = (
            is_whole_pleasantry_text(said) if cuts_greetings else bool(_PLEASANTRY.search(said))
        )
        if _NON_CLAIM.search(said) or pleasantry or _COURTESY.search(said):
            continue
        if i + 1 < len(split) and _BARE_MARKER.search(said):
            continue  # a list number ("1.") before its item
        if said == sentence or _ALNUM.search(said):
            claims.append(said)
    return claims


def grounded_v5_claims(answer: str) -> list[str]:
    """GroundedV5Judge.claims of one answer: grounded_v4_claims, each sentence without its
    opening interjection (grounded_words.without_interjection) before it is read as a claim."""
    return grounded_v4_claims(answer, cuts_interjections=True)


def grounded_v6_claims(answer: str) -> list[str]:
    """GroundedV6Judge.claims (to v10's) of one answer: grounded_v4_claims, each sentence
    without its openings (grounded_words.without_opening), cut before its attribution phrase
    and after."""
    return grounded_v4_claims(answer, cuts_interjections=True, cuts_openings=True)


def grounded_v11_claims(answer: str, *, cuts_greetings: bool = False) -> list[str]:
    """GroundedV11Judge.claims of one answer: grounded_v6_claims less the sentences that state
    nothing (grounded_words.states_something): without a letter or a digit ("😊", ":)",
    "..."), announcing the bot's next step ("Let me check that for you.") or a bare refusal
    to help ("I can't assist with that.")."""
    return [
        claim
        for claim in grounded_v4_claims(
            answer, cuts_interjections=True, cuts_openings=True, cuts_greetings=cuts_greetings
        )
        if is_worded_text(claim) and not _ANNOUNCEMENT.search(claim) and not _DECLINE.search(claim)
    ]


def grounded_v12_claims(answer: str, *, cuts_greetings: bool = False) -> list[str]:
    """GroundedV12Judge.claims of one answer: grounded_v11_claims less the offers of help and
    the welcomes (service_phrases.py: "How can I help?", "You are welcome.")."""
    claims = grounded_v11_claims(answer, cuts_greetings=cuts_greetings)
    return [claim for claim in claims if not serves_text(claim)]


def grounded_v13_claims(answer: str) -> list[str]:
    """GroundedJudge.claims of one answer: grounded_v12_claims, greetings cut (greetings.py)."""
    return grounded_v12_claims(answer, cuts_greetings=True)


def is_worded_text(text: str) -> bool:
    """grounded_words.is_worded of one text: a character of Unicode's letters or numbers
    (general category L or N, as Rust's `\\p{L}` and `\\p{N}`)."""
    return any(unicodedata.category(char)[0] in "LN" for char in text)


@dataclass(frozen=True)
class Word:
    """One distinct content word of a claim: its stem (`word`), as written, and its kind."""

    word: str
    cased: str
    figure: bool
    name: bool
    negation: bool


# A truth's stems and its figures' (truth_words).
TruthWords = tuple[frozenset[str], frozenset[str]]


@cached_when_short(2**16)  # a log's words repeat; a pure function of the written token
def _token(cased: str, rules: WordRules) -> Word | None:
    token = cased.lower()
    if token in GROUNDED_STOP_WORDS:
        return None
    token = rules.form_of.get(token, token)
    figure = bool(_DIGIT.search(token)) or token in rules.figures
    upper = cased[0].isupper() and not (cased.isalpha() and cased.isupper())
    stemmed = token if figure else stem(token)
    return Word(stemmed, cased, figure, upper and not figure, stemmed in _NEGATION_STEMS)


@cached_when_short(2**12)
def claim_words(claim: str, rules: WordRules) -> tuple[Word, ...]:
    """A claim's distinct words in order (`_tokens(cased=True)`, then `_distinct`), read by
    the judge's word rules."""
    written = number_forms_text(claim) if rules.number_forms else claim
    raw = _NOT.sub(" not", written).lstrip(WHITE_SPACE)
    raw = raw[:1].lower() + raw[1:]  # the first word's capital is the sentence's
    seen: dict[str, Word] = {}
    for cased in _WORD.findall(raw):
        word = _token(cased, rules)
        if word is not None and word.word not in seen:
            seen[word.word] = word
    return tuple(seen.values())


@cached_when_short(2**12)  # a knowledge base's passages, hence sentences, repeat
def truth_words(truth: str, rules: WordRules) -> TruthWords:
    """A truth's word stems and the stems of its figures (`_tokens(cased=False)`)."""
    words, figures = set(), set()
    written = joined_numbers_text(truth) if rules.joined_numbers else truth
    written = number_forms_text(written) if rules.number_forms else written
    for cased in _WORD.findall(_NOT.sub(" not", written).lstrip(WHITE_SPACE).lower()):
        word = _token(cased, rules)
        if word is not None:
            words.add(word.word)
            if word.figure:
                figures.add(word.word)
    return frozenset(words), frozenset(figures)


@cache
def _same_features(weighed: frozenset[str]) -> bool:
    """Whether grounded.py's features are the ones this twin computes, in the same order, and
    the judge weighs only those."""
    return tuple(feature_columns()) == FEATURES and weighed <= {"intercept", *FEATURES}


def grounded_verdicts(judge: Judge, claims: list[str], truths: list[str]) -> list[Verdict] | None:
    """GroundedJudge.verdicts of one case; None when grounded.py's features are not the ones
    this twin computes (the batch path then runs)."""
    if not isinstance(judge, GroundedJudge) or not _same_features(frozenset(judge.weights)):
        return None
    rules = judge.word_rules
    of_truth = {truth: truth_words(truth, rules) for truth in truths}
    rows = [of_truth[truth] for truth in truths]
    negated = {t: any(w in _NEGATION_STEMS for w in ws) for t, (ws, _) in of_truth.items()}
    n = len(truths)
    verbatim_texts = set(truths)
    per_claim = []
    for claim in claims:
        words = claim_words(claim, rules)
        spread = [sum(1 for ws, _ in rows if w.word in ws) for w in words]
        weights = [round(math.log(1.0 + (n + 1) / (s + 1)) * _UNIT) for s in spread]
        per_claim.append((claim, words, spread, weights))
    pairs = [p for *_, spread, weights in per_claim for p in zip(weights, spread, strict=True)]
    total_weight = sum(w for w, _ in pairs)
    found_weight = sum(w for w, s in pairs if s)
    n_words, n_found = len(pairs), sum(1 for _, s in pairs if s)
    answer_cov = found_weight / total_weight if total_weight else 1.0
    answer_found = n_found / n_words if n_words else 1.0
    cut = judge.cutoffs
    out: list[Verdict] = []
    for claim, words, spread, weights in per_claim:
        copy = _copy(claim, verbatim_texts, folds_case=judge.folds_case)
        verbatim = copy is not None
        support, evidence, lacks = _support(
            judge.weights, rules, claim, verbatim, words, spread, weights, truths, rows, negated,
            answer_cov, answer_found,
        )  # fmt: skip
        if verbatim:
            evidence = copy
        if not (verbatim or words):
            verdict = "idk"  # no content word at all: nothing to find
        elif support >= cut.supported:
            verdict = "yes"
        elif support < cut.silent:
            verdict = "idk"
        else:
            verdict = "no"
        out.append(
            (
                verdict,
                verdict_reason(verdict, claim),
                support,
                None if verdict == "idk" else evidence,
                None if verdict == "yes" else lacks,
            )
        )
    return out


def _copy(claim: str, sentences: set[str], *, folds_case: bool) -> str | None:
    """The sentence of the context the claim is word for word (from v6, but for the case of
    its first letter, when that is ASCII): grounded_features._copies; None when none is."""
    if claim in sentences:
        return claim
    if not folds_case or not claim or not (claim[0].isascii() and claim[0].isalpha()):
        return None
    flipped = claim[0].swapcase() + claim[1:]
    return flipped if flipped in sentences else None


def _support(  # noqa: PLR0917 - one claim's columns of claim_features
    weighing: dict[str, float],
    rules: WordRules,
    claim: str,
    verbatim: bool,
    words: tuple[Word, ...],
    spread: list[int],
    weights: list[int],
    truths: list[str],
    rows: list[TruthWords],
    negated: dict[str, bool],
    answer_cov: float,
    answer_found: float,
) -> tuple[float, str | None, list[str]]:
    """One claim's support, evidence (its best sentence) and lacks, as claim_features and
    support_expr give them."""
    total = sum(weights)
    found = [s > 0 for s in spread]
    stems = [(word.word, w) for word, w in zip(words, weights, strict=True)]
    best_row, best_weight = _best_row(rows, stems)
    if verbatim:
        cov_all = cov_best = 1.0
        cov_second = 0.0
        missing_figure = missing_name = 0
        rival = negation = False
        evidence, lacks = claim, list[str]()
    else:
        cov_all = sum(w for w, f in zip(weights, found, strict=True) if f) / total if words else 0.0
        cov_best = best_weight / total if best_row is not None else 0.0
        in_best = frozenset() if best_row is None else rows[best_row][0]
        lacked = [(word, w) for word, w in stems if word not in in_best]
        cov_second = _best_row(rows, lacked)[1] / total if words else 0.0
        missing_figure = sum(1 for w, f in zip(words, found, strict=True) if w.figure and not f)
        missing_name = sum(1 for w, f in zip(words, found, strict=True) if w.name and not f)
        if best_row is None:
            rival = negation = False
            evidence = None
        else:
            held = {w.word for w in words}
            rival = bool(rows[best_row][1] - held)
            claim_negated = any(w.negation for w in words)
            negation = claim_negated != negated[truths[best_row]]
            evidence = truths[best_row]
        missing = [w.cased for w, f in zip(words, found, strict=True) if not f]
        lacks = [shown_word_text(w) for w in missing] if rules.number_forms else missing
    n_words = len(words)
    features = {
        "cov_all": cov_all,
        "cov_best": cov_best,
        "cov_second": cov_second,
        "figure_missing": float(missing_figure > 0),
        "figure_swapped": float(missing_figure > 0 and rival) * cov_best,
        "name_missing": float(missing_name > 0),
        "negation": float(negation) * cov_best,
        "short_gap": float(n_words <= SHORT_CLAIM_WORDS and cov_all < 1.0),
        "log_words": math.log(float(n_words) + 1.0),
        "answer_cov": answer_cov,
    }
    z = weighing["intercept"]
    for name in FEATURES:
        if name in weighing:  # an older rules version weighs fewer features
            z += weighing[name] * features[name]
    # v7's unit and opposite swaps are read only where they could count (evidence is then the
    # best sentence; a verbatim claim's cov_best is 1 but it is never contradicted)
    contradicted = cov_best >= CONTRADICTION_COVERAGE and (
        negation
        or (missing_figure > 0 and rival)
        or (
            not verbatim
            and evidence is not None
            and (says_other_unit(claim, evidence, rules) or says_opposite(claim, evidence, rules))
        )
    )
    if verbatim:
        support = 1.0
    elif cov_all <= 0.0 and answer_found >= GROUNDED_ANSWER:
        support = 0.0
    elif contradicted:
        support = CONTRADICTED_FACTOR / (1.0 + math.exp(-z))
    else:
        support = 1.0 / (1.0 + math.exp(-z))
    return support, evidence, lacks


def _best_row(rows: list[TruthWords], stems: list[tuple[str, int]]) -> tuple[int | None, int]:
    """The truth row holding the most weight of `stems` (each claim word's stem and weight),
    and that weight: claim_features' `_best` of all the claim's words, and its `_second` of
    those the best sentence lacks."""
    best_row, best_weight = None, 0
    if not stems:
        return best_row, best_weight
    for row, (ws, _) in enumerate(rows):
        hit = sum(w for word, w in stems if word in ws)
        if hit > best_weight:  # the lowest row on a tie; a row with no hit is no candidate
            best_row, best_weight = row, hit
    return best_row, best_weight
