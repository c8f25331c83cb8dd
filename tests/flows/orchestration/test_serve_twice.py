"""A second `faith serve` of a deployment another process serves: refused, not a silent stop.

Two `faith serve --name nightly` both served one deployment; stopping either (Ctrl-C, SIGTERM,
`systemctl stop`) paused its schedule on the server, and the other went on saying it served
while no night ever ran again. A second with other options also rewrote the deployment's
parameters under the first: the first's runs then scored the second's SOURCE into its --db.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.flows.orchestration.test_serve import HANG_GUARD


def deployment(name: str) -> object:
    """The deployment faithpipe-nightly/NAME as the server has it (None: none), looked up by
    filter: Prefect's lookup by name puts it in the URL unquoted."""
    import asyncio

    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import DeploymentFilter, DeploymentFilterName

    async def read() -> object:
        async with get_client() as client:
            found = await client.read_deployments(
                deployment_filter=DeploymentFilter(name=DeploymentFilterName(any_=[name]))
            )
            return found[0] if found else None

    return asyncio.run(read())


def last_polled(name: str) -> object:
    """When a runner last asked the server for the deployment's runs (None: never)."""
    return getattr(deployment(name), "last_polled", None)


def paused(name: str) -> bool:
    return bool(getattr(deployment(name), "paused", False))


def served(child: subprocess.Popen, name: str) -> str:
    """The child's output up to its serving line, once the server has seen it poll; what it
    said before it ended, if it ended instead."""
    assert child.stdout is not None
    seen = []
    for out in child.stdout:
        seen.append(out)
        if f"serving faithpipe-nightly/{name}" in out:
            # the guard kills the children, which ends a hang of theirs; this wait has its own
            deadline = time.monotonic() + HANG_GUARD
            while last_polled(name) is None and time.monotonic() < deadline:
                time.sleep(0.2)
            break
    return "".join(seen)


@pytest.mark.slow
@pytest.mark.usefixtures("prefect_harness", "sigint_heard")
def test_a_second_serve_of_a_served_deployment_is_refused_and_the_first_keeps_its_schedule(
    tmp_path: Path,
) -> None:
    from prefect.settings import PREFECT_API_URL

    from tests.support.stops import spawn

    name = "served?twice"  # a name whose lookup by name, unquoted in the URL, found nothing
    env = {**os.environ, "PREFECT_API_URL": str(PREFECT_API_URL.value())}
    argv = [sys.executable, "-m", "flows", "serve", str(tmp_path / "logs"), "--name", name]
    first = spawn([*argv, "--db", str(tmp_path / "first.duckdb")], env)
    second = third = None
    # A serve that never says it serves, or a second that serves too, is ended, not waited for.
    guard = threading.Timer(HANG_GUARD, lambda: [c.kill() for c in (first, second, third) if c])
    guard.start()
    try:
        assert "serving" in served(first, name)
        second = spawn([*argv, "--db", str(tmp_path / "second.duckdb")], env)
        said = served(second, name)
        assert "serving" not in said, "a second serve of the deployment served too"
        assert second.wait(timeout=HANG_GUARD) == 2, said
        (line,) = said.splitlines()
        assert line.startswith(f"error: faithpipe-nightly/{name} is already served by "), line
        assert "stop that one first" in line, line
        assert not paused(name)  # the first's nights go on
        # A restart: the first, stopped, paused the schedule; the next serve takes it over.
        first.send_signal(signal.SIGTERM)
        assert first.wait(timeout=HANG_GUARD) == 143
        assert paused(name)
        third = spawn([*argv, "--db", str(tmp_path / "first.duckdb")], env)
        assert "serving" in served(third, name)
        assert not paused(name)
        third.send_signal(signal.SIGTERM)
        assert third.wait(timeout=HANG_GUARD) == 143
    finally:
        guard.cancel()
        for child in (first, second, third):
            if child is not None and child.poll() is None:
                child.kill()
                child.wait(timeout=60)
            for pipe in (child.stdin, child.stdout) if child is not None else ():
                if pipe is not None:
                    pipe.close()
