"""A run that stops while the judge it built is still inside DuckDB ends with its own error.

The LLM judges keep their call cache and batch records on cursors of the run's connection.
Under load a stopped judge may still be in one of those calls when the run ends; closing the
connection then made DuckDB refuse ("connection is busy with another call") and that error
replaced the run's (seen as `faith score` exiting 1, not 130, in
test_batch_mode.py::test_submitted_by_one_process_collected_by_another). Here the judge's
second batch is held inside a DuckDB call by the test, so the stop meets it every time.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest

from faith_udfs import LexicalJudge
from flows.run.pipeline import run_score
from flows.run.run_state import Steps
from flows.run.settings import ScoreSettings
from tests.support.builders import many_cases, write


class HeldJudge(LexicalJudge):
    """The lexical judge on a cursor of the run's connection, as the LLM judges' caches
    are; its second batch waits inside a DuckDB call until the test lets it go."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        super().__init__()
        self.cursor = con.cursor()
        self.cursor.create_function("held", self._hold, [], "INTEGER", side_effects=True)
        self.in_call, self.release, self.done = (
            threading.Event(),
            threading.Event(),
            threading.Event(),
        )
        self.batches = 0

    def _hold(self) -> int:
        self.in_call.set()
        self.release.wait(60)
        return 1

    def claims(self, answers: pl.DataFrame) -> pl.DataFrame:
        self.batches += 1
        if self.batches == 2:
            try:
                self.cursor.execute("SELECT held()").fetchall()
            finally:
                self.done.set()
        return super().claims(answers)


def test_a_stop_while_the_judge_is_in_a_query_keeps_the_runs_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = write(many_cases(9), tmp_path / "cases.parquet")
    db = tmp_path / "f.duckdb"
    built: list[tuple[HeldJudge, duckdb.DuckDBPyConnection]] = []

    def build(settings: Any, con: duckdb.DuckDBPyConnection, **_: Any) -> HeldJudge:
        judge = HeldJudge(con)
        built.append((judge, con))
        return judge

    def failing_write(*args: Any, **kwargs: Any) -> float:
        """The first batch's commit fails once the judge is inside its call on the second."""
        ((judge, _),) = built
        assert judge.in_call.wait(60)
        raise RuntimeError("planted: the disk said no")

    monkeypatch.setattr("flows.run.pipeline.build_judge", build)
    settings = ScoreSettings(source=str(source), db=str(db), batch_size=3)
    try:
        with pytest.raises(RuntimeError, match="planted: the disk said no"):
            run_score(settings, steps=Steps(write=failing_write))
    finally:
        ((judge, con),) = built
        judge.release.set()
        assert judge.done.wait(60)
    judge.cursor.close()
    con.close()
    # The run's row was marked before the end, and nothing was committed.
    check = duckdb.connect(str(db), read_only=True)
    try:
        assert check.execute("SELECT status FROM runs").fetchall() == [("failed",)]
        assert check.execute("SELECT count(*) FROM case_scores").fetchall() == [(0,)]
    finally:
        check.close()
