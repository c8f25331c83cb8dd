"""The grounded judge, rules `grounded-v6` (the default judge): offline, deterministic, graded
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
sentence as evidence (from v6, also when only its first letter's case differs: what cutting
"Yes, " leaves of a copied sentence). Each `no` and `idk` claim carries `lacks`: its words,
figures and names found nowhere in the context (the contradicting figure's absence included).
Refusals, meta sentences and short courtesies (and, from v4, chat courtesies such as "I hope
this helps!") are not claims; a sentence is judged without its citation markers and
attribution phrases ("[1]", "According to the passages, ...": citations.py) and its list
marker or bold label ("2) ", "**Height:** ": answer_layout.py), which v4 added to v3; v5 cut a
sentence's opening interjection ("Yes, ...", "Sure, ...": grounded_words.without_interjection)
and refitted the weights; v6 cuts every opening ("Yes, of course, ...") but a name's first word
("Oh Sehun ...": grounded_words.without_opening) and keeps v5's numbers. Vectorised polars, no
row loop, no model weights. `grounded-v5`, `grounded-v4` (v5 with interjections read as words,
its own numbers), `grounded-v3` (v4's numbers, citations read as words), `grounded-v2`
(grounded_v2.py: v3 without `cov_second`, its own numbers) and `grounded-v1` (grounded_v1.py)
stay selectable for their series.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import polars as pl

from faith_udfs.answer_layout import (
    ITEM_BREAK,
    LIST_ITEM_BREAK_PATTERN,
    is_list_number,
    list_items,
    without_layout,
)
from faith_udfs.calibration import Cutoffs, weights_of
from faith_udfs.citations import CUE_PATTERN, still_says_something, without_citations
from faith_udfs.errors import ConfigError
from faith_udfs.grounded_features import claim_features, question_copies
from faith_udfs.grounded_v1 import GroundedV1Judge, per_question
from faith_udfs.grounded_v2 import GROUNDED_V2_RULES_VERSION, V2_CUTOFFS, V2_WEIGHTS
from faith_udfs.grounded_v5 import (
    GROUNDED_V3_RULES_VERSION,
    GROUNDED_V4_RULES_VERSION,
    GROUNDED_V5_RULES_VERSION,
    V4_CUTOFFS,
    V4_WEIGHTS,
    V5_CUTOFFS,
    V5_WEIGHTS,
)
from faith_udfs.grounded_words import (
    is_claim,
    without_interjection,
    without_lead_in,
    without_opening,
    without_openings,
)
from faith_udfs.judges import Judge
from faith_udfs.lexical import OfflineJudge, verdict_reason
from faith_udfs.sentences import split_sentences

# Bump when a rule, weight or cut-off changes a verdict: a new version is a new config series.
GROUNDED_RULES_VERSION = "grounded-v6"

# Fitted by bench/fit_grounded.py (its output pasted here): the logistic weights of the
# features (see feature_columns) and the intercept. Refitted for v5 (claims without their
# opening interjection); v4 had kept v3's, as it changed two case scores of the dev sets. v6
# keeps v5's: on the dev sets its rules change no case's verdict (bench/judge_quality.py).
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
# whose words are mostly (GROUNDED_ANSWER of their weight) in it. An answer the context shares
# next to nothing with is off its subject: its claims are `no`, not `idk`.
DEFAULT_CUTOFFS = Cutoffs(supported=0.56, silent=0.001)
# The default cut-offs by name (what a calibration starts from).
SUPPORTED, SILENT = DEFAULT_CUTOFFS.supported, DEFAULT_CUTOFFS.silent

GROUNDED_ANSWER = 0.5
SHORT_CLAIM_WORDS = 4

# A short courtesy ("Thanks for your patience!", "Happy to help!", "Anything else?") states
# nothing a context could support: not a claim (v2; v1 judged them `idk`).
PLEASANTRY_PATTERN = (
    r"(?i)^\W*(?:thanks?|thank you|happy to help|glad to help|you['’]?re welcome"
    r"|hope (?:this|that|it) helps|anything else|hello|hi|hey)\b(?:\W+\w+){0,4}\W*$"
)
# v4: the courtesies chat models close or open with ("I hope this helps!", "Let me know if you
# have any other questions.", "Great question!"), whole sentences; a policy such as "Feel free
# to return it within 30 days." is still a claim.
COURTESY_PATTERN = (
    r"(?i)^\W*(?:i hope (?:this|that|it|my answer) (?:helps|answers|clarifies)"
    r"|(?:please )?let me know\b|(?:please )?feel free to (?:ask|reach out|contact|get in touch"
    r"|let me know)|if you have any (?:other |more |further |additional )?questions"
    r"|is there anything else|(?:sure|certainly|absolutely|of course|great question"
    r"|good question|no problem|good luck|i['’]m glad (?:to|i could) help"
    r"|have a (?:great|nice|good|wonderful) day)\W*$)"
)
# Not fitted (the dev sets hold too few plain contradictions to weigh them): a claim its best
# sentence contradicts keeps this share of its support.
CONTRADICTION_COVERAGE = 0.6
CONTRADICTED_FACTOR = 0.5

_LISTS = {
    "verdicts": ("verdict", pl.List(pl.String)),
    "reasons": ("reason", pl.List(pl.String)),
    "supports": ("support", pl.List(pl.Float64)),
    "evidences": ("evidence", pl.List(pl.String)),
    "lacks": ("lacks", pl.List(pl.List(pl.String))),
}


def feature_columns() -> dict[str, pl.Expr]:
    """The model's inputs, from claim_features' columns."""
    return {
        "cov_all": pl.col("cov_all"),
        "cov_best": pl.col("cov_best"),
        # what one other sentence adds to the best: fitted negative, a claim that splices two
        # sentences says what neither does (its words count less there than scattered ones)
        "cov_second": pl.col("cov_second"),
        "figure_missing": (pl.col("missing_figure") > 0).cast(pl.Float64),
        # a figure of the claim missing where its best sentence gives another: a contradiction
        "figure_swapped": ((pl.col("missing_figure") > 0) & pl.col("rival_figure")).cast(pl.Float64)
        * pl.col("cov_best"),
        "name_missing": (pl.col("missing_name") > 0).cast(pl.Float64),
        # the closer the sentence with the other polarity, the plainer the contradiction
        "negation": pl.col("negation").cast(pl.Float64) * pl.col("cov_best"),
        # a word missing from so short a claim is often its predicate ("Order A17 was lost")
        "short_gap": ((pl.col("n_words") <= SHORT_CLAIM_WORDS) & (pl.col("cov_all") < 1.0)).cast(
            pl.Float64
        ),
        "log_words": (pl.col("n_words").cast(pl.Float64) + 1.0).log(),
        "answer_cov": pl.col("answer_cov"),
    }


def support_expr(weights: dict[str, float]) -> pl.Expr:
    """The claim's support: the logistic of the weighted features; 1 for a verbatim truth,
    0 when no word of the claim is anywhere in a context the rest of the answer is grounded
    in (an aside the context is silent on: below the silent cut-off, `idk`)."""
    z = pl.lit(weights["intercept"])
    for name, feature in feature_columns().items():
        if name in weights:  # an older rules version weighs fewer features
            z = z + weights[name] * feature
    return (
        pl.when(pl.col("verbatim"))
        .then(1.0)
        .when((pl.col("cov_all") <= 0.0) & (pl.col("answer_found") >= GROUNDED_ANSWER))
        .then(0.0)
        .when(contradicted())
        .then(CONTRADICTED_FACTOR / (1.0 + (-z).exp()))
        .otherwise(1.0 / (1.0 + (-z).exp()))
    )


def contradicted() -> pl.Expr:
    """A sentence of the context that says the claim (CONTRADICTION_COVERAGE of its weight)
    with the other polarity or another figure in place of the claim's: it says otherwise."""
    other = pl.col("negation") | ((pl.col("missing_figure") > 0) & pl.col("rival_figure"))
    return other & (pl.col("cov_best") >= CONTRADICTION_COVERAGE)


def cited_claims(
    answers: pl.DataFrame, *, cuts_interjections: bool = True, cuts_openings: bool = True
) -> pl.DataFrame:
    """v4's claims of answers (`key`, `text`): each sentence (each item of a list on its own
    lines one at least) without its list marker, bold label, citation markers and attribution
    phrases (and, from v5, its opening interjection; from v6 its openings, cut before the
    attribution phrase too: "Sure, according to the passages, ..."); one that was only a
    citation or a list number, or is a chat courtesy, dropped. GroundedJudge.claims sends here
    only the answers CUE_PATTERN finds."""
    if cuts_openings:
        cut = without_opening(without_citations(without_opening(without_layout(pl.element()))))
    elif cuts_interjections:
        cut = without_interjection(without_citations(without_layout(pl.element())))
    else:
        cut = without_citations(without_layout(pl.element()))
    # Each sentence is cut once, kept beside itself; the tests below read the pair (under a
    # filter, the cut was evaluated again for every test that named it).
    pairs = pl.struct(said=cut, sentence=pl.element())
    said = pl.element().struct.field("said")
    claim = (
        is_claim(said)
        & ~said.str.contains(PLEASANTRY_PATTERN)
        & ~said.str.contains(COURTESY_PATTERN)
        & still_says_something(said, pl.element().struct.field("sentence"))
        & ~is_list_number(said)
    )
    text = without_lead_in(pl.col("text"))
    in_items = (
        list_items(text)
        .list.eval(split_sentences(pl.element()))
        .list.eval(pl.element().list.explode(keep_nulls=False, empty_as_null=False))
    )
    # Cutting a text into its list items is dear: only the texts that hold a list take it.
    return in_order(
        answers,
        answers["text"].str.contains(f"{LIST_ITEM_BREAK_PATTERN}|{ITEM_BREAK}"),
        lambda listed: listed.select(
            "key", claims=in_items.list.eval(pairs).list.eval(said.filter(claim))
        ),
        lambda prose: prose.select(
            "key", claims=split_sentences(text).list.eval(pairs).list.eval(said.filter(claim))
        ),
    )


def in_order(
    frame: pl.DataFrame,
    mask: pl.Series,
    when_true: Callable[[pl.DataFrame], pl.DataFrame],
    when_false: Callable[[pl.DataFrame], pl.DataFrame],
) -> pl.DataFrame:
    """`when_true` of the rows `mask` holds and `when_false` of the rest, in `frame`'s order:
    two ways of the same result, the dearer one only where it is needed."""
    if not mask.any():
        return when_false(frame)
    if mask.all():
        return when_true(frame)
    rows = pl.int_range(0, frame.height, eager=True)
    return (
        pl.concat(
            [
                when_true(frame.filter(mask)).with_columns(row=rows.filter(mask)),
                when_false(frame.filter(~mask)).with_columns(row=rows.filter(~mask)),
            ]
        )
        .sort("row")
        .drop("row")
    )


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
        claim = is_claim(pl.element()) & ~pl.element().str.contains(PLEASANTRY_PATTERN)
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
            return split.with_columns(pl.col("claims").list.filter(claim))

        # Only answers that may cite or list take the dozen patterns (most answers do not);
        # the others' sentences are judged as they are.
        return in_order(
            answers,
            answers["text"].str.contains(CUE_PATTERN),
            lambda cued: cited_claims(
                cued,
                cuts_interjections=self.cuts_interjections,
                cuts_openings=self.cuts_openings,
            ),
            plain_claims,
        )

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
            claim_features(questions, folds_case=self.folds_case)
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


class GroundedV5Judge(GroundedJudge):
    """The grounded judge of rules `grounded-v5`: one opening interjection cut
    (grounded_words.without_interjection), and a claim that differs from a sentence of its
    context only in its first letter's case judged on its words; its own numbers
    (V5_WEIGHTS), and a v5 calibration's cut-offs apply."""

    rules_version = GROUNDED_V5_RULES_VERSION
    cuts_openings = False
    folds_case = False
    weights = V5_WEIGHTS
    default_cutoffs = V5_CUTOFFS


class GroundedV4Judge(GroundedV5Judge):
    """The grounded judge of rules `grounded-v4`: v5 with a claim's opening interjection
    ("Yes, ...") judged as one of its words; a v4 calibration's cut-offs apply."""

    rules_version = GROUNDED_V4_RULES_VERSION
    cuts_interjections = False
    weights = V4_WEIGHTS
    default_cutoffs = V4_CUTOFFS


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


# The judges of the rules versions a calibration's cut-offs apply to (`faith calibrate` fits
# the default), by version.
_CALIBRATED: dict[str, type[GroundedJudge]] = {
    judge.rules_version: judge
    for judge in (GroundedJudge, GroundedV5Judge, GroundedV4Judge, GroundedV3Judge, GroundedV2Judge)
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
        raise ConfigError(
            f"unknown grounded rules {rules!r}; use one of {', '.join(sorted(judges))}"
        )
    if rules in _CALIBRATED:
        return _CALIBRATED[rules](cutoffs)
    if cutoffs is not None:
        raise ConfigError(f"a calibration holds cut-offs of a later rules version, not {rules}")
    return judges[rules]()
