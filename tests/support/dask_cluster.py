"""What the Dask engine's test files share: one real LocalCluster of two worker processes
reporting to the harness's Prefect API, and the LLM judge's settings on it. Each file starts
its own cluster (~4 s), so `--dist loadfile` can run the files on both workers at once."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from data.generate import generate_cases
from flows.judges.settings import JudgeSettings
from flows.run.settings import ScoreSettings

# The LLM judge's cases: four partitions, both workers asking at once, at most CAP in flight.
CASES = 60
LLM_BATCH = 15
CAP = 3
# The key the LLM tests' stub expects; workers read it from their environment, as they
# would on a real cluster (it is never shipped with a task).
KEY = "sk-engine-test"


@contextmanager
def local_cluster() -> Iterator[object]:
    """A real LocalCluster of two worker processes and its client (inside the Prefect
    harness: the workers report to its API)."""
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


def write_llm_source(path: Path) -> Path:
    """The LLM judge's CASES cases as one Parquet file."""
    generate_cases(CASES, seed=11).write_parquet(path)
    return path


def llm_settings(source: Path, db: Path, scheduler: str, base_url: str) -> ScoreSettings:
    return ScoreSettings(
        source=str(source),
        db=str(db),
        batch_size=LLM_BATCH,
        engine="dask",
        scheduler=scheduler,
        judge=JudgeSettings(
            kind="openai", model="stub", base_url=base_url, mode="per-item", concurrency=CAP
        ),
    )


def wait_for(condition: Callable[[], object], seconds: float) -> None:
    """Until `condition()` is true; a hang guard of `seconds`, not a promise."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)
