"""The Prefect flow: the same batch steps as the plain route, each run as a task, plus the
run's summary as markdown and table artifacts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
from prefect import flow, get_run_logger, task
from prefect.artifacts import create_markdown_artifact, create_table_artifact
from prefect.exceptions import PrefectException

from flows.errors import RunAlarm
from flows.orchestration.last_calls import work_committed
from flows.orchestration.prefect_console import filter_prefect_console
from flows.orchestration.prefect_sigterm import defer_prefect_sigterm_inside_polars
from flows.orchestration.task_options import TASK_OPTIONS
from flows.run.batches import score_batch, validate_batch
from flows.run.pipeline import Steps, run_score
from flows.run.progress import LogProgress, Progress
from flows.run.settings import ScoreSettings
from flows.run.summary import run_markdown, run_table
from flows.store.batch_writes import write_batch

# Before any flow run installs Prefect's SIGTERM handler (it raised inside polars: a panic).
defer_prefect_sigterm_inside_polars()

validate_task = task(name="validate-batch", **TASK_OPTIONS)(validate_batch)
score_task = task(name="score-batch", **TASK_OPTIONS)(score_batch)
# No retry: a commit fails for a full or failing disk, which a second later does not mend,
# or because a stopping run interrupted it on purpose, which a retry would undo. The run fails
# with exit 7 and the next run resumes; a write is idempotent all the same (batch numbers).
write_task = task(name="write-batch", **TASK_OPTIONS)(write_batch)

TASK_STEPS = Steps(validate=validate_task, score=score_task, write=write_task)


class RunLoggerProgress(LogProgress):
    """Progress lines into the flow run's log, visible in the Prefect UI."""

    def __init__(self, extra: Progress | None = None) -> None:
        super().__init__(get_run_logger())
        self._extra = extra

    def start(self, total: int, description: str) -> None:
        super().start(total, description)
        if self._extra:
            self._extra.start(total, description)

    def advance(self, rows: int, run: dict[str, Any]) -> None:
        super().advance(rows, run)
        if self._extra:
            self._extra.advance(rows, run)

    def stop(self) -> None:
        super().stop()  # its heartbeat
        if self._extra:
            self._extra.stop()


def publish_summary(run: dict[str, Any]) -> None:
    """The run's counts, pass rate, timings and config as Prefect artifacts; the run's work is
    committed, so Prefect's last calls start their deadline (last_calls.py, if armed)."""
    work_committed(run)
    key = "faithpipe-" + run["flow"]
    create_markdown_artifact(key=key + "-summary", markdown=run_markdown(run))
    create_table_artifact(key=key + "-counts", table=run_table(run), description="run counts")


# A terminal progress bar cannot be a flow parameter (parameters are sent to the API as
# JSON); the CLI hands it over here before calling the flow in the same process.
_console: dict[str, Progress | None] = {"progress": None}


def show_console_progress(progress: Progress | None) -> None:
    """Also report flow progress to `progress` in this process, if it is the CLI's bar: log
    lines already reach the console from the flow's own run log, and would show twice. And,
    as every CLI route calls this before its flow, keep Prefect's engine lines off the console
    unless -v (prefect_console.py)."""
    from flows.run.progress_bar import BarProgress

    _console["progress"] = progress if isinstance(progress, BarProgress) else None
    filter_prefect_console()


def flow_progress() -> RunLoggerProgress:
    """Progress for a flow run: its run log, plus the CLI's bar when one was handed over."""
    return RunLoggerProgress(_console["progress"])


@flow(name="faithpipe-score", log_prints=True)
def score_flow(settings: ScoreSettings) -> dict[str, Any]:
    """Score SOURCE into DuckDB, batch by batch, each step a task. A run that kept everything
    but fails its flow run (exit 8, 11) publishes its summary all the same, as a night does."""
    try:
        if settings.on_dask:
            from flows.orchestration.dask_flow import run_dask_in_flow

            run = run_dask_in_flow(settings, flow_progress())
        else:
            run = run_score(settings, steps=TASK_STEPS, progress=flow_progress())
    except RunAlarm as alarm:
        if alarm.run is not None:
            kept = alarm.run
            publish_kept(lambda: publish_summary(kept), "run")
        raise
    publish_summary(run)
    return run


# What publishing to Prefect's API raises when the server is gone or refuses: the HTTP errors
# of its client (httpx) and Prefect's own. Anything else is a fault of ours and fails as one.
PUBLISH_ERRORS = (httpx.HTTPError, PrefectException, OSError)


def publish_kept(publish: Callable[[], object], what: str) -> None:
    """Publish the artifacts of a kept run (`what`: run, night) before its alarm fails the flow
    run: a server that refuses them is a warning line, as the alarm is the outcome."""
    try:
        publish()
    except PUBLISH_ERRORS as exc:
        said = (str(exc).strip().splitlines() or [""])[0]
        get_run_logger().warning(
            "the %s's artifacts were not published: %s: %s", what, type(exc).__name__, said
        )


def score_flow_on_dask(settings: ScoreSettings) -> dict[str, Any]:
    """The CLI's Prefect route with `--engine dask`: start or join the cluster, its workers
    pointed at this process's Prefect API, then run the score flow on a DaskTaskRunner."""
    from prefect_dask import DaskTaskRunner

    from flows.engines.cluster import dask_client, require_dask
    from flows.engines.dask_run import require_dask_source
    from flows.orchestration.dask_flow import prefect_api_url

    require_dask()
    require_dask_source(settings)
    with dask_client(settings, prefect_api_url=prefect_api_url()) as client:
        runner = DaskTaskRunner(address=client.scheduler.address)
        return score_flow.with_options(task_runner=runner)(settings)
