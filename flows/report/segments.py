"""Which values of a segment column the report lists: a per-user column holds 10,000 of them,
so the terminal table and the chart show the top ones (by cases or by failing cases) and say
how many were left out."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import polars as pl

from flows.printable import printable

# `--segment-rank`: the column of pass_rates_by_segment each ranks by (most first).
SEGMENT_RANKS = {"cases": "cases", "failures": "failed"}
DEFAULT_SEGMENT_TOP = 30  # values listed per config; None: every one


# A chart's tick label longer than this is cut (its length said): a 5,000-character value
# made a label wider than any screen.
MAX_CHART_LABEL = 40


def segment_label(value: str | None) -> str:
    return "(none)" if value is None else printable(value)  # its control characters shown


def chart_labels(values: Iterable[str | None]) -> list[str]:
    """Each value's segment_label, cut past MAX_CHART_LABEL characters; a cut label that an
    earlier one already is gets `#2`, `#3`: plotly draws one bar per distinct label."""
    labels: list[str] = []
    for value in values:
        shown = segment_label(value)
        if len(shown) > MAX_CHART_LABEL:
            shown = f"{shown[:MAX_CHART_LABEL]}… ({len(shown):,} characters)"
        label, number = shown, 1
        while label in labels:
            number += 1
            label = f"{shown} #{number}"
        labels.append(label)
    return labels


def held_values(by_segment: pl.DataFrame) -> pl.DataFrame:
    """The segment rows the terminal table and the chart both rank: every value of a config
    whose cases carry the segment at all (one that never does would only add `(none)`),
    values with no scored case among them: the chart dropped those before ranking, and drew
    another set than the table listed."""
    return by_segment.filter(pl.col("segment_value").is_not_null().any().over("config_id"))


@dataclass(frozen=True)
class TopValues:
    """One config's listed segment rows, and what was left out of them."""

    shown: pl.DataFrame
    left_out: int  # values not listed
    left_out_cases: int  # their cases


def top_values(group: pl.DataFrame, top: int | None, rank: str = "cases") -> TopValues:
    """The `top` rows of one config's `group` by `rank` (most first; ties by value, `(none)`
    first, so the cut is the same on every run); `top` None: every row, in that order."""
    column = SEGMENT_RANKS[rank]
    ranked = group.sort(
        [column, "segment_value"], descending=[True, False], nulls_last=[True, False]
    )
    if top is None or ranked.height <= top:
        return TopValues(ranked, 0, 0)
    rest = ranked.slice(top)
    return TopValues(ranked.head(top), rest.height, int(rest["cases"].sum()))


def left_out_note(segment: str, top: TopValues, rank: str) -> str:
    """'9,970 more user_id values (10,950 cases) not listed: these are the 30 with the most
    cases; --segment-top all lists every one'."""
    most = "cases" if rank == "cases" else "failing cases"
    return (
        f"{top.left_out:,} more {printable(segment)} values ({top.left_out_cases:,} cases) not "
        f"listed: these are the {top.shown.height:,} with the most {most}; "
        "--segment-top all lists every one"
    )


def no_values_note(segment: str) -> str:
    """The line when no case of the window holds a value of `segment` (a column all null)."""
    return f"No case in this window has a value of {printable(segment)}: nothing to slice by."
