"""The local cluster of `--engine dask` serves its dashboard to this machine only.

distributed's dashboard has no login: on every interface (`:0`, what faithpipe asked for) it
showed whoever could reach the machine, during every run, the cluster's workers, the tasks
and the text of every task's exception (a case's logged words among them), on a port nobody
was told of. The scheduler itself was already on 127.0.0.1."""

from __future__ import annotations

import ipaddress
from pathlib import Path

import psutil  # type: ignore[import-untyped]  # distributed's own dependency

from flows.engines.cluster import dask_client
from flows.run.settings import ScoreSettings


def test_the_local_clusters_dashboard_listens_on_loopback_only(tmp_path: Path) -> None:
    settings = ScoreSettings(
        source=str(tmp_path / "logs"), db=str(tmp_path / "f.duckdb"), engine="dask", workers=1
    )
    with dask_client(settings) as client:
        port = client.scheduler_info()["services"]["dashboard"]
        listening = [
            found.laddr.ip
            for found in psutil.Process().net_connections(kind="inet")
            if found.status == psutil.CONN_LISTEN and found.laddr.port == port
        ]
    assert listening, f"no socket listens on the dashboard's port {port}"
    for address in listening:
        assert ipaddress.ip_address(address).is_loopback, f"the dashboard listens on {address}"
