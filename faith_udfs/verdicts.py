"""Verdicts: one per claim, asked once per distinct (claims, truths) question, then normalised."""

from __future__ import annotations

import polars as pl

from faith_udfs.judge_calls import ask_judge
from faith_udfs.judges import VERDICT_VOCABULARY, Judge

# DeepEval's judges may say "borderline" for "idk"; anything else outside the vocabulary is
# dropped (not counted), as DeepEval does.
VERDICT_SYNONYMS = {"borderline": "idk"}

# How a judge's verdict words are read. Reading "2" takes a word inside punctuation, quotes or
# emphasis ("No.", "**yes**", "'idk'") as the word; reading "1" dropped it, so a small model's
# "No." raised its case's score. A judge whose replies are read (the LLM judges) names the
# reading among its identity's options: a new reading is a new config series, never scores of
# two readings in one.
VERDICT_READING = "2"
_AROUND_A_WORD = " \t\r\n.,;:!?\"'`*_()[]{}<>“”‘’«»。"

# Optional lists a judge's verdicts frame may carry, one item per verdict: each claim's support
# in [0, 1], the context sentence that supports or contradicts it, and what the context lacks
# of it (words, figures, names). Other judges give nulls.
EVIDENCE_COLUMNS: dict[str, pl.DataType] = {
    "supports": pl.List(pl.Float64),
    "evidences": pl.List(pl.String),
    "lacks": pl.List(pl.List(pl.String)),
}


def judge_claims(questions: pl.DataFrame, judge: Judge) -> pl.DataFrame:
    """Verdicts for each distinct question (`key`, `claims`, `truths` in).

    Out: `key`, `verdicts` (normalised, null = dropped), `reasons`, `n_yes`, `n_no`, `n_idk`,
    `n_dropped`, `error`, `pending`, and `supports`, `evidences`, `lacks` when the judge gave
    any. A reply
    with a verdict count that differs from the claim count, or with no verdict in the
    vocabulary, is an error.
    """
    distinct = questions.select("key", "claims", "truths").unique("key", maintain_order=True)
    answer = ask_judge(
        lambda items: _with_evidence_columns(judge.verdicts(items)),
        distinct,
        {"verdicts": pl.List(pl.String), "reasons": pl.List(pl.String), **EVIDENCE_COLUMNS},
    )
    # Evidence no judge gave is left out (cheaper than carrying null lists to the end).
    absent = [name for name in EVIDENCE_COLUMNS if answer[name].null_count() == answer.height]
    lists = {"reasons": pl.List(pl.String), **EVIDENCE_COLUMNS}
    n_claims = distinct.select("key", n_claims=pl.col("claims").list.len())
    answer = (
        answer.drop(absent)
        .join(n_claims, on="key", how="left")
        .with_columns(
            # One slot per verdict: a judge that gave a list of another length gives none.
            _one_per_verdict(name, dtype)
            for name, dtype in lists.items()
            if name not in absent
        )
    )
    given = answer["verdicts"].explode().drop_nulls()
    if not given.is_in(list(VERDICT_VOCABULARY)).all():  # else normalising changes nothing
        answer = answer.with_columns(
            verdicts=pl.col("verdicts").list.eval(normalised_verdict(pl.element()))
        )
    return (
        answer.with_columns(
            *(
                pl.col("verdicts").list.count_matches(verdict).alias(f"n_{verdict}")
                for verdict in VERDICT_VOCABULARY
            ),
        )
        .with_columns(
            n_dropped=pl.col("verdicts").list.len()
            - pl.sum_horizontal(*(pl.col(f"n_{v}") for v in VERDICT_VOCABULARY)),
        )
        .with_columns(error=_verdict_error())
        .drop("n_claims")
    )


def _with_evidence_columns(answer: pl.DataFrame) -> pl.DataFrame:
    """The judge's verdicts frame, with null evidence lists where the judge gives none."""
    return answer.with_columns(
        pl.lit(None, dtype=dtype).alias(name)
        for name, dtype in EVIDENCE_COLUMNS.items()
        if name not in answer.columns
    )


def _one_per_verdict(name: str, dtype: pl.DataType) -> pl.Expr:
    """`name`'s list where it has one item per verdict, else a list of nulls as long."""
    nulls = pl.col("verdicts").list.eval(pl.when(pl.element().is_null()).then(None))
    return (
        pl.when(pl.col(name).list.len() == pl.col("verdicts").list.len())
        .then(pl.col(name))
        .otherwise(nulls.cast(dtype))
        .alias(name)
    )


def normalised_verdict(verdict: pl.Expr) -> pl.Expr:
    """Lower-cased verdict without the punctuation, quotes or emphasis around it; synonyms
    mapped; outside the vocabulary -> null."""
    cleaned = verdict.str.strip_chars(_AROUND_A_WORD).str.to_lowercase()
    cleaned = cleaned.replace(VERDICT_SYNONYMS)
    return pl.when(cleaned.is_in(list(VERDICT_VOCABULARY))).then(cleaned)


def _verdict_error() -> pl.Expr:
    given = pl.col("verdicts").list.len()
    wrong_count = pl.concat_str(  # not pl.format: it can panic in polars 2.1 (schemas/sizes.py)
        pl.lit("JudgeReplyError: the judge gave "),
        given.cast(pl.String),
        pl.lit(" verdicts for "),
        pl.col("n_claims").cast(pl.String),
        pl.lit(" claims"),
    )
    none_usable = pl.lit(
        "JudgeReplyError: no verdict in the vocabulary yes/no/idk (borderline = idk)"
    )
    usable = pl.sum_horizontal(*(pl.col(f"n_{v}") for v in VERDICT_VOCABULARY))
    return (
        pl.when(pl.col("error").is_not_null())
        .then(pl.col("error"))
        .when(given != pl.col("n_claims"))
        .then(wrong_count)
        .when((pl.col("n_claims") > 0) & (usable == 0))
        .then(none_usable)
    )
