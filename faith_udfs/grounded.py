"""The grounded judge, rules `grounded-v12` (the default judge): offline, deterministic, graded
per claim against the case's whole context.

Each claim gets one `support` in [0, 1]: a fitted logistic combination of a handful of
features (grounded_features.py: how much of the claim, its words weighed by their rarity in
the case's own context, the whole context, its best sentence and the next best sentence for
the rest hold; figures and names found nowhere; a negation on one side only). The fit is
bench/fit_grounded.py on the five dev sets of ../shared/devsets. Verdicts:
- `yes`: support >= the yes cut-off;
- `idk`: support below the silent cut-off, or no content word at all (nothing to look for);
- `no`: the rest.
A claim that is word for word a sentence of its context is `yes` with support 1 and that
sentence as evidence. Each `no` and `idk` claim carries `lacks`: its words, figures and names
found nowhere in the context (the contradicting figure's absence included). Refusals, meta
sentences and courtesies are not claims, nor (v11) a sentence that states nothing: without a
letter or a digit ("😊", ":)", "..."), announcing the bot's next step ("Let me check that for
you.") or a bare refusal to help ("I can't assist with that."; grounded_words.states_something),
nor (v12) an offer of help or a welcome ("How can I help?", "You are welcome.":
service_phrases.py); from v13 a greeting or thanks is none only whole ("Thanks again, Anna!"),
and is cut off a statement it opens ("Thanks, your refund was sent.": greetings.py).
A sentence is judged without its citation markers, attribution phrases and list marker
(citations.py, answer_layout.py) and its openings ("Yes, of course, ...":
grounded_words.without_openings). Dates, a number's units and opposite pairs are figures
whose swap is a contradiction (word_rules.py, quantities.py, opposite_clauses.py); a number is
read as the context may write it ("1,000" as "1000", "$5" as "5 dollars":
word_rules.number_forms), from v10 a context's "235, 000" whole too
(word_rules.joined_numbers). docs/judge-quality.md tells each version's change with its
figures. Vectorised polars, no row loop, no model weights.
`grounded-v12` to `grounded-v3` (the classes below, their numbers in grounded_released.py),
`grounded-v2` (grounded_v2.py: v3 without `cov_second`, its own numbers) and `grounded-v1`
(grounded_v1.py) stay selectable for their series.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import polars as pl

import faith_udfs.grounded_released as released
from faith_udfs.calibration import Cutoffs, weights_of
from faith_udfs.citations import CUE_PATTERN
from faith_udfs.errors import ConfigError
from faith_udfs.greetings import WHOLE_PLEASANTRY_PATTERN, without_greetings
from faith_udfs.grounded_claims import cited_claims, in_order
from faith_udfs.grounded_features import claim_features, question_copies
from faith_udfs.grounded_released import (
    GROUNDED_V3_RULES_VERSION,
    GROUNDED_V4_RULES_VERSION,
    GROUNDED_V5_RULES_VERSION,
    GROUNDED_V6_RULES_VERSION,
    GROUNDED_V7_RULES_VERSION,
    GROUNDED_V8_RULES_VERSION,
    GROUNDED_V9_RULES_VERSION,
    GROUNDED_V10_RULES_VERSION,
    GROUNDED_V11_RULES_VERSION,
    GROUNDED_V12_RULES_VERSION,
)
from faith_udfs.grounded_support import support_expr
from faith_udfs.grounded_v1 import GroundedV1Judge, per_question
from faith_udfs.grounded_v2 import GROUNDED_V2_RULES_VERSION, V2_CUTOFFS, V2_WEIGHTS
from faith_udfs.grounded_words import (
    COURTESY_PATTERN,
    PLEASANTRY_PATTERN,
    is_claim,
    states_something,
    without_interjection,
    without_lead_in,
    without_openings,
)
from faith_udfs.judges import Judge
from faith_udfs.lexical import OfflineJudge, verdict_reason
from faith_udfs.sentences import split_sentences
from faith_udfs.service_phrases import serves
from faith_udfs.word_rules import (
    NUMBER_RULES,
    V7_WORD_RULES,
    V8_WORD_RULES,
    V9_WORD_RULES,
    V10_WORD_RULES,
    WordRules,
)

# Bump when a rule, weight or cut-off changes a verdict: a new version is a new config series.
GROUNDED_RULES_VERSION = "grounded-v13"

# Fitted by bench/fit_grounded.py (its output pasted here): the logistic weights of the
# features (grounded_support.feature_columns) and the intercept. Refitted for v5 (claims
# without their opening interjection); v4 had kept v3's, as it changed two case scores of the
# dev sets. v6 to v13 keep v5's: v6 changes no dev-set case's verdict, v7 13 of 4,004, v8 two,
# v9 23, v10 five (QAGS's), v11 two (BEGIN's), v12 none, v13 three (BEGIN's: balanced accuracy
# 0.806 to 0.807, the other sets unchanged), and a refit moves the held-out figures within noise
# (bench/swapped_words.py, docs/judge-quality.md).
WEIGHTS: dict[str, float] = {
    "intercept": -1.9289,
    "cov_all": 0.6107,
    "cov_best": 1.1419,
    "cov_second": -1.0578,
    "figure_missing": -1.0490,
    "figure_swapped": -0.4587,
    "name_missing": -0.8218,
    "negation": -0.1010,
    "short_gap": -0.3728,
    "log_words": 0.0979,
    "answer_cov": 1.6242,
}


# Fitted by bench/fit_grounded.py alongside WEIGHTS. `silent` just above 0: idk is a claim
# no word of which is anywhere in the context (the seed's "It arrives tomorrow."), in an answer
# whose words are mostly (grounded_support.GROUNDED_ANSWER of their weight) in it. An answer
# the context shares next to nothing with is off its subject: its claims are `no`, not `idk`.
DEFAULT_CUTOFFS = Cutoffs(supported=0.56, silent=0.001)
# The default cut-offs by name (what a calibration starts from).
SUPPORTED, SILENT = DEFAULT_CUTOFFS.supported, DEFAULT_CUTOFFS.silent

_LISTS = {
    "verdicts": ("verdict", pl.List(pl.String)),
    "reasons": ("reason", pl.List(pl.String)),
    "supports": ("support", pl.List(pl.Float64)),
    "evidences": ("evidence", pl.List(pl.String)),
    "lacks": ("lacks", pl.List(pl.List(pl.String))),
}


class GroundedJudge(OfflineJudge):
    """Deterministic, offline judge: one fitted support per claim against the whole context;
    its verdicts carry `supports`, `evidences` and `lacks`. `cutoffs` replaces the fitted
    cut-offs (a calibration)."""

    kind = "grounded"
    rules_version = GROUNDED_RULES_VERSION
    # v4 on: a sentence is judged without its citations, list marker and bold label, and a
    # chat courtesy is no claim.
    reads_citations = True
    # v5 on: a claim's opening interjection ("Yes, ...") is cut off.
    cuts_interjections = True
    # v6 on: every opening ("Yes, of course, ..."), before an attribution phrase too, and a
    # bare one ("Yes it ...") only before a lower-case word (grounded_words.without_opening).
    cuts_openings = True
    # v6 on: a claim that is a sentence of its context but for the case of its first letter
    # (what the cut leaves of "Yes, order A17 shipped ...") is a copy of it, as the sentence
    # itself is: `yes` with support 1 (v5 weighed its words: 0.837).
    folds_case = True
    # v7 on (word_rules.py): month and weekday names are figures, units are read one form
    # each, and a date, a number's unit or one side of an opposite pair in place of its best
    # sentence's ("12 November", "5 weeks", "after 2 pm" where it says "12 January", "5 days",
    # "before 2 pm") is a contradiction; before, all of them were words. v8 on: a number's units
    # are compared kind by kind ("per month" against "per year" beside the same euros), each
    # unit paired with its nearest number, and an opposite swapped only where both texts order
    # the same things the same way round. v9 on: "1,000" is the figure "1000", "$5" and "5%"
    # hold the words "dollar" and "percent", and "4.95" is one word (word_rules.number_forms).
    # v10 on: a context's "235, 000" is also the figure "235000" (word_rules.joined_numbers).
    word_rules: WordRules = V10_WORD_RULES
    # v11 on: a sentence without a letter or a digit ("😊", ":)", "...") is no claim, nor one
    # that announces the bot's next step ("Let me check that for you.") or barely refuses to
    # help ("I can't assist with that."); before, the first was `idk` (a penalized score halved
    # by a smiley), the others `no`.
    claims_state_facts = True
    # v12 on: an offer of help ("How can I help?") or a welcome ("You are welcome.") is no
    # claim (service_phrases.py); before, each was `no`, and a greeting turn scored 0.
    drops_service_phrases = True
    # v13 on: a greeting or thanks is no claim only whole ("Thanks for your patience!", "Hi
    # Anna,"), and is cut off a statement it opens ("Thanks, your refund was sent." -> "your
    # refund was sent."; greetings.py); before, it and up to four words of any kind after it were
    # no claim, so such a statement went unjudged.
    cuts_greetings = True
    # The rules version's fitted numbers (a subclass of an older version has its own).
    weights: dict[str, float] = WEIGHTS
    default_cutoffs: Cutoffs = DEFAULT_CUTOFFS

    def __init__(self, cutoffs: Cutoffs | None = None) -> None:
        """`cutoffs`: a team's calibrated decision cut-offs, and weights when refitted (`faith
        calibrate`); a judge with numbers other than the defaults is its own config series."""
        super().__init__()
        if cutoffs is not None and not isinstance(cutoffs, Cutoffs):
            raise TypeError(f"cutoffs must be faith_udfs.Cutoffs, got {type(cutoffs).__name__}")
        self.cutoffs = cutoffs or self.default_cutoffs
        if self.cutoffs.weights is not None:
            # refitted by `faith calibrate`: the same features, other numbers (in the rules'
            # order, so the identity does not depend on how they were given)
            weights = weights_of(self.cutoffs.weights, type(self).weights)
            self.cutoffs = replace(self.cutoffs, weights=weights)
            self.weights = dict(weights)
        default = self.default_cutoffs
        if self.cutoffs.judge_options() != default.judge_options():
            self._identity = replace(self._identity, options=self.cutoffs.judge_options())

    def __repr__(self) -> str:
        name = type(self).__name__
        return f"{name}(cutoffs={self.cutoffs!r})" if self._identity.options else f"{name}()"

    def claims(self, answers: pl.DataFrame) -> pl.DataFrame:
        sentences = split_sentences(without_lead_in(pl.col("text")))
        pleasantry = WHOLE_PLEASANTRY_PATTERN if self.cuts_greetings else PLEASANTRY_PATTERN
        claim = is_claim(pl.element()) & ~pl.element().str.contains(pleasantry)
        if not self.reads_citations:
            return answers.select("key", claims=sentences.list.filter(claim))
        claim = claim & ~pl.element().str.contains(COURTESY_PATTERN)
        if self.cuts_interjections and not self.cuts_openings:
            # v5: each sentence without its opening interjection, before it is read as a
            # claim; cut once, then filtered (an expression of the cut sentence under the
            # filter was evaluated once per test: 1.0 against 0.15 CPU-s a 150k chat batch).
            sentences = sentences.list.eval(without_interjection(pl.element()))

        def plain_claims(plain: pl.DataFrame) -> pl.DataFrame:
            split = plain.select("key", claims=sentences)
            if self.cuts_openings:  # v6: cut on the flat sentences, each once
                split = split.with_columns(claims=without_openings(split["claims"]))
            if self.cuts_greetings:  # v13, after the openings ("Sure, thanks, ...")
                split = split.with_columns(claims=without_greetings(split["claims"]))
            return split.with_columns(pl.col("claims").list.filter(claim))

        # Only answers that may cite or list take the dozen patterns (most answers do not);
        # the others' sentences are judged as they are.
        claims = in_order(
            answers,
            answers["text"].str.contains(CUE_PATTERN),
            lambda cued: cited_claims(
                cued,
                cuts_interjections=self.cuts_interjections,
                cuts_openings=self.cuts_openings,
                cuts_greetings=self.cuts_greetings,
            ),
            plain_claims,
        )
        if not self.claims_state_facts:
            return claims
        stated = states_something(pl.element())
        if self.drops_service_phrases:
            stated = stated & ~serves(pl.element())
        return claims.with_columns(pl.col("claims").list.filter(stated))

    def verdicts(self, questions: pl.DataFrame) -> pl.DataFrame:
        # A question whose claims are all sentences of its context needs no features.
        copies = question_copies(questions, folds_case=self.folds_case)
        return in_order(
            questions.with_columns(copies=copies["copies"]),
            copies["copied"],
            copied_verdicts,
            self._judged,
        )

    def _judged(self, questions: pl.DataFrame) -> pl.DataFrame:
        """The verdicts frame of `questions`, each claim judged on its features."""
        cut = self.cutoffs
        support = pl.col("support")
        verdict = (
            pl.when(~pl.col("has_words"))
            .then(pl.lit("idk"))  # no content word at all: nothing to find
            .when(support >= cut.supported)
            .then(pl.lit("yes"))
            .when(support < cut.silent)
            .then(pl.lit("idk"))
            .otherwise(pl.lit("no"))
        )
        judged = (
            claim_features(questions, rules=self.word_rules, folds_case=self.folds_case)
            .with_columns(support=support_expr(self.weights))
            .with_columns(verdict=verdict)
            .with_columns(
                reason=verdict_reason(),
                evidence=pl.when(pl.col("verdict") != "idk").then(pl.col("evidence")),
                lacks=pl.when(pl.col("verdict") != "yes").then(pl.col("lacks")),
            )
        )
        return per_question(questions, judged, _LISTS)


def copied_verdicts(questions: pl.DataFrame) -> pl.DataFrame:
    """The verdicts frame of questions each claim of which is a sentence of its own context
    (question_copies: `copies`, those sentences): what the features would give, `yes` with
    support 1, that sentence as evidence, no reason and nothing lacking."""
    n = pl.col("claims").list.len()
    return questions.select(
        "key",
        verdicts=pl.lit("yes").repeat_by(n),
        reasons=pl.lit(None, dtype=pl.String).repeat_by(n),
        supports=pl.lit(1.0).repeat_by(n),
        evidences=pl.col("copies"),
        lacks=pl.lit(None, dtype=pl.List(pl.String)).repeat_by(n),
    )


class GroundedV12Judge(GroundedJudge):
    """The grounded judge of rules `grounded-v12`: v13 with a greeting or thanks and up to four
    words of any kind after it no claim ("Thanks, your refund was sent." dropped); its own
    numbers (V12_WEIGHTS), and a v12 calibration's cut-offs apply."""

    rules_version = GROUNDED_V12_RULES_VERSION
    cuts_greetings = False
    weights = released.V12_WEIGHTS
    default_cutoffs = released.V12_CUTOFFS


class GroundedV11Judge(GroundedV12Judge):
    """The grounded judge of rules `grounded-v11`: v12 with an offer of help ("How can I
    help?") and a welcome ("You are welcome.") read as claims; its own numbers (V11_WEIGHTS),
    and a v11 calibration's cut-offs apply."""

    rules_version = GROUNDED_V11_RULES_VERSION
    drops_service_phrases = False
    weights = released.V11_WEIGHTS
    default_cutoffs = released.V11_CUTOFFS


class GroundedV10Judge(GroundedV11Judge):
    """The grounded judge of rules `grounded-v10`: v11 with a sentence of no letter or digit
    ("😊", ":)") read as a claim (`idk`: no content word), and one announcing the bot's next
    step ("Let me check that for you.") or barely refusing to help too; its own numbers
    (V10_WEIGHTS), and a v10 calibration's cut-offs apply."""

    rules_version = GROUNDED_V10_RULES_VERSION
    claims_state_facts = False
    weights = released.V10_WEIGHTS
    default_cutoffs = released.V10_CUTOFFS


class GroundedV9Judge(GroundedV10Judge):
    """The grounded judge of rules `grounded-v9`: v10 with a context's "235, 000" read as the
    words "235" and "000" only (word_rules.V9_WORD_RULES); its own numbers (V9_WEIGHTS), and a
    v9 calibration's cut-offs apply."""

    rules_version = GROUNDED_V9_RULES_VERSION
    word_rules = V9_WORD_RULES
    weights = released.V9_WEIGHTS
    default_cutoffs = released.V9_CUTOFFS


class GroundedV8Judge(GroundedV9Judge):
    """The grounded judge of rules `grounded-v8`: v9 with "1,000" read as the words "1" and
    "000" (missing from "1000"), currency and percent signs as no words and "4.95" as "4" and
    "95" (word_rules.V8_WORD_RULES); its own numbers (V8_WEIGHTS), and a v8 calibration's
    cut-offs apply."""

    rules_version = GROUNDED_V8_RULES_VERSION
    word_rules = V8_WORD_RULES
    weights = released.V8_WEIGHTS
    default_cutoffs = released.V8_CUTOFFS


class GroundedV7Judge(GroundedV8Judge):
    """The grounded judge of rules `grounded-v7`: v8 with a number's units swapped only where
    none is in common whatever their kind (word_rules.V7_WORD_RULES); its own numbers
    (V7_WEIGHTS), and a v7 calibration's cut-offs apply."""

    rules_version = GROUNDED_V7_RULES_VERSION
    word_rules = V7_WORD_RULES
    weights = released.V7_WEIGHTS
    default_cutoffs = released.V7_CUTOFFS


class GroundedV6Judge(GroundedV7Judge):
    """The grounded judge of rules `grounded-v6`: v7 with month and weekday names read as
    names, units and opposites as words (word_rules.NUMBER_RULES); its own numbers
    (V6_WEIGHTS), and a v6 calibration's cut-offs apply."""

    rules_version = GROUNDED_V6_RULES_VERSION
    word_rules = NUMBER_RULES
    weights = released.V6_WEIGHTS
    default_cutoffs = released.V6_CUTOFFS


class GroundedV5Judge(GroundedV6Judge):
    """The grounded judge of rules `grounded-v5`: one opening interjection cut
    (grounded_words.without_interjection), and a claim that differs from a sentence of its
    context only in its first letter's case judged on its words; its own numbers
    (V5_WEIGHTS), and a v5 calibration's cut-offs apply."""

    rules_version = GROUNDED_V5_RULES_VERSION
    cuts_openings = False
    folds_case = False
    weights = released.V5_WEIGHTS
    default_cutoffs = released.V5_CUTOFFS


class GroundedV4Judge(GroundedV5Judge):
    """The grounded judge of rules `grounded-v4`: v5 with a claim's opening interjection
    ("Yes, ...") judged as one of its words; a v4 calibration's cut-offs apply."""

    rules_version = GROUNDED_V4_RULES_VERSION
    cuts_interjections = False
    weights = released.V4_WEIGHTS
    default_cutoffs = released.V4_CUTOFFS


class GroundedV3Judge(GroundedV4Judge):
    """The grounded judge of rules `grounded-v3`: v4's numbers, with citations, list markers
    and bold labels judged as the claim's words and chat courtesies as claims; a v3
    calibration's cut-offs apply."""

    rules_version = GROUNDED_V3_RULES_VERSION
    reads_citations = False


class GroundedV2Judge(GroundedV3Judge):
    """The grounded judge of rules `grounded-v2`: v3's rules, without `cov_second`'s weight,
    and its own fitted numbers (grounded_v2.py); a v2 calibration's cut-offs apply."""

    rules_version = GROUNDED_V2_RULES_VERSION
    weights = V2_WEIGHTS
    default_cutoffs = V2_CUTOFFS


# The judges of the rules versions v2 on, newest first: those a calibration's cut-offs apply
# to (`faith calibrate` fits the default), by version below.
GROUNDED_JUDGES: tuple[type[GroundedJudge], ...] = (
    GroundedJudge,
    GroundedV12Judge,
    GroundedV11Judge,
    GroundedV10Judge,
    GroundedV9Judge,
    GroundedV8Judge,
    GroundedV7Judge,
    GroundedV6Judge,
    GroundedV5Judge,
    GroundedV4Judge,
    GroundedV3Judge,
    GroundedV2Judge,
)
_CALIBRATED: dict[str, type[GroundedJudge]] = {
    judge.rules_version: judge for judge in GROUNDED_JUDGES
}
CALIBRATED_RULES = tuple(_CALIBRATED)


def grounded_judge(rules: str | None = None, cutoffs: Cutoffs | None = None) -> Judge:
    """The grounded judge of rules version `rules` (`--judge grounded --model grounded-v3`
    scores an old series again; None: the default, GROUNDED_RULES_VERSION), with a
    calibration's `cutoffs` (fitted on that version's support: v2 and later only)."""
    judges: dict[str, Callable[[], Judge]] = {
        **_CALIBRATED,
        GroundedV1Judge.rules_version: GroundedV1Judge,
    }
    rules = GROUNDED_RULES_VERSION if rules is None else rules
    if rules not in judges:
        raise ConfigError(f"unknown grounded rules {rules!r}; use one of {', '.join(judges)}")
    if rules in _CALIBRATED:
        return _CALIBRATED[rules](cutoffs)
    if cutoffs is not None:
        raise ConfigError(f"a calibration holds cut-offs of a later rules version, not {rules}")
    return judges[rules]()
