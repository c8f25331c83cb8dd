"""Every stop is prompt and clean (issue 10): SIGINT or SIGTERM at any moment of a multi-batch
`faith score`, or a failure in any step, exits within 5 s with its documented code, keeps the
committed batches, marks the run, releases the lock, and a re-run ends as an uninterrupted run.

This file: signals between commits, and an interrupt as the run starts or ends. Signals inside
a commit or a query, and a second Ctrl-C: test_stops_mid_query.py; a Prefect flow run:
test_stops_prefect.py (split so the two pytest workers share the trials).
"""

from __future__ import annotations

import logging
import signal
from pathlib import Path

import pytest

from flows.run.pipeline import run_score
from flows.run.stop_signals import Terminated, exit_code_of
from tests.flows.run.test_crash_resume import runs
from tests.support.stops import (
    N_CASES,
    moment_id,
    score_uninterrupted,
    settings,
    stop_and_resume,
    write_source,
)


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_source(tmp_path_factory.mktemp("stops"))


@pytest.fixture(scope="module")
def uninterrupted(source: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple:
    return score_uninterrupted(source, tmp_path_factory.mktemp("baseline") / "f.duckdb")


# (signal, child mode, progress line to wait for, seconds after it)
MOMENTS = [
    (signal.SIGINT, "plain", "rows to read", 0.0),  # before the first commit
    (signal.SIGINT, "plain", "batch 3:", 0.02),  # batches queued behind the writer
    (signal.SIGTERM, "plain", "batch 5:", 0.01),
]


@pytest.mark.slow
@pytest.mark.parametrize("moment", MOMENTS, ids=moment_id)
def test_a_signal_stops_the_run_promptly_and_a_rerun_completes_it(
    source: Path, uninterrupted: tuple, tmp_path: Path, moment: tuple
) -> None:
    stop_and_resume(source, uninterrupted, tmp_path / "f.duckdb", moment)


class StoppedAt:
    """A progress display that is interrupted (as by Ctrl-C) when the run starts or ends."""

    def __init__(self, moment: str) -> None:
        self.moment = moment

    def start(self, total: int, description: str) -> None:
        if self.moment == "start":
            raise KeyboardInterrupt

    def advance(self, rows: int, run: dict) -> None:
        return None

    def stop(self) -> None:
        if self.moment == "stop":
            signal.raise_signal(signal.SIGINT)  # arrives while the last steps run


def test_an_interrupt_as_the_run_starts_marks_it_interrupted(source: Path, tmp_path: Path) -> None:
    db = tmp_path / "f.duckdb"
    with pytest.raises(KeyboardInterrupt):
        run_score(settings(source, db), progress=StoppedAt("start"))
    ((_, stopped),) = runs(db).items()
    assert (stopped["status"], stopped["batches"]) == ("interrupted", 0)


def test_an_interrupt_during_the_last_steps_completes_the_run_then_stops(
    source: Path, tmp_path: Path
) -> None:
    """Every batch is in: the run's row is marked completed, then the stop is raised. It was
    noted ("already stopping; exiting within seconds") and dropped, and the process went on:
    a nightly into its judge check, past its scheduler's SIGTERM."""
    db = tmp_path / "f.duckdb"
    with pytest.raises(KeyboardInterrupt):
        run_score(settings(source, db), progress=StoppedAt("stop"))
    ((_, run),) = runs(db).items()
    assert (run["status"], run["rows_newly_scored"]) == ("completed", N_CASES)


def test_an_interrupt_while_the_run_marks_itself_completed_waits_for_the_mark(
    source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from flows.run import run_end

    marked = run_end.finish_run

    def interrupted_mark(*args: object, **kwargs: object) -> None:
        signal.raise_signal(signal.SIGINT)  # arrives as the row is being marked
        marked(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(run_end, "finish_run", interrupted_mark)
    db = tmp_path / "f.duckdb"
    with pytest.raises(KeyboardInterrupt):
        run_score(settings(source, db))
    ((_, run),) = runs(db).items()
    assert (run["status"], run["rows_newly_scored"]) == ("completed", N_CASES)


def test_an_interrupt_during_the_snapshot_cuts_the_copy_short(
    source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The completion's hold ends with the row's mark: a long --snapshot copy is no part of
    it, and a stop during it is raised there (held, the copy ran its full 10 s first)."""
    from flows.run import run_end

    went_on: list[bool] = []

    def slow_copy(*_: object) -> None:
        signal.raise_signal(signal.SIGINT)
        went_on.append(True)  # a held stop lets the copy go on

    monkeypatch.setattr(run_end, "write_snapshot", slow_copy)
    db = tmp_path / "f.duckdb"
    with pytest.raises(KeyboardInterrupt):
        run_score(settings(source, db).model_copy(update={"snapshot": True}))
    assert went_on == []
    ((_, run),) = runs(db).items()
    assert run["status"] == "completed"


class DiskFailed(OSError):
    """The disk failing a step of the run's completion."""


def test_a_sigterm_held_while_the_run_completes_is_raised_when_a_step_after_the_mark_fails(
    entry_point_handlers: None,
    source: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The stop was held while the run completed, and dropped when a step of the completion
    raised: the process ended as for the failure alone, and a caller going on after it (a
    nightly, a Python loop) went on past its scheduler's SIGTERM. The stop is raised, the
    failure its context."""
    from flows.run import run_end

    def sigterm_then_disk_fails(*_: object) -> None:
        signal.raise_signal(signal.SIGTERM)
        raise DiskFailed("recording the judge's protocol")

    monkeypatch.setattr(run_end, "record_run_judge", sigterm_then_disk_fails)
    db = tmp_path / "f.duckdb"
    logger = logging.getLogger("faithpipe")  # the CLI's handler stops its lines at stderr
    logger.addHandler(caplog.handler)
    try:
        with pytest.raises(Terminated) as raised:
            run_score(settings(source, db))
    finally:
        logger.removeHandler(caplog.handler)
    assert exit_code_of(raised.value) == 143
    assert isinstance(raised.value.__context__, DiskFailed)
    assert "DiskFailed: recording the judge's protocol, as it stopped" in caplog.text
    ((_, run),) = runs(db).items()
    assert (run["status"], run["rows_newly_scored"]) == ("completed", N_CASES)


def test_a_sigterm_held_while_the_run_completes_is_raised_when_the_mark_fails(
    entry_point_handlers: None, source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The row's mark failed: the row was left `running` (until a later run superseded it)
    and the stop dropped. It says `interrupted`, as for any stop before the mark."""
    from flows.run import run_end

    marked = run_end.finish_run
    failures = [DiskFailed("marking the run completed")]

    def sigterm_then_disk_fails_once(*args: object, **kwargs: object) -> None:
        if failures:
            signal.raise_signal(signal.SIGTERM)
            raise failures.pop()
        marked(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(run_end, "finish_run", sigterm_then_disk_fails_once)
    db = tmp_path / "f.duckdb"
    with pytest.raises(Terminated):
        run_score(settings(source, db))
    ((_, run),) = runs(db).items()
    assert (run["status"], run["error"]) == ("interrupted", "interrupted by SIGTERM")
    assert run["rows_newly_scored"] == N_CASES  # every batch committed is kept
