"""Stopping a run's threads on a signal or a failure, within seconds: no further batch is
scored or committed, the one being committed finishes or is rolled back, the row is marked."""

from __future__ import annotations

import contextlib
import logging
import time

from flows.run.run_end import mark_stopped
from flows.run.run_state import RunState, is_pure_judge
from flows.run.stop_signals import signals_deferred

log = logging.getLogger("faithpipe")

# A stopping run exits within 5 s of the signal or failure: the batch being committed gets
# this long to finish, then it is interrupted (rolled back), and the run row is marked.
_COMMIT_GRACE_SECONDS = 2.0
_ROLLBACK_GRACE_SECONDS = 1.0
# ... and the batch being scored this long to notice, before the judge is closed under it.
_SCORING_GRACE_SECONDS = 0.5


def stop_and_mark(state: RunState, started: float, exc: BaseException) -> tuple[bool, bool]:
    """Stop the run's threads and mark its row; returns whether the connection is free for
    this thread and whether the judge is idle (so it may be closed)."""
    with signals_deferred():
        con_free = _stop(state)
        judge_idle = con_free and _scoring_ended(state)
        # When the writing thread still holds the connection, a cursor of its own tries.
        con = state.con if con_free else state.con.cursor()
        mark_stopped(con, state.run_id, started, exc, spent=state.usage_since_start())
    return con_free, judge_idle


def close_stages(state: RunState, *, deferring: bool = True) -> None:
    """Every batch is committed, or the stop is handled: a signal now cannot cut the run's last
    steps short (they take milliseconds). `deferring`: a stop signal is noted, not raised
    (the run is stopping already); else the caller holds it (completion_held)."""
    with signals_deferred() if deferring else contextlib.nullcontext():
        for scorer in state.scorers:
            scorer.close()
        state.writer.close()
        state.reader.close()
        state.progress.stop()


def _stop(state: RunState) -> bool:
    """Stop scoring and writing; returns whether this thread may use the connection (the
    batch being committed finished or was rolled back in time)."""
    state.stop_scoring.set()
    state.stop_writing.set()
    stop = getattr(state.judge, "stop", None)  # a judge that calls out gives up its waits
    if callable(stop):
        stop()
    if state.con_lock.acquire(timeout=_COMMIT_GRACE_SECONDS):
        return True
    log.warning("stopping: the batch being committed is rolled back")
    state.con.interrupt()
    return state.con_lock.acquire(timeout=_ROLLBACK_GRACE_SECONDS)


def _scoring_ended(state: RunState) -> bool:
    """Whether the judge is idle, so closing it cannot pull it from under a batch: the grace
    is one for all scoring threads."""
    deadline = time.monotonic() + _SCORING_GRACE_SECONDS
    for scoring in list(state.scorings):
        try:
            scoring.exception(timeout=max(0.0, deadline - time.monotonic()))
        except TimeoutError:
            # The offline judges hold no cache: nothing of theirs is lost, nothing to say.
            if not is_pure_judge(state.judge):
                log.warning(
                    "stopping: the judge is still busy; its unflushed cache entries are lost"
                )
            return False
    return True
