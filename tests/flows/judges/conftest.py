"""The Batch API stub on 127.0.0.1 that the batch-mode tests score against."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.openai_batch_stub import BATCH_KEY, BatchStub, serving_batches


@pytest.fixture
def stub(monkeypatch: pytest.MonkeyPatch) -> Iterator[BatchStub]:
    """A Batch API stub taking BATCH_KEY, which the environment holds as OPENAI_API_KEY."""
    monkeypatch.setenv("OPENAI_API_KEY", BATCH_KEY)
    with serving_batches(api_key=BATCH_KEY) as server:
        yield server
