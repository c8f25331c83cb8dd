"""Per-claim support of the grounded judge: each claim against its best-matching context sentence.

A text's coverage is the largest weighted share of its words that one truth (a context
sentence) holds. A claim's `support` is the coverage of its weakest part (clauses split at
commas and conjunctions), so a claim that is only partly in the context is not supported. Its
`evidence` is the truth that covers most of it. All of it is joins, group-bys and gathers
over (text, word) rows, claims and truths addressed by their row: no row loop.
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
    `question_row`, `key`, `claim`, `has_words`, `n_words`, `coverage` (of the whole claim),
    `support`, `evidence`, `missing_specific`, `negation_unmatched`.

    A claim that is word for word one of its case's truths is fully supported by it, with no
    word-by-word look (the lexical judge's shortcut too)."""
    questions = questions.with_row_index("question_row")
    claims = (
        questions.select(
            "question_row",
            "key",
            claim="claims",
            claim_index=pl.int_ranges(pl.col("claims").list.len()),
        )
        .explode("claim", "claim_index")
        .drop_nulls("claim_index")
        .with_columns(text_hash=pl.col("claim").hash())
    )
    # Truths in question order: a truth's row stands for its (key, truth_index), and within a
    # question the lower row is the lower index.
    truths = (
        questions.select(
            "key", truth="truths", truth_index=pl.int_ranges(pl.col("truths").list.len())
        )
        .explode("truth", "truth_index")
        .drop_nulls("truth_index")
        .drop("truth_index")
        .with_row_index("truth_row")
        .with_columns(text_hash=pl.col("truth").hash())
    )
    truth_texts = truths.select(pair_key("text_hash")).to_series().implode()
    claims = claims.with_columns(verbatim=pair_key("text_hash").is_in(truth_texts))
    asked = claims.filter(~pl.col("verbatim"))
    judged = _judged(asked, truths)
    # Each asked claim's row in `judged` (null for verbatim ones): a gather, not a join.
    asked_row = (~pl.col("verbatim")).cast(pl.Int64).cum_sum() - 1
    at = claims.select(pl.when(~pl.col("verbatim")).then(asked_row)).to_series()
    from_judged = claims.select(
        "question_row",
        "key",
        "claim",
        "verbatim",
        *(judged[name].gather(at) for name in judged.columns),
    )
    verbatim = pl.col("verbatim")
    return from_judged.select(
        "question_row",
        "key",
        "claim",
        # a verbatim truth is supported even without a content word ("Thanks!")
        has_words=verbatim | (pl.col("n_words").fill_null(0) > 0),
        n_words=pl.col("n_words").fill_null(0),
        coverage=pl.when(verbatim).then(1.0).otherwise(pl.col("coverage")).fill_null(0.0),
        support=pl.when(verbatim).then(1.0).otherwise(pl.col("support")).fill_null(0.0),
        evidence=pl.when(verbatim).then(pl.col("claim")).otherwise(pl.col("evidence")),
        missing_specific=~verbatim & pl.col("missing_specific"),
        negation_unmatched=~verbatim & pl.col("negation_unmatched"),
    )


def _judged(claims: pl.DataFrame, truths: pl.DataFrame) -> pl.DataFrame:
    """The word-by-word look at claims that are not verbatim truths: one row per claim, in
    order: `n_words`, `coverage`, `support`, `evidence`, `missing_specific`,
    `negation_unmatched`. `truths` are all the questions' truths (`truth_row` = position)."""
    units = _units(claims)
    words = word_rows(units.unique("text_hash"), "text", "text_hash", specifics=True)
    unit_words = (
        units.select("unit_row", "key", "text_hash")
        .join(words, on="text_hash")
        .select("unit_row", "specific", "negation", pair=pair_key("word"))
        .with_row_index("unit_word")
    )
    asked = truths.filter(pl.col("key").is_in(claims["key"].unique().implode()))
    truth_words = word_rows(asked.unique("text_hash"), "truth", "text_hash", specifics=False)
    negated_truths = truth_words.filter("negation")["text_hash"].unique().implode()
    # Only the truths' words a claim holds can matter: the rest are left out before they are
    # spread over every truth row.
    vocabulary = words["word"].unique().implode()
    truth_side = (
        asked.lazy()
        .select("truth_row", "key", "text_hash")
        .join(truth_words.lazy().filter(pl.col("word").is_in(vocabulary)), on="text_hash")
        .select("truth_row", pair=pair_key("word"))
    )
    # One lazy query: the 2.7M truth-word rows of 200k generated cases are never a frame of
    # their own (156 -> 127 ms CPU). Hits come in no set order: nothing below depends on it.
    hits = unit_words.lazy().select("unit_word", "pair").join(truth_side, on="pair").collect()
    # The case's truths holding each claim word, by position (unit_word is a row index).
    spread_of = hits.group_by("unit_word").agg(spread=pl.len())
    spread = pl.zeros(unit_words.height, dtype=pl.UInt32, eager=True).scatter(
        spread_of["unit_word"], spread_of["spread"]
    )
    # In integer units, so sums are exact in any order: a batch and a case alone agree.
    weight = (
        (_WEIGHT_UNIT / (1.0 + COMMON_WORD_DAMPING * (spread + 1).log())).round().cast(pl.Int64)
    )
    per_unit = (
        unit_words.select(
            "unit_row",
            "negation",
            weight=weight,
            missing=pl.col("specific") & (spread == 0),
        )
        .group_by("unit_row")
        .agg(
            total=pl.col("weight").sum(),
            n_words=pl.len(),
            missing_specific=pl.col("missing").any(),
            claim_negated=pl.col("negation").any(),
        )
    )
    hit_unit = unit_words["unit_row"].gather(hits["unit_word"])
    best = _best_truths(hit_unit, hits["truth_row"], weight.gather(hits["unit_word"]))
    coverage = (
        units.select("unit_row", "claim", "whole")
        .join(per_unit, on="unit_row", how="left", maintain_order="left")
        .join(best, on="unit_row", how="left", maintain_order="left")
        .with_columns(coverage=(pl.col("found") / pl.col("total")).fill_null(0.0))
    )
    weakest_part = (
        coverage.filter(~pl.col("whole") & (pl.col("n_words") >= MIN_PART_WORDS))
        .group_by("claim")
        .agg(weakest=pl.col("coverage").min())
    )
    whole = coverage.head(claims.height)  # whole claims come first, in claim order
    best_truth = whole["truth_row"]
    truth_negated = truths["text_hash"].gather(best_truth).is_in(negated_truths)
    return whole.join(weakest_part, on="claim", how="left", maintain_order="left").select(
        pl.col("n_words"),
        pl.when(pl.col("n_words").is_not_null()).then(pl.col("coverage")).alias("coverage"),
        pl.coalesce("weakest", "coverage").alias("support"),
        truths["truth"].gather(best_truth).alias("evidence"),
        pl.col("missing_specific"),
        (pl.col("claim_negated").fill_null(False) & ~truth_negated.fill_null(False)).alias(
            "negation_unmatched"
        ),
    )


def _best_truths(unit_row: pl.Series, truth_row: pl.Series, weight: pl.Series) -> pl.DataFrame:
    """Each unit's best truth: the most weight of its words found (the lowest such
    `truth_row`): `unit_row`, `truth_row`, `found`."""
    found = (
        pl.DataFrame({"unit_row": unit_row, "truth_row": truth_row, "weight": weight})
        # (unit_row, truth_row) as one 64-bit key: a one-column group-by is faster (58 -> 48 ms
        # for 600k hits)
        .group_by(pair=pl.col("unit_row").cast(pl.UInt64) * 2**32 + pl.col("truth_row"))
        .agg(found=pl.col("weight").sum())
        .select(
            unit_row=(pl.col("pair") // 2**32).cast(pl.UInt32),
            truth_row=(pl.col("pair") % 2**32).cast(pl.UInt32),
            found="found",
        )
    )
    return found.sort(["unit_row", "found", "truth_row"], descending=[False, True, False]).unique(
        "unit_row", keep="first"
    )


def _units(claims: pl.DataFrame) -> pl.DataFrame:
    """What coverage is measured for: each whole claim (unit_row = its row in `claims`), then
    the parts of those that have several; `claim` is the claim's row."""
    claims = claims.select("key", "text_hash", text="claim").with_row_index("claim")
    # Split once per distinct claim text (142k claims, 33k texts on generated cases), then
    # joined to the few claims that have parts.
    parts = (
        claims.unique("text_hash")
        .select(
            "text_hash",
            part=pl.col("text").str.replace_all(CLAUSE_BREAK, _BREAK).str.split(_BREAK),
        )
        .filter(pl.col("part").list.len() > 1)
        .explode("part")
    )
    parts = claims.select("claim", "key", "text_hash").join(parts, on="text_hash")
    return pl.concat(
        [
            claims.select("claim", "key", "text", "text_hash", whole=pl.lit(True)),
            parts.select(
                "claim",
                "key",
                text="part",
                text_hash=pl.col("part").hash(),
                whole=pl.lit(False),
            ),
        ]
    ).with_row_index("unit_row")
