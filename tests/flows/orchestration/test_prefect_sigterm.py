"""Inside a flow run Prefect's own SIGTERM handler is in place; faithpipe's flows make it wait
while polars' code is on the stack, where raising was a Rust panic (exit 1, a page of
backtrace) instead of a clean stop (exit 143). Prefect itself still finds its handler: its
runner-cancel checks compare the installed handler with the one it installs."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator

import pytest
from prefect.exceptions import TerminationSignal
from prefect.utilities import engine as prefect_engine

import flows.orchestration.score_flow  # noqa: F401 - importing the flows wraps the handler
from tests.flows.run.test_stops_held import read_dtypes


@pytest.fixture
def outer_sigterm() -> Iterator[list[int]]:
    """A handler under Prefect's: on TerminationSignal Prefect restores the one it replaced
    and sends SIGTERM again (Python's default would end the test process)."""
    seen: list[int] = []
    before = signal.signal(signal.SIGTERM, lambda signum, frame: seen.append(signum))
    yield seen
    signal.signal(signal.SIGTERM, before)


def test_a_flow_runs_prefects_handler_wrapped_and_prefect_still_knows_it(
    outer_sigterm: list[int],
) -> None:
    with prefect_engine.capture_sigterm():
        installed = signal.getsignal(signal.SIGTERM)
        assert getattr(installed, "__wrapped__", None) is not None
        assert prefect_engine.is_prefect_sigterm_handler_installed()
    assert outer_sigterm == []


def test_sigterm_inside_polars_in_a_flow_is_prefects_stop_after_polars_not_a_panic(
    outer_sigterm: list[int],
) -> None:
    for _ in range(10):
        sender = threading.Timer(0.001, os.kill, (os.getpid(), signal.SIGTERM))
        with pytest.raises(TerminationSignal), prefect_engine.capture_sigterm():
            read_dtypes(sender.start)
        sender.join(timeout=10)
    assert outer_sigterm == [signal.SIGTERM] * 10  # Prefect handed each on, as it does
