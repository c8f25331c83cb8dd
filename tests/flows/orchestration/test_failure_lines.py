"""A failure on the Prefect route is one line on stderr, as on the plain route
(docs/exit-codes.md): Prefect's engine logs a failed flow run's exception with its traceback
on its console handler, shown now only with -v; and a Prefect server that PREFECT_API_URL
names but that does not answer is a setting to fix (exit 2), not a bug (exit 1).

The children report to the session's Prefect test server, so none starts a temporary one."""

from __future__ import annotations

import http.server
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

import duckdb
import pytest

from tests.flows.run.test_invalid_share import cases_with_empty_contexts
from tests.support.builders import many_cases, write

ROOT = Path(__file__).resolve().parents[3]
ENGINE_LINES = ("Traceback", "Encountered exception", "Finished in state", "Beginning flow run")


def faith(*args: str, api_url: str) -> subprocess.CompletedProcess:
    """`faith ARGS` in a child process reporting to the Prefect API at `api_url`, 2 min at most."""
    return subprocess.run(
        [sys.executable, "-m", "flows", *args],
        cwd=ROOT,
        env={**os.environ, "PREFECT_API_URL": api_url},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.fixture
def harness_url(prefect_harness: None) -> str:
    from prefect.settings import PREFECT_API_URL

    return str(PREFECT_API_URL.value())


def timeless_chat_log(folder: Path) -> Path:
    """A log SOURCE resolves to but whose read through fails (exit 3): a chat log with no
    time anywhere. A missing or malformed file is refused before Prefect starts (routes.py)."""
    path = folder / "chat.csv"
    path.write_text('conversation_id,messages\nc1,"[{""role"": ""user"", ""content"": ""hi""}]"\n')
    return path


@pytest.mark.parametrize("command", ["score", "nightly", "demo"])
def test_a_failed_flow_run_is_one_line_on_stderr(
    command: str, harness_url: str, tmp_path: Path
) -> None:
    source, db = tmp_path / "cases.parquet", tmp_path / "f.duckdb"
    if command == "demo":  # its default route is Prefect's; a source that is not Parquet
        source.write_text("not parquet")
        args = ["demo", "--source", str(source), "--db", str(db)]
    else:  # refused in the flow run, once read through (a missing file is before Prefect)
        source = timeless_chat_log(tmp_path)
        args = [command, str(source), "--db", str(db), "--prefect", "yes"]
    done = faith(*args, api_url=harness_url)
    assert done.returncode == 3, done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"error: {source}: "), line


def test_a_run_past_the_invalid_share_prints_what_the_plain_route_prints(
    harness_url: str, tmp_path: Path
) -> None:
    """Its progress lines, the run's warning, then the one error line; no Prefect line."""
    source = write(cases_with_empty_contexts(10, 3), tmp_path / "cases.parquet")
    args = ["score", str(source), "--prefect"]
    done = {
        route: faith(*args, route, "--db", str(tmp_path / f"{route}.duckdb"), api_url=harness_url)
        for route in ("yes", "no")
    }
    assert done["yes"].returncode == done["no"].returncode == 8, done["yes"].stderr
    lines = {route: child.stderr.splitlines() for route, child in done.items()}
    assert len(lines["yes"]) == len(lines["no"]), done["yes"].stderr
    assert not any(text in done["yes"].stderr for text in ENGINE_LINES), done["yes"].stderr
    assert lines["yes"][-1].startswith("error: run "), lines["yes"]
    assert "3 of 10 judged cases (30.0%) ended invalid" in lines["yes"][-1]
    for child in done.values():  # the run line first, on both routes
        assert "completed: 10 rows in = 7 scored (7 new) + 3 invalid" in child.stdout


def test_with_v_prefects_own_lines_and_the_traceback_are_shown(
    harness_url: str, tmp_path: Path
) -> None:
    args = ["score", str(timeless_chat_log(tmp_path)), "--db", str(tmp_path / "f.duckdb")]
    done = faith(*args, "--prefect", "yes", "-v", api_url=harness_url)
    assert done.returncode == 3, done.stderr
    assert all(line in done.stderr for line in ENGINE_LINES), done.stderr
    assert done.stderr.rstrip().splitlines()[-1].startswith("error: ")


def closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (just freed by this process)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize("command", ["score", "nightly", "demo"])
def test_a_prefect_server_that_does_not_answer_is_exit_2_and_writes_nothing(
    command: str, tmp_path: Path
) -> None:
    source = write(many_cases(5), tmp_path / "cases.parquet")
    db = tmp_path / "f.duckdb"
    url = f"http://user:hunter22@127.0.0.1:{closed_port()}/api"
    args = ["demo", "--source"] if command == "demo" else [command]
    done = faith(*args, str(source), "--db", str(db), api_url=url)  # score: `auto` follows the URL
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"error: the Prefect server at {url.replace('user:hunter22@', '')} ")
    assert "prefect server start" in line
    assert "PREFECT_API_URL" in line
    assert "--prefect no" in line
    assert "hunter22" not in done.stderr + done.stdout
    assert not list(tmp_path.glob("f.duckdb*"))


def test_a_prefect_server_that_holds_its_health_check_is_exit_2_within_its_timeout(
    tmp_path: Path,
) -> None:
    """Prefect's client retried a health check that timed out five times with a back-off (a
    server that held the connection kept `faith nightly` silent for 7 minutes at the default
    60 s, 85 s at 3 s; a 503 with Retry-After, as long as it said). The check now has
    PREFECT_API_REQUEST_TIMEOUT in all: one connection, not six."""
    from tests.support.black_hole import BlackHole

    source = write(many_cases(5), tmp_path / "cases.parquet")
    with BlackHole() as hole:
        url = hole.base_url.removesuffix("/v1") + "/api"
        done = subprocess.run(
            [sys.executable, "-m", "flows", "nightly", str(source), "--db", str(tmp_path / "f")],
            cwd=ROOT,
            env={**os.environ, "PREFECT_API_URL": url, "PREFECT_API_REQUEST_TIMEOUT": "3"},
            capture_output=True,
            text=True,
            timeout=120,  # the hard guard: no wall-clock bound, which a loaded machine breaks
            check=False,
        )
        # the check's request, and at most one retry begun as the deadline fell
        assert 1 <= hole.connections <= 2, hole.connections
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"error: the Prefect server at {url} does not answer (TimeoutError: ")
    assert "within 3 s, PREFECT_API_REQUEST_TIMEOUT" in line
    assert not list(tmp_path.glob("f*"))


def test_a_prefect_server_that_stops_answering_mid_run_is_exit_2_not_a_hang(
    harness_url: str, tmp_path: Path
) -> None:
    """The health check covers the start only: a server paused mid-run (`kill -STOP`) left the
    run whole in DuckDB while the process waited on Prefect's last calls past 7 minutes. Once
    the work is committed they get twice PREFECT_API_REQUEST_TIMEOUT (last_calls.py)."""
    from tests.support.pausable_proxy import PausableProxy

    source = write(many_cases(60), tmp_path / "cases.parquet")
    db = tmp_path / "f.duckdb"
    argv = [sys.executable, "-m", "flows", "score", str(source), "--db", str(db)]
    with PausableProxy(harness_url) as proxy:
        env = {**os.environ, "PREFECT_API_URL": proxy.url, "PREFECT_API_REQUEST_TIMEOUT": "3"}
        child = subprocess.Popen(
            [*argv, "--prefect", "yes", "--batch-size", "20"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        said = []
        assert child.stderr is not None
        for line in child.stderr:  # the flow run is made: the server goes silent from here
            said.append(line)
            if "rows to read" in line:
                proxy.pause()
                break
        try:
            rest = child.communicate(timeout=240)[1]  # the hard guard, no wall-clock bound
        finally:
            child.kill()
    assert child.returncode == 2, "".join(said) + rest
    errors = [line for line in rest.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, rest
    assert "did not take the flow run's last calls" in errors[0]
    assert "within 6 s (twice PREFECT_API_REQUEST_TIMEOUT)" in errors[0]
    con = duckdb.connect(str(db), read_only=True)
    try:
        (status, scored) = con.execute("SELECT status, rows_scored FROM runs").fetchone() or ()
    finally:
        con.close()
    assert (status, scored) == ("completed", 60)


class _Refusing(http.server.BaseHTTPRequestHandler):
    """A Prefect server behind auth that refuses the credentials it is sent (HTTP 401)."""

    def do_GET(self) -> None:
        self.send_response(401)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        """Quiet."""


def test_a_prefect_server_refusing_the_url_credentials_never_shows_them_even_with_v(
    tmp_path: Path,
) -> None:
    """Prefect's 401 quotes the URL whole (`for url 'http://user:password@…/api/health'`):
    the error line scrubbed it, but the traceback -v prints above it did not."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Refusing)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://alice:S3cretPassw0rd@127.0.0.1:{server.server_address[1]}/api"
        source = write(many_cases(5), tmp_path / "cases.parquet")
        done = faith("score", str(source), "--db", str(tmp_path / "f"), "-v", api_url=url)
    finally:
        server.shutdown()
        server.server_close()
    assert done.returncode == 2, done.stderr
    assert "Traceback" in done.stderr, done.stderr
    assert "401 Unauthorized" in done.stderr, done.stderr
    assert "S3cretPassw0rd" not in done.stderr + done.stdout
    assert done.stderr.rstrip().splitlines()[-1].startswith("error: the Prefect server at ")


def test_prefects_own_lines_show_no_url_credentials_and_obey_no_escape(
    harness_url: str, tmp_path: Path
) -> None:
    """Prefect's console lines quoted PREFECT_API_URL whole (`View at http://user:password@…`)
    and a flow run's line quoted the source path's ESC sequences raw: both now pass the rules
    faithpipe's own lines follow."""
    source = write(many_cases(5), tmp_path / "logs\x1b[31mRED.parquet")
    url = harness_url.replace("://", "://alice:S3cretPassw0rd@", 1)
    args = ["score", str(source), "--db", str(tmp_path / "f"), "--prefect", "yes", "-v"]
    done = faith(*args, api_url=url)
    assert done.returncode == 0, done.stderr
    assert "View at http://[redacted]@" in done.stderr, done.stderr
    assert "S3cretPassw0rd" not in done.stderr + done.stdout
    assert "logs\\x1b[31mRED.parquet: 5 rows to read" in done.stderr, done.stderr
    assert "\x1b" not in done.stderr


def test_faithpipes_module_lines_show_once_on_the_prefect_route(
    harness_url: str, tmp_path: Path
) -> None:
    """A `flows.*` line (the judge's format negotiation) went to the CLI's handler and, through
    the root, to Prefect's console handler: each was printed twice."""
    from tests.support.openai_stub import serving

    source = write(many_cases(5), tmp_path / "cases.parquet")
    with serving() as stub:
        args = ["score", str(source), "--db", str(tmp_path / "f"), "--prefect", "yes"]
        args += ["--judge", "openai", "--model", "m", "--base-url", stub.base_url]
        done = subprocess.run(
            [sys.executable, "-m", "flows", *args],
            cwd=ROOT,
            env={**os.environ, "PREFECT_API_URL": harness_url, "OPENAI_API_KEY": "sk-test"},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert done.returncode == 0, done.stderr
    said = [line for line in done.stderr.splitlines() if "response_format json_schema" in line]
    assert len(said) == 1, done.stderr


@pytest.mark.parametrize(
    ("command", "fault"),
    [
        ("score", "no such file"),
        ("score", "no API key"),
        ("nightly", "no such file"),
        ("nightly", "no API key"),
        ("nightly", "bad alert"),
    ],
)
def test_what_no_run_could_use_is_refused_before_prefect_starts_a_server(
    command: str, fault: str, tmp_path: Path
) -> None:
    """With no server configured, `--prefect yes` started Prefect's temporary server (7-13 s)
    before SOURCE or the judge was looked at: the one error line came between Prefect's
    `Starting temporary server` and `Stopping ...` lines on stderr."""
    source = write(many_cases(2), tmp_path / "cases.parquet")
    args = [command, str(source), "--db", str(tmp_path / "f.duckdb"), "--prefect", "yes"]
    if fault == "no such file":
        args[1] = str(tmp_path / "missing.parquet")
    elif fault == "no API key":
        args += ["--judge", "openai", "--model", "m", "--api-key-env", "FAITH_TEST_NO_SUCH_KEY"]
    else:
        args += ["--alert-min-cases", "0"]
    env = {k: v for k, v in os.environ.items() if k != "PREFECT_API_URL"}
    done = subprocess.run(
        [sys.executable, "-m", "flows", *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == (3 if fault == "no such file" else 2), done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith("error: ")
    assert not (tmp_path / "f.duckdb").exists()


def test_prefects_temporary_server_line_reads_as_prose_not_with_a_backslash_n() -> None:
    """The first line `make demo` prints from Prefect was `Starting temporary server on
    http://127.0.0.1:8054\\nSee https://… for more information …`, its line break shown as the
    two characters `\\n`. Prefect's own logger's prose now reads on one line with a space
    there; a flow run's line, which quotes logged values, still shows a break as `\\n`."""
    import logging

    from flows.orchestration.prefect_console import SafeLines

    lines = SafeLines(logging.Formatter("%(name)s - %(message)s"))

    def shown(logger: str, message: str) -> str:
        return lines.format(logging.LogRecord(logger, logging.INFO, "x", 1, message, None, None))

    said = shown(
        "prefect",
        "Starting temporary server on http://127.0.0.1:8054\nSee https://www.prefect.io/docs/"
        "v3/concepts/server#how-to-guides for more information on running a dedicated Prefect "
        "server.",
    )
    assert said == (
        "prefect - Starting temporary server on http://127.0.0.1:8054 See "
        "https://www.prefect.io/docs/v3/concepts/server#how-to-guides for more information on "
        "running a dedicated Prefect server."
    )
    assert shown("prefect", "a\nerror: forged\x1b[31m") == "prefect - a error: forged\\x1b[31m"
    flow_run = shown("prefect.flow_runs", "of logs\nerror: x.parquet: 5 rows to read")
    assert flow_run == "prefect.flow_runs - of logs\\nerror: x.parquet: 5 rows to read"
