"""The three steps of a batch — validate, score, write — as plain functions.

The Prefect flow wraps each in a task; the plain route calls them directly. The write step
is the store's (`flows/store/batch_writes.py:write_batch`): one transaction a batch.
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import polars as pl

from faith_udfs import FaithfulnessFrames, Judge, MetricConfig, score_cases
from flows.judges.factory import judge_usage
from flows.read.source import RawBatch
from flows.run.judge_accounting import case_usage
from flows.run.turn_support import with_turn_support
from flows.scrub import scrub
from flows.store.content_hash import content_hashes
from flows.store.db import register, sql
from schemas import ScoredBatch, SizeLimits, ValidatedRows, validate_cases

if TYPE_CHECKING:
    import duckdb


@dataclass
class Batch:
    """Rows gathered for one scoring batch, and the rows in it that were quarantined."""

    valid: list[pl.DataFrame] = field(default_factory=list)
    quarantined: list[pl.DataFrame] = field(default_factory=list)
    seconds_validate: float = 0.0
    seconds_read: float = 0.0

    @property
    def height(self) -> int:
        return sum(frame.height for frame in self.valid)

    @property
    def rows_quarantined(self) -> int:
        """Input rows quarantined (one `row_key` a row, however many checks it failed)."""
        return sum(frame["row_key"].n_unique() for frame in self.quarantined if frame.height)

    @property
    def rows_in(self) -> int:
        return self.height + self.rows_quarantined

    def split(self, rows: int) -> tuple[Batch, Batch]:
        """A batch of `rows` rows read: this batch's quarantine rows and seconds, and as many
        valid rows as fit beside them; the valid rows after them start the next batch."""
        valid = pl.concat(self.valid, how="vertical_relaxed")
        fit = max(rows - self.rows_quarantined, 0)
        head = Batch([valid.head(fit)], self.quarantined, self.seconds_validate, self.seconds_read)
        rest = Batch([valid.slice(fit)], [frame.clear() for frame in self.quarantined[:1]])
        return head, rest


def validate_batch(raw: RawBatch, limits: SizeLimits | None = None) -> ValidatedRows:
    """Check a raw batch against the contract; bad rows (and rows past `limits`) become
    quarantine rows."""
    started = time.perf_counter()
    checked = validate_cases(
        raw.frame, limits, lists_as_json=raw.lists_as_json, content_ids=raw.content_ids
    )
    files: pl.Expr | pl.Series
    valid_files: pl.Expr | pl.Series
    if raw.files is None:
        files = pl.lit(raw.source_file)
        valid_files = files
    else:  # small files read together: each row's own file
        files = raw.files.gather(checked.quarantined["row"])
        bad = checked.quarantined["row"].unique().implode()
        rows = raw.files.to_frame("source_file").with_row_index("row")
        valid_files = rows.filter(~pl.col("row").is_in(bad))["source_file"]
    quarantined = checked.quarantined.select(
        "check",
        "case_id",
        "column",
        "value",
        "row_json",
        source_file=files,
        row=pl.col("row"),
    )
    return ValidatedRows(
        valid=checked.valid.with_columns(source_file=valid_files),
        quarantined=quarantined,
        seconds=time.perf_counter() - started,
    )


class QuarantineKeys:
    """Stable keys for quarantined rows: the same input row gets the same key on every run,
    and identical rows in one source still get distinct keys (their occurrence number)."""

    def __init__(self) -> None:
        self._seen: Counter[str] = Counter()

    def keyed(self, quarantined: pl.DataFrame) -> pl.DataFrame:
        """Add `row_key`; one key per input row, shared by that row's failed checks."""
        if quarantined.height == 0:
            return quarantined.with_columns(row_key=pl.lit(None, dtype=pl.String))
        rows = quarantined.select("row", "source_file", "row_json").unique(
            "row", maintain_order=True
        )
        keys = []
        for source_file, row_json in rows.select("source_file", "row_json").iter_rows():
            digest = hashlib.md5(f"{source_file}\x1f{row_json}".encode(), usedforsecurity=False)
            base = digest.hexdigest()
            self._seen[base] += 1
            keys.append(f"{base}-{self._seen[base]}")
        rows = rows.select("row").with_columns(row_key=pl.Series(keys, dtype=pl.String))
        return quarantined.join(rows, on="row", how="left")


def classify(
    reader: duckdb.DuckDBPyConnection,
    cases: pl.DataFrame,
    config_id: str,
    *,
    stored_before: bool = True,
) -> pl.DataFrame:
    """Content hash of each case and what is stored for it: decides score, skip or replace.

    `reader` is a cursor of its own: it runs in the reading thread while the writer commits.
    `stored_before=False` (nothing stored under the config when the run began) skips looking:
    a run's batches never share a case_id, so its own rows can never match.
    """
    hashed = content_hashes(cases, reader)
    if not stored_before:
        return decide(
            hashed.with_columns(
                stored_hash=pl.lit(None, pl.String), stored_status=pl.lit(None, pl.String)
            )
        )
    register(reader, "incoming", hashed)
    try:
        query = reader.sql(sql("classify_cases"), params={"config_id": config_id})
        classified = pl.from_arrow(query.to_arrow_table())
    finally:
        reader.unregister("incoming")
    assert isinstance(classified, pl.DataFrame)
    return decide(classified)


def decide(classified: pl.DataFrame) -> pl.DataFrame:
    """Score, skip or replace each case, from its content hash and what is stored for it
    (`case_id`, `content_hash`, `stored_hash`, `stored_status`); the Dask engine's workers
    call it on a snapshot of the store."""
    unchanged = pl.col("stored_hash") == pl.col("content_hash")
    return classified.with_columns(
        skip=(unchanged & (pl.col("stored_status") == "scored")).fill_null(False),
        replaced=(pl.col("stored_hash").is_not_null() & ~unchanged).fill_null(False),
        rescored=pl.col("stored_hash").is_not_null(),
    )


def _invalid_again(case_scores: pl.DataFrame, classified: pl.DataFrame) -> int:
    """Cases that ended invalid again with the content they were stored invalid with."""
    before = classified.filter(
        (pl.col("stored_status") == "invalid") & (pl.col("stored_hash") == pl.col("content_hash"))
    )
    if not before.height:
        return 0
    invalid = case_scores.filter(pl.col("status") == "invalid").select("case_id")
    return invalid.join(before.select("case_id"), on="case_id", how="semi").height


def config_has_cases(con: duckdb.DuckDBPyConnection, config_id: str) -> bool:
    """Whether any case is stored under the config (else a run's classify need not look)."""
    return bool(con.execute(sql("config_has_cases"), {"config_id": config_id}).fetchall()[0][0])


def score_batch(
    cases: pl.DataFrame,
    classified: pl.DataFrame,
    quarantined: pl.DataFrame,
    judge: Judge,
    config: MetricConfig,
) -> ScoredBatch:
    """Score the cases not already scored under this config with unchanged content."""
    started = time.perf_counter()
    before = judge_usage(judge)
    # classified has a row for each case: where none is skipped, every case is to do (the
    # semi join cost 0.09 CPU-s a 200k-row batch, on a first run's every batch).
    skipped = classified["skip"].any()
    todo = (
        cases.join(classified.filter(~pl.col("skip")).select("case_id"), on="case_id", how="semi")
        if skipped
        else cases
    )
    # The contract quarantined the rows past the run's --max-sentence-pairs already
    # (too_many_sentence_pairs): the metric's default limit must not undo a raised one.
    frames = score_cases(todo, judge, config, max_sentence_pairs=None) if todo.height else None
    if frames is not None:
        frames = _scrubbed_errors(with_turn_support(frames, todo))
    usage = case_usage(frames, judge) if frames else None
    status = frames.case_scores["status"] if frames else pl.Series([], dtype=pl.String)
    success = frames.case_scores["success"] if frames else pl.Series([], dtype=pl.Boolean)
    rows_quarantined = quarantined["row_key"].n_unique() if quarantined.height else 0
    counts = {
        "rows_in": cases.height + rows_quarantined,
        "rows_newly_scored": int((status == "scored").sum()),
        "rows_already_scored": int(classified["skip"].sum()),
        "rows_invalid": int((status == "invalid").sum()),
        "rows_invalid_again": _invalid_again(frames.case_scores, classified) if frames else 0,
        "rows_pending": int((status == "pending").sum()),
        "rows_quarantined": rows_quarantined,
        "rows_replaced": int(classified.filter(~pl.col("skip"))["replaced"].sum()),
        "rows_passed": int(success.fill_null(False).sum()),
    }
    return ScoredBatch(
        cases=cases,
        classified=classified,
        frames=frames,
        usage=usage,
        quarantined=quarantined,
        counts=counts,
        spent={key: value - before[key] for key, value in judge_usage(judge).items()},
        seconds_score=time.perf_counter() - started,
    )


def _scrubbed_errors(frames: FaithfulnessFrames) -> FaithfulnessFrames:
    """The cases' errors without the secrets `flows.scrub` knows: a judge's error may quote
    what it was told, and a custom model's (its provider SDK's `Incorrect API key provided:
    …`) was stored verbatim. Each distinct error is scrubbed once."""
    errors = frames.case_scores["error"].drop_nulls().unique().to_list()
    # model_text: an error quotes what a model wrote, whose words a placeholder key (`test`,
    # `EMPTY`) may be; a real key is cut wherever it stands
    changed = {error: cut for error in errors if (cut := scrub(error, model_text=True)) != error}
    if not changed:
        return frames
    scores = frames.case_scores.with_columns(pl.col("error").replace(changed))
    return replace(frames, case_scores=scores)
