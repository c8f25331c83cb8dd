"""What a stopping run says besides its error line: the offline judges hold no cache, so a
batch they are still scoring as the run stops loses nothing, and the run says nothing of it.
A corrupt later file (or any failure, or Ctrl-C) while the grounded judge scored a batch
printed `stopping: the judge is still busy; its unflushed cache entries are lost` above the
one error line, telling of a loss that never happens."""

from __future__ import annotations

import logging
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from flows.run.batches import score_batch, validate_batch
from flows.run.pipeline import run_score
from flows.run.run_state import Steps
from flows.run.settings import ScoreSettings
from tests.support.builders import many_cases, write


class SecondBatchUnreadable(RuntimeError):
    pass


def test_a_failure_while_the_grounded_judge_scores_says_no_cache_was_lost(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cases = many_cases(40)
    source = tmp_path / "logs"
    write(cases.slice(0, 20), source / "a.parquet")
    write(cases.slice(20), source / "b.parquet")
    scoring = threading.Event()
    validated: list[int] = []

    def slow_score(*args: Any) -> Any:
        scoring.set()
        threading.Event().wait(3)  # still scoring batch 1 when the run stops
        return score_batch(*args)

    def validate(raw: Any, limits: Any) -> Any:
        validated.append(1)
        if len(validated) == 2:  # the next batch fails as batch 1 is being scored
            scoring.wait(60)
            raise SecondBatchUnreadable("batch 2 cannot be read")
        return validate_batch(raw, limits)

    steps = replace(Steps(), validate=validate, score=slow_score)
    settings = ScoreSettings(source=str(source), db=str(tmp_path / "f.duckdb"), batch_size=20)
    with caplog.at_level(logging.INFO, logger="faithpipe"), pytest.raises(SecondBatchUnreadable):
        run_score(settings, steps=steps)
    said = [record.getMessage() for record in caplog.records if record.levelno >= logging.WARNING]
    assert said == []
