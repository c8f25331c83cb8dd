"""Shared fixtures: the seed's policy example, the session's Prefect server, SIGINT heard."""

from __future__ import annotations

import signal
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from flows.allocator import keep_freed_pages

# The suite is an entry point: polars' allocator keeps freed pages as it does under `faith`, so
# in-process runs allocate as the CLI's do (set before anything loads polars: data.generate
# below does).
keep_freed_pages()

from data.generate import POLICY as SEED_POLICY  # noqa: E402
from data.generate import SEED_QUESTION as QUESTION  # noqa: E402
from data.generate import retrieve  # noqa: E402
from faith_udfs import LLMTestCase  # noqa: E402
from flows.orchestration.prefect_env import configure_prefect_environment  # noqa: E402

# The suite is an entry point: Prefect's defaults go into the environment before any test
# module imports prefect (importing flows changes nothing).
configure_prefect_environment()

POLICY = list(SEED_POLICY)  # the seed's policy lines, as the sample data carries them


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Files with the most slow trials (or the wheel's build) first, then those with the most
    tests, each file's tests in their own order: `make test` hands whole files to its two
    workers in this order (`--dist loadfile --no-loadscope-reorder`), so the long files start
    early and the many short ones fill in at the end, not a long file last and alone."""
    heavy = [
        item
        for item in items
        if item.get_closest_marker("slow") or item.get_closest_marker("wheel")
    ]
    slow = Counter(item.path for item in heavy)
    size = Counter(item.path for item in items)
    items.sort(key=lambda item: (-slow[item.path], -size[item.path], str(item.path)))


@pytest.fixture
def seed_cases() -> dict[str, LLMTestCase]:
    context = retrieve(QUESTION)
    return {
        "grounded": LLMTestCase(
            input=QUESTION, actual_output="Order A17 shipped on 3 March.", retrieval_context=context
        ),
        "invented": LLMTestCase(
            input=QUESTION,
            actual_output="Order A17 shipped on 3 March. It arrives tomorrow.",
            retrieval_context=context,
        ),
        "wrong": LLMTestCase(
            input=QUESTION,
            actual_output="Order A17 was cancelled. We are sorry.",
            retrieval_context=context,
        ),
    }


@pytest.fixture(scope="session")
def prefect_harness():
    """One temporary Prefect server for the session's flow tests (8-10 s to start here, on a
    database made from tests/support/prefect_schema.sql instead of migrated: 14 before).

    Heartbeats off: each flow run would otherwise wait up to 1 s for its heartbeat thread.
    Its start may take 8 minutes (a hang guard, not a promise): at load 20 it outlasted the
    240 s test timeout it starts under, hence pyproject's `timeout = 600`.
    """
    from prefect.settings import PREFECT_FLOWS_HEARTBEAT_FREQUENCY, temporary_settings

    from tests.support.prefect_server import seeded_test_harness

    with (
        seeded_test_harness(startup_timeout=480),
        temporary_settings(updates={PREFECT_FLOWS_HEARTBEAT_FREQUENCY: None}),
    ):
        yield


@pytest.fixture
def sigint_heard() -> Iterator[None]:
    """SIGINT not ignored in this process while it starts a child to Ctrl-C: a shell that
    starts the suite in the background (no job control) ignores SIGINT, a child inherits
    that, and faith keeps an ignored signal ignored, so the trial's Ctrl-C went unheard."""
    previous = signal.getsignal(signal.SIGINT)
    if previous is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def everything_prefect_stored() -> str:
    """Every artifact, log line and flow-run parameter set on the harness's Prefect server, as
    one text: what a secret must never appear in."""
    import asyncio

    from prefect.client.orchestration import get_client

    async def read() -> str:
        async with get_client() as client:
            artifacts = await client.read_artifacts()
            logs = await client.read_logs()
            flow_runs = await client.read_flow_runs()
        texts = [str(a.data) for a in artifacts] + [log.message for log in logs]
        return "\n".join(texts + [str(flow_run.parameters) for flow_run in flow_runs])

    return asyncio.run(read())


def published_artifacts() -> dict[str, str]:
    """Artifacts on the harness's Prefect server, by key, the latest of each key: what the last
    flow run published (the session's server keeps every earlier test's too)."""
    import asyncio

    from prefect.client.orchestration import get_client

    async def read() -> dict[str, str]:
        async with get_client() as client:
            artifacts = sorted(await client.read_artifacts(), key=lambda a: a.created)
            return {a.key: str(a.data) for a in artifacts if a.key}

    return asyncio.run(read())


def run_python(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """`python ARGS` in a fresh process at the repository root, output captured, 2 min at most."""
    return subprocess.run(
        [sys.executable, *args],
        cwd=Path(__file__).resolve().parents[1],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
