"""Per-claim support of the grounded judge: each claim against its best-matching context sentence.

A text's coverage is the largest weighted share of its words that one truth (a context
sentence) holds. A claim's `support` is the coverage of its weakest part (clauses split at
commas and conjunctions), so a claim that is only partly in the context is not supported. Its
`evidence` is the truth that covers most of it. All of it is joins and group-bys over
(text, word) rows: no row loop.
"""

from __future__ import annotations

import polars as pl

from faith_udfs.grounded_words import word_rows
from faith_udfs.lexical import pair_key

# A word found in many of the case's truths (the topic's words) weighs less:
# weight = 1 / (1 + COMMON_WORD_DAMPING * ln(1 + truths holding it)).
COMMON_WORD_DAMPING = 0.5
# Where a claim splits into parts; a part needs MIN_PART_WORDS words to be judged on its own.
CLAUSE_BREAK = r"[,;:]\s+|\s+(?:and|but|while|which|because|although)\s+"
MIN_PART_WORDS = 2
_BREAK = "\x00"
_WEIGHT_UNIT = 2**20


def claim_support(questions: pl.DataFrame) -> pl.DataFrame:
    """One row per claim of each question (`key`, `claims`, `truths` in), in question order:
    `key`, `claim`, `has_words`, `coverage` (of the whole claim), `support`, `evidence`,
    `missing_specific`, `negation_unmatched`.

    A claim that is word for word one of its case's truths is fully supported by it, with no
    word-by-word look (the lexical judge's shortcut too)."""
    claims = (
        questions.select(
            "key", claim="claims", claim_index=pl.int_ranges(pl.col("claims").list.len())
        )
        .explode("claim", "claim_index")
        .drop_nulls("claim_index")
        .with_row_index("claim_row")
        .with_columns(text_hash=pl.col("claim").hash())
    )
    truths = (
        questions.select(
            "key", truth="truths", truth_index=pl.int_ranges(pl.col("truths").list.len())
        )
        .explode("truth", "truth_index")
        .drop_nulls("truth_index")
        .with_columns(text_hash=pl.col("truth").hash())
    )
    truth_texts = truths.select(pair_key("text_hash")).to_series().implode()
    claims = claims.with_columns(verbatim=pair_key("text_hash").is_in(truth_texts))
    asked = claims.filter(~pl.col("verbatim"))
    judged = _judged(asked, truths.join(asked.select("key").unique(), on="key", how="semi"))
    return (
        claims.select("claim_row", "key", "claim", "verbatim")
        .join(judged, on="claim_row", how="left")
        .sort("claim_row")
        .select(
            "key",
            "claim",
            # a verbatim truth is supported even without a content word ("Thanks!")
            has_words=pl.col("verbatim") | (pl.col("n_words").fill_null(0) > 0),
            n_words=pl.col("n_words").fill_null(0),
            coverage=pl.when(pl.col("verbatim")).then(1.0).otherwise(pl.col("coverage")),
            support=pl.when(pl.col("verbatim")).then(1.0).otherwise(pl.col("support")),
            evidence=pl.when(pl.col("verbatim"))
            .then(pl.col("claim"))
            .otherwise(pl.col("evidence")),
            missing_specific=~pl.col("verbatim") & pl.col("missing_specific"),
            negation_unmatched=~pl.col("verbatim") & pl.col("negation_unmatched"),
        )
        .with_columns(pl.col("coverage", "support").fill_null(0.0))
    )


def _judged(claims: pl.DataFrame, truths: pl.DataFrame) -> pl.DataFrame:
    """The word-by-word look at claims that are not verbatim truths, per `claim_row`."""
    units = _units(claims)
    unit_words = (
        _words_by_row(units, "text", ["unit_row", "claim_row", "whole", "key"], specifics=True)
        .with_columns(pair=pair_key("word"))
        .with_row_index("unit_word")
    )
    # Only the truths' words a claim holds (and negations) can matter: the rest are left out
    # before they are spread over every truth row.
    vocabulary = unit_words["word"].unique().implode()
    truth_words = _words_by_row(
        truths,
        "truth",
        ["key", "truth_index"],
        specifics=False,
        keep=pl.col("word").is_in(vocabulary) | pl.col("negation"),
    ).with_columns(pair=pair_key("word"))
    hits = unit_words.select("unit_word", "unit_row", "pair").join(
        truth_words.select("pair", "truth_index"), on="pair"
    )
    spread = hits.group_by("unit_word").agg(spread=pl.len())  # the case's truths holding it
    unit_words = unit_words.join(
        spread, on="unit_word", how="left", maintain_order="left"
    ).with_columns(
        # In integer units, so sums are exact in any order: a batch and a case alone agree.
        weight=(
            _WEIGHT_UNIT / (1.0 + COMMON_WORD_DAMPING * pl.col("spread").fill_null(0).add(1).log())
        )
        .round()
        .cast(pl.Int64)
    )
    hits = hits.with_columns(weight=unit_words["weight"].gather(hits["unit_word"]))
    # Each unit's best truth: the most weight of its words found (the first such truth).
    best = (
        hits.group_by("unit_row", "truth_index")
        .agg(found=pl.col("weight").sum())
        .sort(["unit_row", "found", "truth_index"], descending=[False, True, False])
        .unique("unit_row", keep="first")
    )
    coverage = (
        unit_words.group_by("unit_row")
        .agg(total=pl.col("weight").sum(), n_words=pl.len())
        .join(best, on="unit_row", how="left")
        .join(units.select("unit_row", "claim_row", "whole", "key"), on="unit_row")
        .select(
            "claim_row",
            "whole",
            "key",
            "n_words",
            "truth_index",
            coverage=(pl.col("found") / pl.col("total")).fill_null(0.0),
        )
    )
    weakest_part = (
        coverage.filter(~pl.col("whole") & (pl.col("n_words") >= MIN_PART_WORDS))
        .group_by("claim_row")
        .agg(weakest=pl.col("coverage").min())
    )
    whole_words = unit_words.filter(pl.col("whole"))
    return (
        coverage.filter(pl.col("whole"))
        .join(_evidence(truths, truth_words), on=["key", "truth_index"], how="left")
        .join(weakest_part, on="claim_row", how="left")
        .join(_missing_specifics(whole_words, hits), on="claim_row", how="left")
        .join(_negated(whole_words), on="claim_row", how="left")
        .select(
            "claim_row",
            "n_words",
            "coverage",
            "evidence",
            support=pl.coalesce("weakest", "coverage"),
            missing_specific=pl.col("missing_specific").fill_null(False),
            negation_unmatched=pl.col("claim_negated").fill_null(False)
            & ~pl.col("truth_negated").fill_null(False),
        )
    )


def _units(claims: pl.DataFrame) -> pl.DataFrame:
    """What coverage is measured for: each whole claim, and its parts when it has several."""
    parts = (
        claims.select(
            "claim_row",
            "key",
            text=pl.col("claim").str.replace_all(CLAUSE_BREAK, _BREAK).str.split(_BREAK),
        )
        .filter(pl.col("text").list.len() > 1)
        .explode("text")
        .with_columns(whole=pl.lit(False))
    )
    whole = claims.select("claim_row", "key", text="claim", whole=pl.lit(True))
    return pl.concat([whole, parts]).with_row_index("unit_row")


def _words_by_row(
    texts: pl.DataFrame,
    text: str,
    row: list[str],
    *,
    specifics: bool,
    keep: pl.Expr | None = None,
) -> pl.DataFrame:
    """`row` columns and the word rows of its text (those that `keep`); each distinct text's
    words are made once."""
    texts = texts.with_columns(text_hash=pl.col(text).hash())
    words = word_rows(texts.unique("text_hash"), text, "text_hash", specifics=specifics)
    if keep is not None:
        words = words.filter(keep)
    return texts.select(*row, "text_hash").join(words, on="text_hash").drop("text_hash")


def _evidence(truths: pl.DataFrame, truth_words: pl.DataFrame) -> pl.DataFrame:
    """Each truth's text as evidence (`key`, `truth_index`), and whether it negates."""
    negated = (
        truth_words.filter(pl.col("negation"))
        .select("key", "truth_index")
        .unique()
        .with_columns(truth_negated=pl.lit(True))
    )
    return truths.select("key", "truth_index", evidence="truth").join(
        negated, on=["key", "truth_index"], how="left"
    )


def _missing_specifics(whole_words: pl.DataFrame, hits: pl.DataFrame) -> pl.DataFrame:
    """Claims with a figure, amount or name that no truth of their case holds."""
    found = hits.select("unit_row", "pair").unique()
    return (
        whole_words.filter(pl.col("specific"))
        .join(found, on=["unit_row", "pair"], how="anti")
        .select("claim_row", missing_specific=pl.lit(True))
        .unique("claim_row")
    )


def _negated(whole_words: pl.DataFrame) -> pl.DataFrame:
    """Claims that hold a negation word."""
    return (
        whole_words.filter(pl.col("negation"))
        .select("claim_row", claim_negated=pl.lit(True))
        .unique("claim_row")
    )
