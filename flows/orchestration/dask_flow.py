"""The score flow on a Dask cluster through Prefect's DaskTaskRunner (prefect-dask): each
partition a `score-partition` task run on a worker, reporting to the flow's Prefect API."""

from __future__ import annotations

from typing import Any

from prefect import task
from prefect.context import FlowRunContext

from flows.engines.cluster import dask_client
from flows.engines.dask_run import require_dask_source, run_score_on_dask
from flows.engines.partition_task import PartitionJob, score_partition
from flows.engines.submitters import TASK_RETRIES, ClientSubmitter, result_in_slices
from flows.orchestration.task_options import TASK_OPTIONS
from flows.run.progress import Progress
from flows.run.settings import ScoreSettings

partition_task = task(name="score-partition", retries=TASK_RETRIES, **TASK_OPTIONS)(score_partition)


class TaskSubmitter:
    """Partition tasks as Prefect task runs on the flow's DaskTaskRunner."""

    def submit(self, job: PartitionJob) -> Any:
        return partition_task.submit(job)

    def result(self, handle: Any, task_timeout: float) -> str:
        return result_in_slices(handle, task_timeout)

    def cancel(self, handles: list[Any]) -> None:
        for handle in handles:
            wrapped = getattr(handle, "wrapped_future", None)
            if wrapped is not None:
                wrapped.cancel()


def prefect_api_url() -> str | None:
    """The API this process's flows report to: the configured server, or the temporary one,
    started now so that the workers can be pointed at it."""
    from prefect.settings import get_current_settings

    url = get_current_settings().api.url
    if url:
        return str(url)
    from prefect.server.api.server import SubprocessASGIServer

    server = SubprocessASGIServer()
    server.start()
    return server.api_url


def run_dask_in_flow(settings: ScoreSettings, progress: Progress) -> dict[str, Any]:
    """Inside a flow run: Prefect tasks on its DaskTaskRunner, or, when the flow was called
    with another task runner, plain Dask tasks on a cluster started here."""
    from prefect_dask import DaskTaskRunner

    context = FlowRunContext.get()
    if context is not None and isinstance(context.task_runner, DaskTaskRunner):
        return run_score_on_dask(settings, TaskSubmitter(), progress=progress)
    source = require_dask_source(settings)
    with dask_client(settings, prefect_api_url=prefect_api_url()) as client:
        return run_score_on_dask(
            settings, ClientSubmitter(client), progress=progress, source=source
        )
