"""A run's stage threads: calls in order, every future ends, and a closed stage's thread serves
the next run's stage of its name (polars compiles its regexes once a thread)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable

import pytest

import flows.run.stage as stage_module
from flows.run.stage import Stage


def _thread_of(stage: Stage) -> threading.Thread:
    return stage.submit(threading.current_thread).result(timeout=30)


def _wait_until(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + 30
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


def _parked(name: str) -> bool:
    return name in stage_module._IDLE.workers


def test_the_next_runs_stage_gets_the_thread_a_closed_stage_freed() -> None:
    first = Stage("faithpipe-test-reuse")
    thread = _thread_of(first)
    first.close()
    _wait_until(lambda: _parked("faithpipe-test-reuse"), "the closed stage's thread never freed")
    second = Stage("faithpipe-test-reuse")
    assert _thread_of(second) is thread
    second.close()


def test_stages_open_at_once_have_threads_of_their_own_and_calls_keep_their_order() -> None:
    one, two = Stage("faithpipe-test-pair"), Stage("faithpipe-test-pair")
    assert _thread_of(one) is not _thread_of(two)
    seen: list[int] = []
    futures = [one.submit(seen.append, n) for n in range(50)]
    for future in futures:
        future.result(timeout=30)
    assert seen == list(range(50))
    one.close()
    two.close()


def test_a_failing_call_ends_its_future_and_the_thread_serves_on() -> None:
    stage = Stage("faithpipe-test-failing")
    with pytest.raises(ZeroDivisionError):
        stage.submit(lambda: 1 / 0).result(timeout=30)
    assert stage.submit(lambda: "still here").result(timeout=30) == "still here"
    stage.close()


def test_a_closed_stage_takes_no_more_calls() -> None:
    stage = Stage("faithpipe-test-closed")
    stage.close()
    stage.close()  # twice is harmless
    with pytest.raises(RuntimeError, match="closed"):
        stage.submit(print)


def test_idle_threads_stay_one_a_name() -> None:
    name = "faithpipe-test-bounded"
    stages = [Stage(name) for _ in range(4)]
    for stage in stages:
        _thread_of(stage)
        stage.close()

    def named() -> list[threading.Thread]:
        return [t for t in threading.enumerate() if t.name == name]

    _wait_until(lambda: len(named()) == 1, f"{len(named())} idle threads named {name}")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork only")
def test_a_forked_child_starts_threads_of_its_own() -> None:
    parent = Stage("faithpipe-test-fork")
    _thread_of(parent)
    parent.close()
    _wait_until(lambda: _parked("faithpipe-test-fork"), "the closed stage's thread never freed")
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: the parent's parked thread does not exist here
        try:
            ran = Stage("faithpipe-test-fork").submit(lambda: "ran").result(timeout=10)
            os.write(write, b"1" if ran == "ran" else b"0")
        finally:
            os._exit(0)
    os.close(write)
    assert os.read(read, 1) == b"1", "the child's stage waited on a thread it does not have"
    os.close(read)
    os.waitpid(pid, 0)
