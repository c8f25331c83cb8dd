"""A Dask run stopped while its flow process asks the items partitions share: a second stop
(SIGTERM after Ctrl-C, as a scheduler sends) while the judge is closed cannot cut the close
short, so the replies paid for reach `judge_cache` and the calls are counted in the run's row,
as a local run's stop clean-up does (flows/run/stopping.py)."""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path
from types import FrameType, SimpleNamespace
from typing import Any

import polars as pl
import pytest

import flows.engines.shared_items as shared_items
from faith_udfs import MetricConfig
from flows.judges.settings import JudgeSettings
from flows.run.stop_signals import Terminated

SPENT = {"calls": 3, "failed": 0, "prompt_tokens": 30, "completion_tokens": 9, "cached": 0}


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    raise Terminated


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(), reason="signals")
def test_a_second_stop_while_the_judge_closes_loses_no_paid_call(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    cases = pl.DataFrame(
        {"case_id": ["a"], "actual_output": ["Yes."], "retrieval_context": [["Refunds: 14 days."]]}
    )
    read = SimpleNamespace(todo=lambda: cases)
    jobs = [SimpleNamespace(partition=SimpleNamespace(number=n)) for n in (0, 1)]
    done: list[str] = []

    def score_cases(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt  # Ctrl-C while the shared items are asked

    def close_judge(judge: object) -> None:
        os.kill(os.getpid(), signal.SIGTERM)  # ... then SIGTERM while the judge closes
        done.append("replies flushed")

    def count_shared_items(con: object, run_id: str, spent: dict[str, int]) -> None:
        done.append(f"counted {spent['calls']} calls")

    monkeypatch.setattr(shared_items, "partition_cases", lambda job: read)
    monkeypatch.setattr(shared_items, "build_judge", lambda settings, con: object())
    monkeypatch.setattr(shared_items, "score_cases", score_cases)
    monkeypatch.setattr(shared_items, "close_judge", close_judge)
    usage = iter([dict.fromkeys(SPENT, 0), SPENT])
    monkeypatch.setattr(shared_items, "judge_usage", lambda judge: next(usage))
    monkeypatch.setattr(shared_items, "count_shared_items", count_shared_items)
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        with pytest.raises(KeyboardInterrupt):
            shared_items.ask_shared_items(
                None,  # type: ignore[arg-type]
                JudgeSettings(kind="openai", model="m"),
                jobs,  # type: ignore[arg-type]
                MetricConfig(),
                run_id="r",
                prepaid=tmp_path / "prepaid.parquet",
            )
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert done == ["replies flushed", "counted 3 calls"]
