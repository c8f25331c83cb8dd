"""Which of an answer's sentences the grounded judge (v4 on) reads as claims, and how each
is cut first: its list marker, bold label, citation markers and attribution phrases, and (v5
on) its openings, and (v13 on) its greetings; a sentence that was only a citation, a list
number or a courtesy is none."""

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
from faith_udfs.greetings import WHOLE_PLEASANTRY_PATTERN, without_greetings
from faith_udfs.grounded_words import (
    COURTESY_PATTERN,
    PLEASANTRY_PATTERN,
    is_claim,
    without_interjection,
    without_lead_in,
    without_opening,
)
from faith_udfs.list_rows import as_lists
from faith_udfs.sentences import split_sentences


def cited_claims(
    answers: pl.DataFrame,
    *,
    cuts_interjections: bool = True,
    cuts_openings: bool = True,
    cuts_greetings: bool = True,
) -> pl.DataFrame:
    """v4's claims of answers (`key`, `text`): each sentence (each item of a list on its own
    lines one at least) without its list marker, bold label, citation markers and attribution
    phrases (and, from v5, its opening interjection; from v6 its openings, cut before the
    attribution phrase too: "Sure, according to the passages, ..."; from v13 its greetings,
    before its citations and after: "Thanks, according to the passages, ..."); one that was
    only a citation or a list number, or is a chat courtesy (from v13 a greeting only whole),
    dropped.
    GroundedJudge.claims sends here only the answers CUE_PATTERN finds."""
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
        & ~said.str.contains(WHOLE_PLEASANTRY_PATTERN if cuts_greetings else PLEASANTRY_PATTERN)
        & ~said.str.contains(COURTESY_PATTERN)
        & still_says_something(said, pl.element().struct.field("sentence"))
        & ~is_list_number(said)
    )
    # v13: the greetings cut on the flat sentences, before the citations' cut and after it
    # ("Thanks, according to the passages, ...": as the openings are)
    opened = pl.struct(said=without_opening(without_layout(pl.element())), sentence=pl.element())
    cited = pl.struct(
        said=without_opening(without_citations(said)),
        sentence=pl.element().struct.field("sentence"),
    )

    def claims_of(texts: pl.DataFrame, sentences: pl.Expr) -> pl.DataFrame:
        if not cuts_greetings:
            cut = texts.select("key", pairs=sentences.list.eval(pairs))
        else:
            cut = texts.select("key", pairs=sentences.list.eval(opened))
            cut = cut.with_columns(pairs=_greetings_cut(cut["pairs"]))
            cut = cut.with_columns(pairs=pl.col("pairs").list.eval(cited))
            cut = cut.with_columns(pairs=_greetings_cut(cut["pairs"]))
        return cut.select("key", claims=pl.col("pairs").list.eval(said.filter(claim)))

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
        lambda listed: claims_of(listed, in_items),
        lambda prose: claims_of(prose, split_sentences(text)),
    )


def _greetings_cut(pairs: pl.Series) -> pl.Series:
    """Lists of (`said`, `sentence`) pairs, each `said` without its greetings
    (greetings.without_greetings)."""
    flat = pairs.explode().struct.unnest()
    said = without_greetings(as_lists(flat["said"], pairs)).explode()
    return as_lists(flat.select(pl.struct(said=said, sentence="sentence")).to_series(), pairs)


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
