"""Which items of a run cut into partitions more than one partition would ask the judge,
and the case that asks each first: a cluster scores its partitions at once, each with its
own judge, so an item two partitions share is asked by both unless it is asked first."""

from __future__ import annotations

import polars as pl

from faith_udfs import keys, truths, words

ITEM_KEYS_SCHEMA = {"case_row": pl.UInt32, "kind": pl.String, "key": pl.UInt64}


def item_keys(cases: pl.DataFrame) -> pl.DataFrame:
    """The items scoring `cases` (`actual_output`, `retrieval_context`) asks, by row
    (`case_row`, the row's number): each non-blank passage (`kind` "passage"), each non-blank
    answer ("answer") and each answer with its whole context ("question"); `key` identifies
    the item's content."""
    rows = cases.select("actual_output", "retrieval_context").with_row_index("case_row")
    passages = truths.passages_of(rows, key="case_row")
    contexts = passages.group_by("case_row").agg(pl.col("passage_id").sort_by("position"))
    answers = rows.filter(~words.is_blank(pl.col("actual_output")).fill_null(True)).select(
        "case_row", key=keys.text_keys(pl.col("actual_output"))
    )
    questions = answers.join(contexts, on="case_row").select(
        "case_row", key=pl.struct("key", "passage_id").hash()
    )
    return pl.concat(
        [
            passages.select("case_row", kind=pl.lit("passage"), key="passage_id"),
            answers.select("case_row", kind=pl.lit("answer"), key="key"),
            questions.select("case_row", kind=pl.lit("question"), key="key"),
        ]
    ).cast(ITEM_KEYS_SCHEMA)  # type: ignore[arg-type]


def first_askers(asked: pl.DataFrame) -> pl.DataFrame:
    """Of `asked` (`partition`, `case_row`, `kind`, `key`: item_keys of each partition), each
    item more than one partition asks with the row that asks it first, in partition then row
    order (the row a run scoring the partitions one after another charges it to): `kind`,
    `key`, `partition`, `case_row`, in that order."""
    shared = (
        asked.select("kind", "key", "partition")
        .unique()
        .group_by("kind", "key")
        .len()
        .filter(pl.col("len") > 1)
    )
    return (
        asked.join(shared, on=["kind", "key"], how="semi")
        .sort("partition", "case_row", maintain_order=True)
        .unique(["kind", "key"], keep="first", maintain_order=True)
        .select("kind", "key", "partition", "case_row")
    )


def shared_item_cases(cases: pl.DataFrame, firsts: pl.DataFrame) -> pl.DataFrame:
    """Cases that ask exactly the items of `firsts` (first_askers), one a row, from `cases`
    (the rows of `firsts` read again: `partition`, `case_row`, `case_id`, `actual_output`,
    `retrieval_context`): a passage as a context without an answer, an answer without a
    context, a question as its case. Passages come first, then answers, then questions, so
    a scorer charging each item to the first row asking it charges every row its own item.
    Columns: `case_id` (the row's number), those two, and the first asker's `partition` and
    `case_id` (`asker`)."""
    rows = ["partition", "case_row"]
    askers = firsts.join(cases, on=rows, how="left", maintain_order="left")
    text = (
        truths.passages_of(cases, key="case_row")
        .unique("passage_id", keep="first", maintain_order=True)
        .select(key="passage_id", text="text")
    )
    passages = askers.filter(pl.col("kind") == "passage").join(
        text, on="key", how="left", maintain_order="left"
    )
    empty = pl.lit([], dtype=pl.List(pl.String))
    parts = [
        passages.select(
            *rows,
            "case_id",
            actual_output=pl.lit(None, dtype=pl.String),
            retrieval_context=pl.concat_list(pl.col("text")),
        ),
        askers.filter(pl.col("kind") == "answer").select(
            *rows, "case_id", "actual_output", retrieval_context=empty
        ),
        askers.filter(pl.col("kind") == "question").select(
            *rows, "case_id", "actual_output", "retrieval_context"
        ),
    ]
    return (
        pl.concat(parts, how="vertical_relaxed")
        .rename({"case_id": "asker"})
        .with_row_index("row")
        .select(
            case_id=pl.col("row").cast(pl.String),
            actual_output="actual_output",
            retrieval_context="retrieval_context",
            partition="partition",
            asker="asker",
        )
    )
