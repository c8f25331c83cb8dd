"""`faith serve` finds its Prefect server where Prefect does: a `prefect.toml`, `.env` or
`pyproject.toml` of the working folder names one as well as PREFECT_API_URL or `prefect
config set`."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

# each file of the working folder where Prefect reads its settings, naming the server at {url}
SETTINGS_FILES = [
    pytest.param("prefect.toml", '[api]\nurl = "{url}"\n', id="prefect-toml"),
    pytest.param(".env", "PREFECT_API_URL={url}\n", id="dot-env"),
    pytest.param(".env", "export prefect_api_url='{url}'\n", id="dot-env-lower-case"),
    pytest.param("", "prefect_api_url", id="environment-lower-case"),  # as Prefect reads either
    pytest.param("pyproject.toml", '[tool.prefect.api]\nurl = "{url}"\n', id="pyproject-toml"),
]


def closed_port() -> int:
    """A port of 127.0.0.1 nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def environment_naming_no_server(tmp_path: Path) -> dict[str, str]:
    """This process's environment without PREFECT_API_URL in any case, nor a profile."""
    env = {key: value for key, value in os.environ.items() if key.upper() != "PREFECT_API_URL"}
    env["PREFECT_PROFILES_PATH"] = str(tmp_path / "no-profiles.toml")
    return env


@pytest.mark.parametrize(("name", "text"), SETTINGS_FILES)
def test_a_server_named_in_the_working_folders_prefect_settings_is_the_one_served(
    tmp_path: Path, name: str, text: str
) -> None:
    """Prefect read its server from the folder's settings files, and `faith serve`
    refused to start there: `faith serve needs a Prefect server … set PREFECT_API_URL`. The
    server named is asked (here one that does not answer: exit 2, its URL on the line)."""
    url = f"http://127.0.0.1:{closed_port()}/api"
    env = environment_naming_no_server(tmp_path)
    if name:
        (tmp_path / name).write_text(text.format(url=url))
    else:
        env[text] = url
    env["PREFECT_API_REQUEST_TIMEOUT"] = "5"
    done = subprocess.run(
        [sys.executable, "-m", "flows", "serve", "logs", "--db", "f.duckdb"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,  # a hang guard
        check=False,
    )
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"error: the Prefect server at {url} does not answer"), line
    assert not (tmp_path / "f.duckdb").exists()


def test_a_removed_working_folder_names_no_server_and_a_run_goes_on(tmp_path: Path) -> None:
    """A shell left in a folder since removed (a deploy's old release): `faith score` of
    absolute paths there ran the plain route, Prefect finding no settings file; looking for
    the folder's settings files, it ended exit 1, `FileNotFoundError` and no path."""
    from tests.support.builders import case_row, cases, write

    source = write(cases([case_row("c1")]), tmp_path / "cases.parquet")
    gone = tmp_path / "release-1"
    gone.mkdir()
    env = environment_naming_no_server(tmp_path)
    db = tmp_path / "f.duckdb"
    in_gone = 'cd "$0" && rmdir "$0" && exec "$@"'  # the shell's folder, removed under it
    argv = [sys.executable, "-m", "flows", "score", str(source), "--db", str(db)]
    done = subprocess.run(
        ["sh", "-c", in_gone, str(gone), *argv],
        env=env,
        capture_output=True,
        text=True,
        timeout=240,  # a hang guard
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert db.exists()
