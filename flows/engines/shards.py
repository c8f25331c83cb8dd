"""A scored partition on disk: the frames one batch commits, as Parquet files in a folder
that appears only when complete (written under a temporary name, then renamed).

Workers write shards; the flow process, the database's one writer, reads each back and loads
it in one transaction (flows/engines/loading.py), then removes it.
"""

from __future__ import annotations

import json
import os
import shutil
import uuid
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from faith_udfs import FaithfulnessFrames
from flows.errors import DISK_FULL_ERRNOS
from flows.store.shard_data import REPLY_COLUMNS
from schemas import ScoredBatch

# What a batch's write reads of the scored frames (not `item_keys`: judge usage is charged
# to cases on the worker, in `usage`).
_FRAMES = ("case_scores", "claim_verdicts", "truths")
# The case columns a write needs (flows/store/batch_writes.py).
_CASE_COLUMNS = ("case_id", "logged_at", "input", "actual_output", "segments")


@dataclass(frozen=True)
class Shard:
    """One partition's results as loaded back: what `write_batch` commits, the seconds the
    worker spent reading and validating, the judge replies it was given, and the endpoint's
    refusal, if it refused every call."""

    number: int
    scored: ScoredBatch
    seconds: dict[str, float]
    replies: pl.DataFrame
    fatal: str | None


def shard_path(folder: Path, number: int) -> Path:
    return folder / f"part-{number:06d}"


def write_shard(folder: Path, shard: Shard) -> Path:
    """Write the shard under a temporary name, then rename it: a reader sees all of it or
    nothing. A shard already there (a retried task) is kept: both hold the partition's result."""
    final = shard_path(folder, shard.number)
    temporary = folder / f".{final.name}.{uuid.uuid4().hex}.tmp"
    temporary.mkdir(parents=True)
    try:
        _write_parts(temporary, shard)
    except (OSError, pl.exceptions.ComputeError) as exc:
        shutil.rmtree(temporary, ignore_errors=True)  # the space it took is the disk's again
        full = _disk_full(exc)
        if full is None:
            raise
        # an OSError with its errno: exit 7 and the full disk's line, as for the database
        raise OSError(full, f"writing Dask shard {final}: {os.strerror(full)}") from exc
    try:
        os.rename(temporary, final)
    except OSError:
        if not final.is_dir():
            raise
        shutil.rmtree(temporary, ignore_errors=True)
    return final


def write_paid_replies(folder: Path, number: int, replies: pl.DataFrame) -> Path | None:
    """The judge replies a partition's task paid for before it failed or was cut off (its
    run stopped, the worker closing), under a name of their own beside the shards (a retry's
    shard keeps the partition's): `salvage_stale_shards` and a stopping run's
    `keep_unloaded_replies` store them in judge_cache, so no call is paid twice. Best effort,
    on a failure path: None when there are none or they cannot be written."""
    if replies.is_empty():
        return None
    name = f"{shard_path(folder, number).name}.replies-{uuid.uuid4().hex}"
    temporary = folder / f".{name}.tmp"
    try:
        temporary.mkdir(parents=True)
        replies.write_parquet(temporary / "replies.parquet")
        os.rename(temporary, folder / name)
    except (OSError, pl.exceptions.ComputeError):
        shutil.rmtree(temporary, ignore_errors=True)
        return None
    return folder / name


def _write_parts(folder: Path, shard: Shard) -> None:
    """The shard's frames as Parquet files and its counts as meta.json, in `folder`."""
    scored = shard.scored
    frames = {
        "cases": scored.cases.select(_CASE_COLUMNS),
        "classified": scored.classified,
        "quarantined": scored.quarantined,
        "replies": shard.replies,
    }
    if scored.frames is not None:
        frames.update({name: getattr(scored.frames, name) for name in _FRAMES})
    if scored.usage is not None:
        frames["usage"] = scored.usage
    for name, frame in frames.items():
        # lz4: a shard lives seconds; zstd's smaller files are not worth its CPU here
        frame.write_parquet(folder / f"{name}.parquet", compression="lz4")
    meta = {
        "counts": scored.counts,
        "spent": scored.spent,
        "seconds_score": scored.seconds_score,
        "seconds": shard.seconds,
        "fatal": shard.fatal,
    }
    (folder / "meta.json").write_text(json.dumps(meta))


def _disk_full(exc: BaseException) -> int | None:
    """ENOSPC or EDQUOT when the disk said it is full, to the OS or through polars' writer
    (a ComputeError quoting `No space left on device (os error 28)`); else None."""
    for number in sorted(DISK_FULL_ERRNOS):
        if getattr(exc, "errno", None) == number or f"(os error {number})" in str(exc):
            return number
    return None


def read_shard(path: Path, number: int) -> Shard:
    """A shard written by `write_shard`, as the frames and counts it holds."""
    meta = json.loads((path / "meta.json").read_text())

    def frame(name: str) -> pl.DataFrame | None:
        file = path / f"{name}.parquet"
        return pl.read_parquet(file) if file.is_file() else None

    parts = {name: frame(name) for name in _FRAMES}
    frames = None
    if parts["case_scores"] is not None:
        frames = FaithfulnessFrames(**parts, item_keys=pl.DataFrame())  # type: ignore[arg-type]
    scored = ScoredBatch(
        cases=pl.read_parquet(path / "cases.parquet"),
        classified=pl.read_parquet(path / "classified.parquet"),
        frames=frames,
        usage=frame("usage"),
        quarantined=pl.read_parquet(path / "quarantined.parquet"),
        # a worker of a release before rows_invalid_again (a cluster not yet upgraded) has none
        counts={"rows_invalid_again": 0, **meta["counts"]},
        seconds_score=meta["seconds_score"],
        spent=meta["spent"],
    )
    replies = frame("replies")
    if replies is None:
        replies = pl.DataFrame(schema=REPLY_COLUMNS)
    return Shard(number, scored, meta["seconds"], replies, meta["fatal"])
