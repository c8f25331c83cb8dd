"""A mistyped `--scheduler` is a bad option: one line and exit 2, before a cluster is joined,
the database made or the source read. An address without its port (`10.0.0.5`), of a web
page (`http://...`) or with a port that is no number ended with exit 1 (`ValueError: missing
port number ...`, said to be a bug), and an empty one (`--scheduler "$UNSET"`) quietly
started a local cluster instead of joining the one meant."""

from __future__ import annotations

from pathlib import Path

import pytest

from flows.run.settings import ScoreSettings
from tests.support.cli_run import faith_here

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = str(ROOT / "data" / "sample" / "cases.parquet")


@pytest.mark.parametrize(
    "address",
    [
        pytest.param("10.0.0.5", id="no-port"),
        pytest.param("tcp://localhost", id="scheme-no-port"),
        pytest.param("http://127.0.0.1:8786", id="http"),
        pytest.param("https://dask.example.com:8787", id="https"),
        pytest.param("TCP ://127.0.0.1:8786", id="scheme-not-a-word"),
        pytest.param("tcp://127.0.0.1:abc", id="port-not-a-number"),
        pytest.param("tcp://127.0.0.1:99999", id="port-too-large"),
        pytest.param("tcp://:8786", id="no-host"),
        pytest.param("", id="empty"),
        pytest.param(" ", id="blank"),
    ],
)
def test_a_mistyped_scheduler_address_is_exit_2_before_anything(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], address: str
) -> None:
    db = tmp_path / "faith.duckdb"
    argv = ["score", SAMPLE, "--db", str(db), "--prefect", "no", "--engine", "dask"]
    done = faith_here(capsys, *argv, "--scheduler", address)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("error: --scheduler")
    assert "e.g. tcp://10.0.0.5:8786" in done.stderr
    assert len(done.stderr.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "address",
    [
        "tcp://10.0.0.5:8786",
        "10.0.0.5:8786",
        "tls://sched.example.com:8786",
        "tcp://[::1]:8786",
        "ucx://10.0.0.5:8786",  # dask-cuda's UCX comm: refused by the first check
    ],
    ids=["tcp", "no-scheme", "tls", "ipv6", "ucx"],
)
def test_a_scheduler_address_dask_takes_is_kept_as_given(address: str) -> None:
    settings = ScoreSettings(source=SAMPLE, engine="dask", scheduler=address)
    assert settings.scheduler == address


def test_tls_without_a_tls_configuration_is_exit_2_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Dask reads TLS certificates from its configuration; without them it raised TypeError
    (exit 1, said to be a bug) as the client was made."""
    db = tmp_path / "faith.duckdb"
    argv = ["score", SAMPLE, "--db", str(db), "--prefect", "no", "--engine", "dask"]
    done = faith_here(capsys, *argv, "--scheduler", "tls://127.0.0.1:1")
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("error: --scheduler tls://127.0.0.1:1: Dask cannot connect")
    assert "TLS" in done.stderr
    assert len(done.stderr.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []
