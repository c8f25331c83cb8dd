"""`faith demo` says what it is about to do, and keeps saying it is at work while Prefect's
temporary server starts in silence (issue 21, item 7)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from flows.cli import demo
from flows.cli.options import SERVER_START


def test_the_first_line_names_the_route_and_the_servers_cost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sample = tmp_path / "cases.parquet"
    monkeypatch.delenv("PREFECT_API_URL", raising=False)
    monkeypatch.delenv("PREFECT_PROFILE", raising=False)
    monkeypatch.setenv("PREFECT_HOME", str(tmp_path))  # no profile: no server configured
    line = demo.doing(sample, prefect=True)
    assert line.startswith("scoring cases.parquet with the grounded judge as a Prefect flow")
    assert f"temporary one ({SERVER_START}; --prefect no skips it)" in line
    assert demo.doing(sample, prefect=False).endswith("(plain local run)")
    monkeypatch.setenv("PREFECT_API_URL", "http://127.0.0.1:4200/api")
    assert "on the server PREFECT_API_URL names" in demo.doing(sample, prefect=True)


@pytest.mark.timeout(30)
def test_a_long_step_is_ticked_until_it_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    said: list[str] = []
    ticked = threading.Event()

    def record(line: str) -> None:
        said.append(line)
        if len(said) == 2:
            ticked.set()

    monkeypatch.setattr(demo, "say", record)
    with demo.ticking(0.01):
        assert ticked.wait(20)  # the block lasts until two ticks were said: no clock promise
    ended = len(said)
    assert all(line.startswith("still at work, ") for line in said)
    assert "s so far (Prefect's server starts first" in said[0]
    threading.Event().wait(0.1)  # ten periods after the block: the ticker has stopped
    assert len(said) == ended
