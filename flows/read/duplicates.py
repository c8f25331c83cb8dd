"""Case_ids that occur more than once in a source, resolved as rows stream by, in bounded
memory and without holding any batch back.

The rule (README, "Input"): copies identical after validation keep the first copy read (the
others are quarantined as `duplicate_case_id_exact_copy`); copies that differ are all
quarantined as `duplicate_case_id_conflict`. A pre-pass over the source's duplicated ids
decides which rule applies to each id, keeping one content hash per distinct copy, never the
rows; the main pass then applies it batch by batch.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

import polars as pl

from flows.read.source import RawBatch

if TYPE_CHECKING:
    from schemas import ValidatedRows

log = logging.getLogger("faithpipe")

CONFLICT = "duplicate_case_id_conflict"
EXACT_COPY = "duplicate_case_id_exact_copy"


def _valued_segments(segments: str) -> str:
    """A row's segments without those it has no value for: an export that gained a column
    (`channel`, null in its re-exported old rows) holds the same copies as the one before it.
    In Python, row by row: only the rows of repeated ids come here, and a batch's rows may
    hold different keys."""
    values = json.loads(segments)
    return json.dumps({k: v for k, v in values.items() if v is not None}, sort_keys=True)


def copy_contents(copies: pl.DataFrame) -> pl.DataFrame:
    """`case_id` and a hash of each validated copy's content, by which copies are told apart
    (its file aside, and segments it has no value for): one rule for both engines."""
    return copies.select(
        "case_id",
        content=pl.struct(
            pl.exclude("source_file", "segments"),
            pl.col("segments").map_elements(_valued_segments, return_dtype=pl.String),
        ).hash(),
    )


class DuplicatePlan:
    """Which duplicated ids conflict, which are exact copies, and which copies were kept."""

    def __init__(self, conflicting: pl.Series, copied: pl.Series) -> None:
        self._conflicting = conflicting.implode()
        self._copied = copied.implode()
        self._kept = pl.Series("case_id", [], dtype=pl.String)

    @classmethod
    def of(
        cls,
        duplicated: pl.DataFrame,
        raws: Iterable[RawBatch],
        validate: Callable[[RawBatch], ValidatedRows],
    ) -> DuplicatePlan:
        """Read the source once, keeping (case_id, content hash) of the duplicated ids' valid
        rows only (a copy that breaks the contract is quarantined for that, not counted as a
        differing copy). The hash is polars' own, compared within this process only."""
        ids = duplicated["case_id"].implode()
        seen: list[pl.DataFrame] = []
        for raw in raws:
            # Only the rows of repeated ids are validated: most of a source never repeats.
            repeated = pl.col("case_id").cast(pl.String, strict=False).is_in(ids)
            valid = validate(raw.where(repeated)).valid
            seen.append(copy_contents(valid.filter(pl.col("case_id").is_in(ids))).unique())
        versions = (
            pl.concat(seen).group_by("case_id").agg(pl.col("content").n_unique())
            if seen
            else pl.DataFrame(schema={"case_id": pl.String, "content": pl.UInt32})
        )
        conflicting = versions.filter(pl.col("content") > 1)["case_id"]
        log_repeated_ids(duplicated.height, conflicting.len())
        return cls(conflicting, versions.filter(pl.col("content") == 1)["case_id"])

    def kept(self, case_ids: pl.Series) -> None:
        """Record ids whose copy was kept elsewhere (an earlier Dask partition)."""
        self._kept = pl.concat([self._kept, case_ids.cast(pl.String).rename("case_id")])

    def resolve(self, valid: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
        """Split a batch's valid rows into those to score and quarantine rows for the rest."""
        case_id = pl.col("case_id")
        rows = valid.with_row_index("row").with_columns(
            _conflict=case_id.is_in(self._conflicting),
            _copy=case_id.is_in(self._copied)
            & (case_id.is_in(self._kept.implode()) | ~case_id.is_first_distinct()),
        )
        dropped = pl.col("_conflict") | pl.col("_copy")
        kept = rows.filter(~dropped)
        self._kept = pl.concat([self._kept, kept.filter(case_id.is_in(self._copied))["case_id"]])
        quarantined = rows.filter(dropped).select(
            check=pl.when("_conflict").then(pl.lit(CONFLICT)).otherwise(pl.lit(EXACT_COPY)),
            case_id="case_id",
            column=pl.lit("case_id"),
            value="case_id",
            row_json=pl.struct(
                pl.exclude("row", "_conflict", "_copy", "source_file")
            ).struct.json_encode(),
            source_file="source_file",
            row=pl.col("row").cast(pl.UInt32),
        )
        return kept.drop("row", "_conflict", "_copy"), quarantined


def log_repeated_ids(repeated: int, conflicting: int) -> None:
    """The run's one line on repeated case_ids, on either engine."""
    log.info(
        "%s case_ids occur more than once: %s with differing copies, quarantined",
        f"{repeated:,}",
        f"{conflicting:,}",
    )
