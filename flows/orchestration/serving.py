"""`faith serve`'s Prefect runner, which a stop ends as it ends any command: exit 130 or 143.

Prefect's `serve()` ended 0 on either stop, without a line: its runner takes SIGTERM as a
graceful stop after which `start` returns as if done, and `serve()` swallows Ctrl-C. A
service manager could not tell a stop from the end of a schedule (docs/exit-codes.md). Here
both signals take the runner's graceful stop (its runs cancelled, the schedule paused), and
the stop is raised once `start` has returned. A KeyboardInterrupt raised inside the runner's
tasks came out of asyncio.run wrapped in anyio's exception groups, a page of traceback.

Registering the deployment has a deadline: Prefect's `add_deployment` waits for the server
with no timeout of its own (only each request's, retried), so a server that answered its
health check and then held the connection kept `faith serve` starting for minutes, then
ended it with a traceback. It gets PREFECT_API_REQUEST_TIMEOUT (Prefect's own setting for
one request to its API, 60 s by default) in all, then one line and exit 2, as for a server
that does not answer at all (docs/exit-codes.md).

A deployment another process serves (a `faith serve`, or a worker of its work pool, polled it
within three polls and its schedule is not paused) is refused, exit 2: two served it, and
stopping either paused the schedule while the other went on saying it served, every night
skipped without a line; a second with other options also rewrote the first's parameters.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Callable
from datetime import UTC, datetime
from types import FrameType
from typing import Any, Self

from prefect.deployments.runner import RunnerDeployment
from prefect.runner import Runner

from faith_udfs.errors import ConfigError
from flows.orchestration.prefect_server import PrefectServerUnreachable, without_credentials
from flows.run.stop_signals import Terminated

log = logging.getLogger("faithpipe")


class DeploymentServed(ConfigError):
    """Another process serves the deployment (exit 2: stop it first, or use another name)."""


class StopNotingRunner(Runner):
    """Prefect's runner, stopped gracefully by SIGINT and SIGTERM alike, noting which came;
    `said` once it serves."""

    def __init__(self, said: Callable[[], object]) -> None:
        super().__init__(pause_on_shutdown=True, limit=None)  # as prefect.serve's
        self._said = said
        self.stopped_by: KeyboardInterrupt | None = None

    async def __aenter__(self) -> Self:
        entered = await super().__aenter__()
        if self.stopped_by is not None:  # a stop while it started: stop now it can
            self.execute_in_background(self.astop)
        else:
            self._said()
        return entered

    def handle_sigterm(self, *args: Any, **kwargs: Any) -> None:
        """Prefect installs this for SIGTERM as `start` begins; SIGINT gets it from serve."""
        signum = args[0] if args else signal.SIGTERM
        stop = Terminated("SIGTERM") if signum == signal.SIGTERM else KeyboardInterrupt()
        if self.stopped_by is not None or self._loop is None:
            raise stop  # a second stop, or one before the loop runs: at once
        self.stopped_by = stop
        if self.started and not self.stopping:  # type: ignore[has-type]  # Prefect unannotated
            self.stopping = True
            self.execute_in_background(self.astop)


def serve(deployment: RunnerDeployment, *, say: Callable[[], object]) -> None:
    """Serve until a stop, then raise it: KeyboardInterrupt (130) or Terminated (143)."""
    runner = StopNotingRunner(said=say)
    register(runner, deployment)
    previous = signal.signal(signal.SIGINT, _graceful(runner))
    try:
        asyncio.run(runner.start())
    except BaseExceptionGroup as group:  # a second stop, raised inside the runner's tasks
        stop = stop_of(group)
        if stop is None:
            raise
        raise stop from None
    finally:
        signal.signal(signal.SIGINT, previous)
    if runner.stopped_by is not None:
        raise runner.stopped_by


def register(runner: Runner, deployment: RunnerDeployment) -> None:
    """Register the deployment with the Prefect server within PREFECT_API_REQUEST_TIMEOUT;
    PrefectServerUnreachable (exit 2) past it."""
    from prefect.settings import get_current_settings

    settings = get_current_settings()
    api = settings.api
    deadline = float(api.request_timeout)
    # a runner polls every PREFECT_RUNNER_POLL_FREQUENCY s, a worker every
    # PREFECT_WORKER_QUERY_SECONDS s (10 s each by default)
    polls = 3 * max(float(settings.runner.poll_frequency), float(settings.worker.query_seconds))

    async def add() -> None:
        await refuse_if_served(deployment.flow_name, deployment.name, within=polls)
        await runner.aadd_deployment(deployment)

    try:
        asyncio.run(asyncio.wait_for(add(), deadline))
    except TimeoutError:
        raise PrefectServerUnreachable(
            f"the Prefect server at {without_credentials(str(api.url))} did not register the "
            f"deployment within {deadline:g} s (PREFECT_API_REQUEST_TIMEOUT): check the "
            "server, point PREFECT_API_URL at a running one, or raise PREFECT_API_REQUEST_TIMEOUT"
        ) from None


async def refuse_if_served(flow_name: str, name: str, *, within: float) -> None:
    """Raise DeploymentServed when the deployment's schedule is live and a runner or worker
    polled it within `within` seconds. A stopped `faith serve` paused it: a restart serves.
    Looked up by filter: Prefect's lookup by name puts it in the URL unquoted (`a?b`, `a#b`)."""
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import (
        DeploymentFilter,
        DeploymentFilterName,
        FlowFilter,
        FlowFilterName,
    )

    async with get_client() as client:
        found = await client.read_deployments(
            flow_filter=FlowFilter(name=FlowFilterName(any_=[flow_name])),
            deployment_filter=DeploymentFilter(name=DeploymentFilterName(any_=[name])),
            limit=1,
        )
    if not found or found[0].paused or found[0].last_polled is None:
        return
    ago = (datetime.now(UTC) - found[0].last_polled).total_seconds()
    if ago <= within:
        raise DeploymentServed(
            f"{flow_name}/{name} is already served by another process (a `faith serve` or a "
            f"worker polled it {max(ago, 0):.0f} s ago): a second would take its runs, and "
            "stopped, pause its schedule for both; stop that one first, or give this one "
            f"another --name (a serve that was killed: start again {within:.0f} s after it ended)"
        )


def _graceful(runner: StopNotingRunner) -> Callable[[int, FrameType | None], None]:
    def stop(signum: int, frame: FrameType | None) -> None:
        runner.handle_sigterm(signum, frame)

    return stop


def stop_of(group: BaseExceptionGroup) -> BaseException | None:
    """The first stop (KeyboardInterrupt, Terminated) of the runner's nested exception
    groups, to end the command with (130, 143); None when they hold none (an error: raised as
    it is). Another error beside the stop is logged on one line, not dropped; the cancelled
    tasks a stop leaves are not errors."""
    stops, rest = group.split(KeyboardInterrupt)
    if stops is None:
        return None
    others = rest.split(asyncio.CancelledError)[1] if rest is not None else None
    for error in _leaves(others):
        log.warning("faith serve: %s: %s, as it stopped", type(error).__name__, error)
    return _leaves(stops)[0]


def _leaves(group: BaseExceptionGroup | None) -> list[BaseException]:
    """The exceptions of a nested group, in order; none for None."""
    if group is None:
        return []
    return [
        leaf
        for error in group.exceptions
        for leaf in (_leaves(error) if isinstance(error, BaseExceptionGroup) else [error])
    ]
