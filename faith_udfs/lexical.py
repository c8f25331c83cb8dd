"""The lexical judge: the seed's pretend-judge rules as polars expressions, no row loop.

A claim's `share` is the fraction of its content words found among the case's truths:
1 -> yes; between 0 and 1 -> no; 0 (or no content words) -> idk.
"""

from __future__ import annotations

import polars as pl

from faith_udfs.config import JudgeIdentity
from faith_udfs.prompts import PROMPT_VERSION, format_score
from faith_udfs.sentences import split_sentences
from faith_udfs.words import content_words

LEXICAL_RULES_VERSION = "lexical-v1"

CONTRADICTED = "The context says otherwise about: "
NOT_MENTIONED = "The context does not mention: "


class LexicalJudge:
    """Deterministic, offline judge; same verdicts as the seed's rules, vectorised."""

    def __init__(self) -> None:
        self._identity = JudgeIdentity(
            kind="lexical", model=LEXICAL_RULES_VERSION, prompt_version=PROMPT_VERSION
        )

    @property
    def identity(self) -> JudgeIdentity:
        return self._identity

    def __repr__(self) -> str:
        return "LexicalJudge()"

    def truths(self, passages: pl.DataFrame, limit: int | None) -> pl.DataFrame:
        truths = split_sentences(pl.col("text"))
        if limit is not None:
            truths = truths.list.head(limit)
        return passages.select("key", truths.alias("truths"))

    def claims(self, answers: pl.DataFrame) -> pl.DataFrame:
        return answers.select("key", split_sentences(pl.col("text")).alias("claims"))

    def verdicts(self, questions: pl.DataFrame) -> pl.DataFrame:
        claims = (
            questions.lazy()
            .select("key", "claims", claim_index=pl.int_ranges(pl.col("claims").list.len()))
            .explode("claims", "claim_index")
            .drop_nulls("claim_index")
            .rename({"claims": "claim"})
        )
        truth_words = _truth_words(questions.lazy().select("key", "truths"))
        claim_words = (
            claims.select("key", "claim_index", word=content_words(pl.col("claim")).list.unique())
            .explode("word")
            .drop_nulls("word")
        )
        shares = (
            claim_words.join(truth_words, on=["key", "word"], how="left")
            .group_by("key", "claim_index")
            .agg(n_words=pl.len(), n_found=pl.col("found").sum())
        )
        share = pl.col("n_found").fill_null(0) / pl.col("n_words")
        judged = (
            claims.join(shares, on=["key", "claim_index"], how="left")
            .with_columns(share=pl.when(pl.col("n_words") > 0).then(share).otherwise(0.0))
            .with_columns(
                verdict=pl.when(pl.col("share") >= 1.0)
                .then(pl.lit("yes"))
                .when(pl.col("share") > 0.0)
                .then(pl.lit("no"))
                .otherwise(pl.lit("idk")),
            )
            .with_columns(
                reason=pl.when(pl.col("verdict") == "no")
                .then(pl.lit(CONTRADICTED) + pl.col("claim"))
                .when(pl.col("verdict") == "idk")
                .then(pl.lit(NOT_MENTIONED) + pl.col("claim"))
            )
            .sort("key", "claim_index")
            .group_by("key", maintain_order=True)
            .agg(verdicts=pl.col("verdict"), reasons=pl.col("reason"))
        )
        return (
            questions.lazy()
            .select("key")
            .join(judged, on="key", how="left")
            .with_columns(
                pl.col("verdicts").fill_null(pl.lit([], dtype=pl.List(pl.String))),
                pl.col("reasons").fill_null(pl.lit([], dtype=pl.List(pl.String))),
            )
            .collect()
        )

    def reasons(self, requests: pl.DataFrame) -> pl.DataFrame:
        # The seed's judge reads the score back out of the prompt, so no call is needed; the
        # text is made once per distinct score with the same formatting as the prompts.
        scores = requests.select("score").unique()
        texts = [f"The score is {format_score(score)}." for score in scores["score"]]
        scores = scores.with_columns(reason=pl.Series(texts, dtype=pl.String))
        return requests.select("key", "score").join(scores, on="score", how="left").drop("score")


def _truth_words(truths: pl.LazyFrame) -> pl.LazyFrame:
    """Distinct (key, word) of the truths, tokenising each distinct truth text once."""
    long = truths.explode("truths").drop_nulls("truths").rename({"truths": "truth"})
    words = (
        long.select("truth")
        .unique()
        .with_columns(word=content_words(pl.col("truth")))
        .explode("word")
        .drop_nulls("word")
    )
    return (
        long.join(words, on="truth")
        .select("key", "word")
        .unique()
        .with_columns(found=pl.lit(1, dtype=pl.UInt32))
    )
