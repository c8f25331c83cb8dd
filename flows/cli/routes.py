"""Which route a run takes: plain Python, or a Prefect flow."""

from __future__ import annotations

from typing import Any


def use_prefect(choice: str) -> bool:
    """Whether this run goes through Prefect (see --prefect)."""
    if choice == "auto":
        from flows.orchestration.prefect_env import prefect_server_configured

        return prefect_server_configured()
    return choice == "yes"


def execute(settings: Any, *, prefect: bool) -> dict[str, Any]:
    """Run the scoring job on the chosen route, with a progress display."""
    from flows.run.progress_bar import console_progress

    if settings.on_dask:
        from flows.engines.cluster import require_dask

        require_dask()  # before anything is read or started
    progress = console_progress()
    if prefect:
        return execute_as_flow(settings, progress)
    from flows.engines import score_with_engine

    return score_with_engine(settings, progress=progress)


def execute_as_flow(settings: Any, progress: Any) -> dict[str, Any]:
    """The Prefect route: SOURCE and the judge checked (exit 3, 2), then its configured
    server asked (a server that does not answer is exit 2 before anything is read), then the
    score flow, on Dask if chosen."""
    from flows.engines import check_engine_source
    from flows.orchestration.prefect_env import configure_prefect_environment

    # before Prefect loads and starts a temporary server: a missing file took 7-13 s and came
    # between Prefect's `Starting temporary server` and `Stopping ...` lines on stderr
    check_engine_source(settings)
    configure_prefect_environment()  # before prefect loads
    from flows.run.stop_signals import stops_held

    with stops_held():  # Prefect loads: a stop inside pydantic's code there was lost
        from flows.orchestration.last_calls import arm_last_calls_deadline, flow_returned
        from flows.orchestration.prefect_server import require_prefect_server
        from flows.orchestration.score_flow import (
            score_flow,
            score_flow_on_dask,
            show_console_progress,
        )

    require_prefect_server()
    arm_last_calls_deadline()  # a server that stops answering mid-run: exit 2, not a hang
    show_console_progress(progress)
    try:
        return score_flow_on_dask(settings) if settings.on_dask else score_flow(settings)
    finally:
        flow_returned()
