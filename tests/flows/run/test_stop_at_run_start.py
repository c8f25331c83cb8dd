"""A stop in the first moments of a run, once its row of `runs` is in, marks that row
`interrupted`: a Ctrl-C half a second into `faith score` on a fast machine (landing in the
price lookup's first import, or inside start_run) left it `running` for good. Both engines:
the Dask one's partitions scored in this process, as its workers would."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

import flows.engines.dask_run as dask_run
import flows.run.pipeline as pipeline
from flows.run.settings import ScoreSettings
from tests.flows.run.test_calibrate import InlineSubmitter
from tests.support.builders import many_cases, write
from tests.support.db_reading import query


def local(settings: ScoreSettings) -> object:
    return pipeline.run_score(settings)


def on_dask(settings: ScoreSettings) -> object:
    return dask_run.run_score_on_dask(
        settings.model_copy(update={"engine": "dask", "workers": 1}), InlineSubmitter()
    )


# (the module whose names the run calls, the name of its price step, the run)
ENGINES = {
    "local": (pipeline, "price", local),
    "dask": (dask_run, "_price", on_dask),
}


@pytest.fixture(params=sorted(ENGINES))
def engine(request: pytest.FixtureRequest) -> tuple[ModuleType, str, Callable]:
    return ENGINES[request.param]


def score(tmp_path: Path, run: Callable[[ScoreSettings], object]) -> Path:
    source = write(many_cases(20), tmp_path / "cases.parquet")
    db = tmp_path / "f.duckdb"
    with pytest.raises(KeyboardInterrupt):
        run(ScoreSettings(source=str(source), db=str(db), judge={"kind": "lexical"}))
    return db


def test_a_stop_while_the_run_is_priced_marks_its_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, engine: tuple[ModuleType, str, Callable]
) -> None:
    module, price, run = engine

    def stopped(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(module, price, stopped)
    db = score(tmp_path, run)
    assert query(db, "SELECT status, rows_in FROM runs") == [("interrupted", 0)]


def test_a_signal_inside_start_run_is_raised_once_the_row_is_in_and_marks_it(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    entry_point_handlers: None,
    engine: tuple[ModuleType, str, Callable],
) -> None:
    module, _, run = engine
    start_run = module.start_run

    def signalled(*args: object, **kwargs: object) -> str:
        run_id = start_run(*args, **kwargs)
        os.kill(os.getpid(), signal.SIGINT)
        signal.pthread_sigmask(signal.SIG_BLOCK, [])  # a call into C: pending handlers run
        return run_id

    monkeypatch.setattr(module, "start_run", signalled)
    db = score(tmp_path, run)
    assert query(db, "SELECT status FROM runs") == [("interrupted",)]
