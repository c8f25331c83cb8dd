"""A key sent in clear: `--base-url http://…` to a host out on the network (not this machine,
not a private address, not a one-word or `.local` name) sends the API key unencrypted with
every request. The run is not refused (a LAN vLLM over http is common): it warns once, in one
line on stderr naming the host and the key's variable, never the key.

The "remote" host is a real server on 127.0.0.1 under a public-looking name: the test
resolves `judge.example.com` to 127.0.0.1 in this process, so the run's own client calls it.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from flows.judges.endpoint.cleartext import cleartext_host
from tests.support.builders import many_cases, write
from tests.support.cli_run import faith_here
from tests.support.dask_cluster import write_llm_source
from tests.support.openai_batch_stub import BatchStub
from tests.support.openai_stub import StubServer

KEY = "sk-cleartext-5b2e8d1c9f7a3e6b"
REMOTE = "judge.example.com"
WARNING = "is called over plain http: the API key in $OPENAI_API_KEY and the prompts cross"


@pytest.fixture(autouse=True)
def remote_name_on_loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    """The key in the environment, REMOTE resolved to 127.0.0.1, no host warned of yet."""
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setattr("flows.judges.endpoint.cleartext._warned", set())
    resolve = socket.getaddrinfo

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        named = host.decode() if isinstance(host, bytes) else host  # the client's IDNA bytes
        return resolve("127.0.0.1" if named == REMOTE else host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)


@pytest.fixture
def source(tmp_path: Path) -> Path:
    return write(many_cases(6), tmp_path / "cases.parquet")


def warnings_in(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "plain http" in line]


@pytest.mark.parametrize("mode", ["packed", "batch"])
def test_a_remote_host_over_plain_http_is_warned_of_once_without_the_key(
    mode: str, source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server = StubServer() if mode == "packed" else BatchStub()
    with server as stub:
        url = stub.base_url.replace("127.0.0.1", REMOTE)
        done = faith_here(capsys, "score", str(source), "--db", str(tmp_path / "f.duckdb"),
                          "--prefect", "no", "--judge", "openai", "--model", "m",
                          "--judge-mode", mode, "--base-url", url)  # fmt: skip
    assert done.returncode == 0, done.stderr
    (line,) = warnings_in(done.stderr)  # once, however many requests the run made
    assert f"the judge endpoint {REMOTE}:" in line
    assert WARNING in line
    assert KEY not in done.stderr + done.stdout


@pytest.mark.timeout(300)
def test_a_dask_run_warns_once_not_once_more_a_worker(tmp_path: Path) -> None:
    """Each Dask worker's judge warned too, its line forwarded to the terminal: a run of one
    partition printed the warning twice, one more for each worker a run's partitions reach.
    The flow process's judge, built first, says it for the run. (`.invalid` never resolves:
    the run ends 6 at its first calls, after the worker built its judge.)"""
    repo = Path(__file__).resolve().parents[3]
    source = write_llm_source(tmp_path / "cases.parquet")  # one partition of 60 cases
    command = [
        sys.executable, "-m", "flows", "score", str(source), "--db", str(tmp_path / "f.duckdb"),
        "--engine", "dask", "--workers", "2", "--prefect", "no", "--batch-size", "60",
        "--judge", "openai", "--model", "stub", "--base-url", "http://judge.invalid:8000/v1",
    ]  # fmt: skip
    done = subprocess.run(
        command, cwd=repo, env=dict(os.environ), capture_output=True, text=True, timeout=240,
        check=False,
    )  # fmt: skip
    assert done.returncode == 6, done.stderr
    assert len(warnings_in(done.stderr)) == 1, done.stderr
    assert KEY not in done.stderr


def test_the_same_server_on_loopback_is_not_warned_of(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with StubServer() as stub:
        done = faith_here(capsys, "score", str(source), "--db", str(tmp_path / "f.duckdb"),
                          "--prefect", "no", "--judge", "openai", "--model", "m",
                          "--base-url", stub.base_url)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert warnings_in(done.stderr) == []


@pytest.mark.parametrize(
    ("base_url", "warned"),
    [
        ("http://llm.example.com/v1", "llm.example.com"),
        ("http://8.8.8.8:8000/v1", "8.8.8.8:8000"),
        ("http://[2001:4860::8888]:8000/v1", "2001:4860::8888:8000"),
        ("HTTP://LLM.Example.COM./v1", "llm.example.com"),
        ("https://llm.example.com/v1", None),
        (None, None),
        ("http://127.0.0.1:8000/v1", None),
        ("http://localhost:11434/v1", None),
        ("http://[::1]:8000/v1", None),
        ("http://10.0.0.5:8000/v1", None),
        ("http://192.168.1.20:8000/v1", None),
        ("http://172.16.4.2/v1", None),
        ("http://100.101.102.103:8000/v1", None),
        ("http://169.254.1.1/v1", None),
        ("http://vllm:8000/v1", None),
        ("http://gpu-box.local:8000/v1", None),
        ("http://llm.corp.internal/v1", None),
        ("http://llm.svc.cluster.local/v1", None),
        ("http://llm.example.com:80OO/v1", None),
    ],
    ids=[
        "public-name",
        "public-ipv4",
        "public-ipv6",
        "upper-case-and-root-dot",
        "https",
        "openai-default",
        "loopback",
        "localhost",
        "loopback-ipv6",
        "private-10",
        "private-192-168",
        "private-172-16",
        "shared-100-64-tailscale",
        "link-local",
        "one-word-name",
        "dot-local",
        "dot-internal",
        "kubernetes-service",
        "no-port-a-client-can-call",  # refused by the settings; never a crash here
    ],
)
def test_which_hosts_are_out_on_the_network(base_url: str | None, warned: str | None) -> None:
    assert cleartext_host(base_url) == warned
