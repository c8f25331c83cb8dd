"""Fixtures the run's stop tests share."""

from __future__ import annotations

import signal
from collections.abc import Iterator

import pytest

from flows.run.stop_signals import install_stop_handlers


@pytest.fixture
def entry_point_handlers() -> Iterator[None]:
    """The handlers `faith` installs, for this test only."""
    before = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    install_stop_handlers()
    yield
    for sig, handler in before.items():
        signal.signal(sig, handler)
