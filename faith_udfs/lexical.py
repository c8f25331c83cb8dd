"""The lexical judge: the seed's pretend-judge rules as polars expressions, no row loop.

A claim's `share` is the fraction of its content words found among the case's truths:
1 -> yes; between 0 and 1 -> no; 0 (or no content words) -> idk.
"""

from __future__ import annotations

import polars as pl

from faith_udfs.config import JudgeIdentity
from faith_udfs.prompts import PROMPT_VERSION, format_score
from faith_udfs.sentences import split_sentences
from faith_udfs.words import content_words, normalized

# v2: "may" became a content word (the month), which changes verdicts: a new series.
LEXICAL_RULES_VERSION = "lexical-v2"

CONTRADICTED = "The context says otherwise about: "
NOT_MENTIONED = "The context does not mention: "


class OfflineJudge:
    """What the offline judges share: sentences as truths, a reason that reads the score back
    (no extra judge call), and an identity from their kind and rules version."""

    kind: str
    rules_version: str

    # Its reason reads the score back, like the seed's judge: contradictions are not needed.
    reason_uses_contradictions = False

    def __init__(self) -> None:
        self._identity = JudgeIdentity(
            kind=self.kind, model=self.rules_version, prompt_version=PROMPT_VERSION
        )

    @property
    def identity(self) -> JudgeIdentity:
        return self._identity

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def truths(self, passages: pl.DataFrame, limit: int | None) -> pl.DataFrame:
        return sentence_truths(passages, limit)

    def reasons(self, requests: pl.DataFrame) -> pl.DataFrame:
        return score_read_back(requests)


class LexicalJudge(OfflineJudge):
    """Deterministic, offline judge; same verdicts as the seed's rules, vectorised."""

    kind = "lexical"
    rules_version = LEXICAL_RULES_VERSION

    def claims(self, answers: pl.DataFrame) -> pl.DataFrame:
        return answers.select("key", split_sentences(pl.col("text")).alias("claims"))

    def verdicts(self, questions: pl.DataFrame) -> pl.DataFrame:
        claims = (
            questions.select(
                "key", "claims", claim_index=pl.int_ranges(pl.col("claims").list.len())
            )
            .explode("claims", "claim_index")
            .drop_nulls("claim_index")
            .rename({"claims": "claim"})
            .with_columns(text_hash=pl.col("claim").hash())
            .with_row_index("claim_row")
        )
        truths = (
            questions.select("key", truth="truths")
            .explode("truth")
            .drop_nulls("truth")
            .with_columns(text_hash=pl.col("truth").hash())
        )
        # Words are compared as 64-bit hashes: integer hashing and set probes instead of
        # string joins (a wrong verdict would need two 64-bit hashes to collide).
        claim_words = _words_of(claims, "claim")
        # A claim that is, word for word, one of its case's truths has every content word in
        # the truths: `yes` without a word-by-word check (unless it has no content word).
        # The truths' pairs are probed against the claims' (far fewer), not the other way
        # round: a set of every truth's pair is costly to build for long contexts.
        claim_texts = claims.select(pair_key("text_hash")).to_series()
        truth_texts = (
            truths.select(pair=pair_key("text_hash"))
            .filter(pl.col("pair").is_in(claim_texts.implode()))
            .to_series()
            .implode()
        )
        claims = claims.with_columns(verbatim=pair_key("text_hash").is_in(truth_texts))
        rest = claims.filter(~pl.col("verbatim")).select("claim_row", "key", "text_hash")
        rest_words = rest.join(claim_words, on="text_hash")
        asked = truths.join(rest.select("key").unique(), on="key", how="semi")
        truth_words = asked.select("key", "text_hash").join(
            _words_of(asked, "truth"), on="text_hash"
        )
        asked_words = rest_words.select(pair_key("word")).to_series()
        known = (
            truth_words.select(pair=pair_key("word"))
            .filter(pl.col("pair").is_in(asked_words.implode()))
            .to_series()
            .implode()
        )
        found = (
            rest_words.select("claim_row", found=pair_key("word").is_in(known))
            .group_by("claim_row")
            .agg(all_found=pl.col("found").all(), any_found=pl.col("found").any())
        )
        has_words = claim_words.select("text_hash").unique().with_columns(has_words=pl.lit(True))
        claims = claims.join(has_words, on="text_hash", how="left", maintain_order="left").join(
            found, on="claim_row", how="left", maintain_order="left"
        )
        verdict = (
            pl.when(pl.col("has_words").is_null())
            .then(pl.lit("idk"))  # no content word at all: nothing to find
            .when(pl.col("verbatim") | pl.col("all_found"))
            .then(pl.lit("yes"))
            .when(pl.col("any_found"))
            .then(pl.lit("no"))
            .otherwise(pl.lit("idk"))
        )
        judged = (
            claims.with_columns(verdict=verdict)
            .with_columns(reason=verdict_reason())
            .group_by("key", maintain_order=True)  # claims are still in question order
            .agg(verdicts=pl.col("verdict"), reasons=pl.col("reason"))
        )
        return (
            questions.select("key")
            .join(judged, on="key", how="left")
            .with_columns(
                pl.col("verdicts").fill_null(pl.lit([], dtype=pl.List(pl.String))),
                pl.col("reasons").fill_null(pl.lit([], dtype=pl.List(pl.String))),
            )
        )


def verdict_reason() -> pl.Expr:
    """The seed judge's reason for a claim's `verdict`: none for `yes`."""
    return (
        pl.when(pl.col("verdict") == "no")
        .then(pl.lit(CONTRADICTED) + pl.col("claim"))
        .when(pl.col("verdict") == "idk")
        .then(pl.lit(NOT_MENTIONED) + pl.col("claim"))
    )


def sentence_truths(passages: pl.DataFrame, limit: int | None) -> pl.DataFrame:
    """Each passage's sentences as its truths (the first `limit` of them)."""
    truths = split_sentences(pl.col("text"))
    if limit is not None:
        truths = truths.list.head(limit)
    return passages.select("key", truths.alias("truths"))


def score_read_back(requests: pl.DataFrame) -> pl.DataFrame:
    """Reasons that read the score back, as the seed's judge does: no call is needed.

    The text is made once per distinct score with the same formatting as the prompts."""
    scores = requests.select("score").unique()
    texts = [f"The score is {format_score(score)}." for score in scores["score"]]
    scores = scores.with_columns(reason=pl.Series(texts, dtype=pl.String))
    return requests.select("key", "score").join(scores, on="score", how="left").drop("score")


def _words_of(texts: pl.DataFrame, column: str) -> pl.DataFrame:
    """(`text_hash`, `word`) of each distinct text's content words, as hashes."""
    return (
        normalized(texts.unique("text_hash"), column)
        .select("text_hash", word=content_words(pl.col(column)))
        .explode("word")
        .drop_nulls("word")
        .with_columns(pl.col("word").hash())
    )


# An odd 64-bit constant (2^64 / golden ratio): multiplying by it spreads `key` over all bits.
_MIX = 0x9E3779B97F4A7C15


def pair_key(column: str) -> pl.Expr:
    """One 64-bit key per (question `key`, `column` hash): what membership is tested and
    joined on.

    Both sides are hashes already, so mixing them is enough, and ~10x cheaper than hashing a
    struct of the two."""
    return (pl.col("key") * _MIX).xor(pl.col(column))
