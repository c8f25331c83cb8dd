"""While a batch takes long (an LLM judge on 150,000 cases: hours), the run says it is still at
work every HEARTBEAT_SECONDS: one line a batch left a night silent that long (QA)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

import pytest

from flows.run.progress import HEARTBEAT_SECONDS, LogProgress


def _lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [record.getMessage() for record in caplog.records]


def _wait_for(predicate: Callable[[], bool], seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "no heartbeat line in time"
        time.sleep(0.01)


def test_a_long_batch_says_the_run_is_at_work_and_a_stop_ends_the_lines(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="faithpipe")
    progress = LogProgress(heartbeat=0.2)
    progress.start(300, "run r1")
    progress.advance(
        100, {"batches": 1, "rows_scored": 100, "rows_invalid": 0, "rows_quarantined": 0}
    )
    _wait_for(lambda: any("still at work" in line for line in _lines(caplog)))
    progress.stop()
    said = _lines(caplog)
    beats = [line for line in said if "still at work" in line]
    assert beats[0].startswith("batch 2: still at work, ")
    assert beats[0].endswith("s into it (100/300 rows done)")
    assert said.index(beats[0]) > 1  # after the batch line, never before the run's first
    assert not [t for t in threading.enumerate() if t.name == "faith-progress"]
    time.sleep(0.5)  # stopped: no more lines
    assert _lines(caplog) == said


def test_a_batch_line_within_the_heartbeat_leaves_no_other_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="faithpipe")
    progress = LogProgress()
    progress.start(100, "run r1")
    progress.advance(
        100, {"batches": 1, "rows_scored": 100, "rows_invalid": 0, "rows_quarantined": 0}
    )
    progress.stop()
    assert HEARTBEAT_SECONDS == 20.0
    assert not [line for line in _lines(caplog) if "still at work" in line]
