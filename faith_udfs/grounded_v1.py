"""The grounded judge's first rules (`grounded-v1`), kept so its config series stays
reproducible (`--judge grounded-v1`); the later versions are in grounded.py.

A claim's `support` (0-1) is the weighted share of its words found in its best-matching
context sentence, taken for its weakest clause (see grounded_v1_support.py). Verdicts:
- `yes`: support >= SUPPORTED, and no figure, name or negation of the claim is missing;
- `idk`: the context is silent: no word of the claim in any context sentence;
- `no`: the rest: the context speaks of the subject but does not say what the claim says,
  or says it with other figures (a number, amount, date or name it does not hold) or
  without the claim's negation.
Refusals and meta sentences are not claims. Vectorised polars, no row loop, no model.
"""

from __future__ import annotations

from collections.abc import Mapping

import polars as pl

from faith_udfs.grounded_v1_support import claim_support
from faith_udfs.grounded_words import is_claim, without_lead_in
from faith_udfs.lexical import OfflineJudge, verdict_reason
from faith_udfs.sentences import split_sentences

# Bump when a rule or threshold changes a verdict: a new version is a new config series.
GROUNDED_RULES_VERSION = "grounded-v1"

# Support from which a claim counts as covered (tuned on the SALAD dev set, see
# bench/judge_quality.py), and the whole claim's coverage below which the context is silent
# on it: in practice, no word of the claim in any context sentence.
SUPPORTED = 0.55
SILENT = 0.05
# A claim of at most this many words must be covered whole: a word missing from so short a
# claim is often its predicate ("Order A17 was cancelled" of "Order A17 shipped").
SHORT_CLAIM_WORDS = 4

_LISTS = {
    "verdicts": ("verdict", pl.List(pl.String)),
    "reasons": ("reason", pl.List(pl.String)),
    "supports": ("support", pl.List(pl.Float64)),
    "evidences": ("evidence", pl.List(pl.String)),
}


class GroundedV1Judge(OfflineJudge):
    """Deterministic, offline judge: graded support against the best context window, with
    checks for figures and negations; its verdicts carry `supports` and `evidences`."""

    kind = "grounded"
    rules_version = GROUNDED_RULES_VERSION

    def claims(self, answers: pl.DataFrame) -> pl.DataFrame:
        sentences = split_sentences(without_lead_in(pl.col("text")))
        return answers.select("key", claims=sentences.list.filter(is_claim(pl.element())))

    def verdicts(self, questions: pl.DataFrame) -> pl.DataFrame:
        covered = (pl.col("support") >= SUPPORTED) & (
            (pl.col("n_words") > SHORT_CLAIM_WORDS) | (pl.col("coverage") >= 1.0)
        )
        supported = covered & ~(pl.col("missing_specific") | pl.col("negation_unmatched"))
        verdict = (
            pl.when(~pl.col("has_words"))
            .then(pl.lit("idk"))  # no content word at all: nothing to find
            .when(supported)
            .then(pl.lit("yes"))
            .when(pl.col("coverage") < SILENT)
            .then(pl.lit("idk"))
            .otherwise(pl.lit("no"))
        )
        judged = (
            claim_support(questions)
            .with_columns(verdict=verdict)
            .with_columns(
                reason=verdict_reason(),
                evidence=pl.when(pl.col("verdict") != "idk").then(pl.col("evidence")),
            )
        )
        return per_question(questions, judged, _LISTS)


def per_question(
    questions: pl.DataFrame, judged: pl.DataFrame, lists: Mapping[str, tuple[str, pl.DataType]]
) -> pl.DataFrame:
    """The verdicts frame: per question (`key`), each list of `lists` (name -> the claim
    column it gathers, its type) over the question's claims; empty for no claims."""
    # on the question's row, not its 64-bit key: 55 -> 22 ms for 360k claims (a group keeps
    # its rows' order: claims stay in question order)
    gathered = judged.group_by("question_row").agg(
        pl.col(column).alias(name) for name, (column, _) in lists.items()
    )
    return (
        questions.select("key")
        .with_row_index("question_row")
        .join(gathered, on="question_row", how="left", maintain_order="left")
        .drop("question_row")
        .with_columns(
            pl.col(name).fill_null(pl.lit([], dtype=dtype)) for name, (_, dtype) in lists.items()
        )
    )
