"""Which of an answer's sentences the grounded judge (v4 on) reads as claims, and how each
is cut first: its list marker, bold label, citation markers and attribution phrases, and (v5
on) its openings; a sentence that was only a citation, a list number or a courtesy is none."""

from __future__ import annotations

from collections.abc import Callable

import polars as pl

from faith_udfs.answer_layout import (
    ITEM_BREAK,
    LIST_ITEM_BREAK_PATTERN,
    is_list_number,
    list_items,
    without_layout,
)
from faith_udfs.citations import still_says_something, without_citations
from faith_udfs.grounded_words import (
    COURTESY_PATTERN,
    PLEASANTRY_PATTERN,
    is_claim,
    without_interjection,
    without_lead_in,
    without_opening,
)
from faith_udfs.sentences import split_sentences


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
