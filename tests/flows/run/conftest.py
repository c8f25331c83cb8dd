"""Fixtures the run's stop tests share."""

from __future__ import annotations

import signal
from collections.abc import Iterator

import pytest

from flows.run.stop_signals import install_stop_handlers
from tests.support.openai_stub import HANG, StubServer, serving


@pytest.fixture
def hanging_stub(monkeypatch: pytest.MonkeyPatch) -> Iterator[StubServer]:
    """A local OpenAI-compatible endpoint that hangs on prompts holding HANG (a batch of such
    answers is still being asked when a test stops the run), its key in the environment."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-stop-tests-key")
    with serving() as server:
        server.hang_on = HANG
        yield server


@pytest.fixture
def entry_point_handlers() -> Iterator[None]:
    """The handlers `faith` installs, for this test only."""
    before = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    install_stop_handlers()
    yield
    for sig, handler in before.items():
        signal.signal(sig, handler)
