"""One real 2-process Dask cluster for the engine tests, started once and shared (~4 s)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

# The key the LLM tests' stub expects; workers read it from their environment, as they
# would on a real cluster (it is never shipped with a task).
KEY = "sk-engine-test"


@pytest.fixture(scope="session")
def dask_client(prefect_harness: None) -> Iterator[object]:
    """A client of a LocalCluster of two worker processes, reporting to the harness's API."""
    import dask
    from distributed import Client, LocalCluster

    from flows.engines.cluster import worker_environment
    from flows.orchestration.dask_flow import prefect_api_url

    # A killed worker's semaphore leases come back after 3 s, not 30 (scheduler and workers).
    locks = {"lease-timeout": "3s", "lease-validation-interval": "1s"}
    env = {
        **worker_environment(prefect_api_url()),
        "OPENAI_API_KEY": KEY,
        **{
            f"DASK_DISTRIBUTED__SCHEDULER__LOCKS__{k.upper().replace('-', '_')}": v
            for k, v in locks.items()
        },
    }
    with (
        dask.config.set({f"distributed.scheduler.locks.{k}": v for k, v in locks.items()}),
        LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            env=env,
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client


@pytest.fixture
def scheduler(dask_client: object) -> str:
    return dask_client.scheduler.address  # type: ignore[attr-defined]


@pytest.fixture
def api_key(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    return KEY
