"""What a scoring run in progress holds between batches (RunState), and the batch steps it
calls (Steps: plain functions, or the Prefect flow's task-wrapped ones)."""

from __future__ import annotations

import os
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from faith_udfs import Judge, MetricConfig
from faith_udfs.grounded import GROUNDED_JUDGES
from faith_udfs.grounded_v1 import GroundedV1Judge
from faith_udfs.lexical import LexicalJudge
from flows.judges.factory import judge_usage
from flows.run.batches import (
    QuarantineKeys,
    config_has_cases,
    score_batch,
    validate_batch,
)
from flows.run.progress import Progress
from flows.run.stage import Stage
from flows.store.batch_writes import write_batch
from schemas import ScoredBatch, SizeLimits, ValidatedRows

if TYPE_CHECKING:
    import duckdb


@dataclass(frozen=True)
class Steps:
    """The batch steps a run calls; the Prefect flow swaps in task-wrapped versions."""

    validate: Callable[..., ValidatedRows] = validate_batch
    score: Callable[..., ScoredBatch] = score_batch
    write: Callable[..., float] = write_batch


@dataclass
class RunState:
    """What a run in progress holds between batches."""

    con: duckdb.DuckDBPyConnection
    run_id: str
    config_id: str
    config: MetricConfig
    judge: Judge
    steps: Steps
    progress: Progress
    keys: QuarantineKeys = field(default_factory=QuarantineKeys)
    limits: SizeLimits = field(default_factory=SizeLimits)
    db: str = "the database"  # its path, for the error lines
    # Stages on threads, so each core always has work (polars and DuckDB release the GIL):
    # this thread reads, validates and classifies batch N+2 while the scoring threads score
    # N+1 and the writing thread commits N. An offline judge's stage keeps only ~1.3 cores
    # busy (its many small polars steps each run partly on one thread), so the ones we ship
    # get two scoring threads, batches dealt in turn; any other judge gets one, and sees one
    # batch at a time (an LLM judge's usage and caches are counted per batch, a custom
    # judge may count its calls). Batches commit in order.
    # Every future they hand out ends, so no wait here can hang on a cancelled one
    # (concurrent.futures' executors never report a future cancelled by shutdown to `wait`).
    scorers: tuple[Stage, ...] = field(init=False)
    writer: Stage = field(default_factory=lambda: Stage("faithpipe-write"))
    writes: deque[Future[None]] = field(default_factory=deque)
    # Batches handed to the writer so far: each write knows its number, so a retried write
    # of a committed batch adds nothing.
    submitted: int = 0
    # The latest scoring of each scoring thread, so stopping can give them a moment before
    # closing the judge.
    scorings: deque[Future[Any]] = field(init=False)
    # Set when a batch fails or the run is interrupted: no later batch is scored (no judge call
    # is paid for a batch that would not be committed) ...
    stop_scoring: threading.Event = field(default_factory=threading.Event)
    # ... or committed. Batches before a failed one are still committed, in order.
    stop_writing: threading.Event = field(default_factory=threading.Event)
    # Held by the writing thread while it uses `con`; a stopping run takes it (and keeps it),
    # so no batch starts committing after the run was marked.
    con_lock: threading.Lock = field(default_factory=threading.Lock)
    # This thread's cursor for classifying; `con` is the writing thread's. One connection
    # must never serve two threads at once: their statements would share one transaction.
    reader: duckdb.DuckDBPyConnection = field(init=False)
    # Whether the config had cases stored when the run began; if not, classifying a batch
    # only hashes it (a run's batches never share a case_id).
    stored_before: bool = field(init=False)
    # The judge's calls and tokens before the run (a judge may have served a check before):
    # a stopped run counts what it spent since, its uncommitted batch's too.
    usage_at_start: dict[str, int] = field(init=False)

    def __post_init__(self) -> None:
        n = scoring_threads(self.judge)
        self.scorers = tuple(Stage(f"faithpipe-score-{i + 1}") for i in range(n))
        self.scorings = deque(maxlen=n)
        self.reader = self.con.cursor()
        self.stored_before = config_has_cases(self.con, self.config_id)
        self.usage_at_start = judge_usage(self.judge)

    def usage_since_start(self) -> dict[str, int]:
        """The judge's calls and tokens during this run, committed or not."""
        now = judge_usage(self.judge)
        return {key: now[key] - self.usage_at_start.get(key, 0) for key in now}


# The offline judges faithpipe ships: pure functions of their frames, safe on two threads at
# once. A subclass may keep state between batches (a counter, a cache), so it gets one thread.
_PURE_JUDGES = frozenset({LexicalJudge, GroundedV1Judge, *GROUNDED_JUDGES})


def is_pure_judge(judge: Judge) -> bool:
    """One of the offline judges faithpipe ships: it holds no cursor of the run's database."""
    return type(judge) in _PURE_JUDGES


def scoring_threads(judge: Judge) -> int:
    """Two scoring threads for one of the offline judges faithpipe ships when the process may
    use two cores or more, else one."""
    return 2 if is_pure_judge(judge) and usable_cores() >= 2 else 1


def usable_cores() -> int:
    """The cores this process may run on (a pinned process or a container's cpuset has fewer
    than the machine)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1
