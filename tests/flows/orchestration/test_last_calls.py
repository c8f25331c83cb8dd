"""The deadline on Prefect's last calls holds the CLI's process only: armed by the CLI, started
as the work is committed, cancelled when the flow call returns (the ending itself, a paused
server, is test_failure_lines.py's). A library caller, such as this test process, never arms
it, and one that did lives on once its flow returns."""

from __future__ import annotations

import threading

import pytest

from flows.orchestration import last_calls


def _deadline_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "faithpipe-prefect-last-calls"]


def test_a_flow_that_returns_cancels_its_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(last_calls, "_ARMED", {"seconds": 600.0, "url": "http://127.0.0.1/api"})
    last_calls.work_committed({"run_id": "r1"})
    (timer,) = _deadline_threads()
    last_calls.flow_returned()
    timer.join(10)
    assert not timer.is_alive()
    assert _deadline_threads() == []


def test_unarmed_the_committed_work_starts_no_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(last_calls, "_ARMED", {})
    last_calls.work_committed({"run_id": "r1"})
    assert _deadline_threads() == []
    last_calls.flow_returned()  # nothing to cancel
