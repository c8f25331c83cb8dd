"""Crash safety (issue 6), the later moments: a nightly run SIGKILLed two thirds of the way
through, or four batches before its end, is resumed by the next run with no case lost or
duplicated. The earlier moments and the helpers: test_crash_resume.py (split so the two
pytest workers share the trials)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.flows.run.test_crash_resume import (
    LATE_MOMENTS,
    kill_and_resume,
    score_uninterrupted,
    write_source,
)


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_source(tmp_path_factory)


@pytest.fixture(scope="module")
def uninterrupted(source: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple:
    return score_uninterrupted(source, tmp_path_factory)


@pytest.mark.slow
@pytest.mark.parametrize(("batches", "offset"), LATE_MOMENTS)
def test_killed_run_resumes_to_the_same_tables(
    source: Path, uninterrupted: tuple, tmp_path: Path, batches: int, offset: float
) -> None:
    kill_and_resume(source, uninterrupted, tmp_path / "f.duckdb", batches, offset)
