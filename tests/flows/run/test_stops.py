"""Every stop is prompt and clean (issue 10): SIGINT or SIGTERM at any moment of a multi-batch
`faith score`, or a failure in any step, exits within 5 s with its documented code, keeps the
committed batches, marks the run, releases the lock, and a re-run ends as an uninterrupted run.

This file: signals between commits, and an interrupt as the run starts or ends. Signals inside
a commit or a query, and a second Ctrl-C: test_stops_mid_query.py; a Prefect flow run:
test_stops_prefect.py (split so the two pytest workers share the trials).
"""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from flows.run.pipeline import run_score
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
