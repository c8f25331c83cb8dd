"""Where a run's batches are scored: `local` (this process, flows/run/pipeline.py) or `dask`
(a Dask cluster's workers, flows/engines/dask_run.py)."""

from __future__ import annotations

from typing import Any

from flows.run.progress import Progress
from flows.run.settings import ScoreSettings

__all__ = ["check_engine_source", "score_with_engine"]


def score_with_engine(
    settings: ScoreSettings, *, progress: Progress | None = None, **local: Any
) -> dict[str, Any]:
    """Run on the engine the settings name; `local` options (steps, judge) go to run_score."""
    if settings.on_dask:
        from flows.engines.dask_run import run_on_dask

        return run_on_dask(settings, progress=progress)
    from flows.run.pipeline import run_score

    return run_score(settings, progress=progress, **local)


def check_engine_source(settings: ScoreSettings) -> None:
    """Resolve SOURCE (exit 3 when unreadable) and, on Dask, refuse one it does not read
    (exit 2), then a judge no run could build (exit 2): before the database is made, a
    cluster joined or a judge's preflight paid."""
    from flows.judges.factory import refuse_unbuildable

    if settings.on_dask:
        from flows.engines.dask_run import require_dask_source

        require_dask_source(settings)
    else:
        from flows.read.source import resolve_source

        resolve_source(settings.source, settings.read_options())
    refuse_unbuildable(settings.judge, dry_run=settings.dry_run)
