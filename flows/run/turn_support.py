"""What a conversation's turn was judged against, after the judge: which claims only the
conversation supports, and the reason a turn with nothing to rely on is invalid.

A turn's case carries its window's earlier turns as extra passages (flows/read/turns.py), so
every judge judges it unchanged; `context_origins` (a segment) says where each passage came
from, and the claim's evidence says which passage supported it.
"""

from __future__ import annotations

from dataclasses import replace

import polars as pl

from faith_udfs import FaithfulnessFrames
from faith_udfs.metric import EMPTY_CONTEXT

NOTHING_TO_RELY_ON = (
    "NothingToRelyOn: the assistant turn has no passages, no tool results and no earlier "
    "turn with content within --conversation-window; nothing to judge against"
)
# claim_verdicts.supported_by: a supported claim's support came from the case's own
# passages or tool results, or only from earlier turns of the conversation.
PASSAGE, CONVERSATION = "passage", "conversation"


def with_turn_support(frames: FaithfulnessFrames, cases: pl.DataFrame) -> FaithfulnessFrames:
    """`supported_by` on every claim, and the turn's reason on a turn with nothing to rely on."""
    origins = _turn_origins(cases)
    if origins.height == 0:  # no turn: every supported claim's support is a passage
        verdicts = frames.claim_verdicts
        return replace(frames, claim_verdicts=verdicts.with_columns(supported_by=_by_passage()))
    is_turn = pl.col("case_id").is_in(origins["case_id"].implode())
    scores = frames.case_scores.with_columns(
        error=pl.when(is_turn & (pl.col("error") == EMPTY_CONTEXT))
        .then(pl.lit(NOTHING_TO_RELY_ON))
        .otherwise(pl.col("error"))
    )
    return replace(
        frames,
        case_scores=scores,
        claim_verdicts=_supported_by(frames.claim_verdicts, origins),
    )


def _turn_origins(cases: pl.DataFrame) -> pl.DataFrame:
    """The turns among `cases`: `case_id`, `retrieval_context`, `origins` (where each passage
    came from). Only segments that name the key are decoded: most logs hold no conversation."""
    if "segments" not in cases.columns:
        none = pl.lit(None, dtype=pl.List(pl.String))
        return cases.select("case_id", "retrieval_context", origins=none).clear()
    return (
        cases.filter(pl.col("segments").str.contains("context_origins", literal=True))
        .select(
            "case_id",
            "retrieval_context",
            origins=pl.col("segments")
            .str.json_path_match("$.context_origins")
            .str.json_decode(pl.List(pl.String)),
        )
        .filter(pl.col("origins").is_not_null())
    )


def _by_passage() -> pl.Expr:
    """`supported_by` of a claim whose case is no turn: its passages are its own (as
    `_supported_by` says it, a dropped claim's NULL verdict included)."""
    return (
        pl.when(pl.col("verdict") != "yes")
        .then(pl.lit(None, dtype=pl.String))
        .otherwise(pl.lit(PASSAGE))
    )


def _supported_by(verdicts: pl.DataFrame, origins: pl.DataFrame) -> pl.DataFrame:
    """A `yes` claim of a cases-table case is supported by a passage. A turn's is supported by
    the conversation when the passages holding its evidence are earlier turns only; for a
    judge that names no evidence, when the turn has no passage or tool result of its own
    (else NULL: unknown)."""
    if verdicts.height == 0:
        return verdicts.with_columns(supported_by=pl.lit(None, dtype=pl.String))
    keyed = verdicts.with_row_index("__claim")
    passages = (
        keyed.filter(pl.col("verdict") == "yes")
        .select("__claim", "case_id", "evidence")
        .join(origins, on="case_id", how="inner")
        .explode("retrieval_context", "origins")
    )
    own = pl.col("origins").is_in([PASSAGE, "tool"])
    holds = pl.col("evidence").is_not_null() & pl.col("retrieval_context").str.contains(
        pl.col("evidence"), literal=True
    )
    found = passages.group_by("__claim").agg(
        has_own=own.any(),
        own_holds=(own & holds).any(),
        turn_holds=(~own & holds).any(),
        named=pl.col("evidence").is_not_null().any(),
    )
    by_evidence = (
        pl.when(pl.col("own_holds"))
        .then(pl.lit(PASSAGE))
        .when(pl.col("turn_holds") | ~pl.col("has_own"))
        .then(pl.lit(CONVERSATION))
        .otherwise(pl.lit(PASSAGE))  # evidence not found verbatim: its own passages had it
    )
    return (
        keyed.join(found, on="__claim", how="left")
        .with_columns(
            supported_by=pl.when(pl.col("verdict") != "yes")
            .then(pl.lit(None, dtype=pl.String))
            .when(pl.col("named").is_null())  # not a turn: its passages are its own
            .then(pl.lit(PASSAGE))
            .when(pl.col("named"))
            .then(by_evidence)
            # A judge naming no evidence: only a turn with nothing of its own is known.
            .when(~pl.col("has_own"))
            .then(pl.lit(CONVERSATION))
        )
        .sort("__claim")
        .select(*verdicts.columns, "supported_by")
    )
