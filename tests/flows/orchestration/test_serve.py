"""The nightly schedule (issue 6): the deployment `faith serve` serves and the one prefect.yaml
declares, inspected without a server and without waiting for the clock."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import yaml

from flows.cli import main
from flows.run.settings import ScoreSettings

ROOT = Path(__file__).resolve().parents[3]
# Seconds a `faith serve` child may take to say it serves (a guard against a hang; ~3 s here).
HANG_GUARD = 240.0


def test_the_served_deployment_carries_schedule_and_parameters() -> None:
    from flows.orchestration.nightly_flow import build_deployment, nightly_flow

    settings = ScoreSettings(source="/srv/logs", db="/srv/f.duckdb", threshold=0.7, batch_size=999)
    deployment = build_deployment(
        settings,
        cron="30 1 * * *",
        timezone="Europe/Berlin",
        name="nightly-eu",
        golden="/srv/golden.parquet",
        agreement_floor=0.8,
    )
    assert (deployment.flow_name, deployment.name) == ("faithpipe-nightly", "nightly-eu")
    assert deployment.entrypoint == "flows.orchestration.nightly_flow.nightly_flow"
    ((schedule,),) = [deployment.schedules]
    assert (schedule.schedule.cron, schedule.schedule.timezone, schedule.active) == (
        "30 1 * * *",
        "Europe/Berlin",
        True,
    )
    assert deployment.parameters == {
        "settings": {
            "source": "/srv/logs",
            "db": "/srv/f.duckdb",
            "threshold": 0.7,
            "batch_size": 999,
            "flow": "nightly",
        },
        "golden": "/srv/golden.parquet",
        "agreement_floor": 0.8,
    }
    # What a scheduled run receives: the parameters as the flow validates them.
    received = nightly_flow.validate_parameters(deployment.parameters)
    assert received["settings"] == settings.model_copy(update={"flow": "nightly"})


def test_serve_dry_run_prints_the_deployment_with_absolute_paths(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(ROOT / "data" / "golden.parquet", tmp_path / "g.parquet")
    argv = ["serve", "logs", "--db", "f.duckdb", "--cron", "0 3 * * 1-5", "--timezone"]
    argv += ["Europe/Paris", "--name", "weekdays", "--golden", "g.parquet", "--dry-run"]
    assert main(argv) == 0
    described = json.loads(capsys.readouterr().out)
    assert described["deployment"] == "faithpipe-nightly/weekdays"
    assert described["schedules"] == [
        {"cron": "0 3 * * 1-5", "timezone": "Europe/Paris", "active": True}
    ]
    assert described["parameters"] == {
        "settings": {
            "source": str(tmp_path / "logs"),
            "db": str(tmp_path / "f.duckdb"),
            "flow": "nightly",
        },
        "golden": str(tmp_path / "g.parquet"),
        "agreement_floor": 0.9,
    }


@pytest.mark.parametrize("golden", ["missing.parquet", "answers.parquet"])
def test_a_golden_set_no_night_could_read_is_refused_before_serving(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], golden: str
) -> None:
    """Each scheduled run read --golden first and failed (exit 3) at 02:00, night after night,
    while `faith serve --dry-run` said all was well (exit 0)."""
    (tmp_path / "answers.parquet").write_bytes(b"PAR1 not a golden set")
    argv = ["serve", str(tmp_path / "logs"), "--db", str(tmp_path / "f.duckdb")]
    assert main([*argv, "--golden", str(tmp_path / golden), "--dry-run"]) == 3
    assert f"golden set {tmp_path / golden}: not readable" in capsys.readouterr().err
    assert not (tmp_path / "f.duckdb").exists()


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--cron", "0 25 * * *"),
        ("--timezone", "Mars/Olympus"),
        # files of the system's zoneinfo folder that Python opens but are no IANA names:
        # Prefect refused them as the deployment was made, a traceback's ValidationError (exit 1)
        ("--timezone", "posix/Europe/Berlin"),
        ("--timezone", "right/UTC"),
        ("--timezone", "posixrules"),
        # the serving host's own zone, whatever it is: not the IANA name docs/scheduling.md asks
        ("--timezone", "localtime"),
        # a sixth field is seconds to Prefect's scheduler: 60 nightly runs from 02:00:00
        ("--cron", "0 2 * * * *"),
        # valid fields, no such date (30 February): the schedule would never fire
        ("--cron", "0 2 30 2 *"),
    ],
)
def test_a_bad_schedule_is_refused_with_one_line(
    option: str, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "logs", option, value, "--dry-run"]) == 2
    assert value in capsys.readouterr().err


def test_serve_without_a_prefect_server_says_how_to_start_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("PREFECT_API_URL", raising=False)
    monkeypatch.setenv("PREFECT_PROFILES_PATH", str(tmp_path / "no-profiles.toml"))
    assert main(["serve", str(tmp_path / "logs"), "--db", str(tmp_path / "f.duckdb")]) == 2
    assert "faith serve needs a Prefect server" in capsys.readouterr().err


def test_serve_without_the_judges_api_key_is_refused_before_anything_is_scheduled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each scheduled night runs in a process `faith serve` starts, with its environment: a
    serve without the key was served, and every night failed at 02:00 (exit 2, its key
    missing). Its dry run, which only shows the deployment, needs none."""
    monkeypatch.delenv("PREFECT_API_URL", raising=False)
    monkeypatch.setenv("PREFECT_PROFILES_PATH", str(tmp_path / "no-profiles.toml"))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    argv = ["serve", str(tmp_path / "logs"), "--db", str(tmp_path / "f.duckdb")]
    argv += ["--judge", "openai", "--model", "gpt-4o-mini"]
    assert main(argv) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("error: ")
    assert "OPENAI_API_KEY" in line
    assert main([*argv, "--dry-run"]) == 0
    assert (
        json.loads(capsys.readouterr().out)["parameters"]["settings"]["judge"]["kind"] == "openai"
    )


def test_prefect_yaml_declares_the_same_nightly_deployment() -> None:
    from prefect.flows import load_flow_from_entrypoint

    config = yaml.safe_load((ROOT / "prefect.yaml").read_text())
    (deployment,) = config["deployments"]
    assert deployment["name"] == "nightly"
    # `prefect deploy` loads the flow from the entrypoint exactly so.
    loaded = load_flow_from_entrypoint(str(ROOT / deployment["entrypoint"]))
    assert loaded.name == "faithpipe-nightly"
    assert deployment["schedules"] == [{"cron": "0 2 * * *", "timezone": "UTC", "active": True}]
    parameters = loaded.validate_parameters(deployment["parameters"])
    assert isinstance(parameters["settings"], ScoreSettings)
    assert (ROOT / parameters["settings"].source).exists()
    assert parameters["golden"] == "data/golden.parquet"
    assert (ROOT / parameters["golden"]).exists()
    # No pull steps: `prefect deploy` records the folder it runs in as the working directory.
    assert config["pull"] is None
    pool = deployment["work_pool"]["name"]
    steps = (ROOT / "docs" / "scheduling.md").read_text()
    assert f"prefect work-pool create {pool} --type process" in steps
    assert f"prefect worker start --pool {pool}" in steps


def test_serve_passes_the_deadline_and_the_alert_options_to_each_scheduled_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`faith serve` takes `faith nightly`'s --run-timeout and --alert-* options; a scheduled
    run receives them as the flow's parameters, the webhook (a secret the server would store
    and show) excepted."""
    from flows.orchestration.nightly_flow import nightly_flow

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("FAITH_ALERT_WEBHOOK", raising=False)
    hook = "https://hooks.example.test/services/T0/B0/secret-token"
    argv = ["serve", "logs", "--run-timeout", "600", "--alert-window", "7", "--alert-min-cases"]
    argv += ["10", "--alert-segment", "", "--alert-webhook", hook, "--dry-run"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "secret-token" not in out
    parameters = json.loads(out)["parameters"]
    assert {key: parameters[key] for key in parameters if key not in ("settings", "golden")} == {
        "agreement_floor": 0.9,
        "run_timeout": 600.0,
        "alert_window": 7,
        "alert_min_cases": 10,
        "alert_segment": None,
    }
    received = nightly_flow.validate_parameters(parameters)
    assert (received["run_timeout"], received["alert_window"], received["alert_segment"]) == (
        600.0,
        7,
        None,
    )
    # At the defaults nothing is added, and a scheduled run gets nightly's 6 h deadline.
    assert main(["serve", "logs", "--dry-run"]) == 0
    defaults = json.loads(capsys.readouterr().out)["parameters"]
    assert set(defaults) == {"settings", "golden", "agreement_floor"}
    assert nightly_flow.validate_parameters(defaults)["run_timeout"] == 21600.0
    # --run-timeout 0: none.
    assert main(["serve", "logs", "--run-timeout", "0", "--dry-run"]) == 0
    assert json.loads(capsys.readouterr().out)["parameters"]["run_timeout"] is None


@pytest.mark.parametrize(
    ("argv", "code", "says"),
    [
        (["logs", "--alert-window", "-1"], 2, "--alert-window must be 0 to 36,500 days"),
        # past the night's commit: DuckDB's dates (exit 1), the alert lost
        (["logs", "--alert-window", "1000000000"], 2, "--alert-window must be 0 to 36,500"),
        # raised only when an alert fired: exit 1 after the night was committed
        (["logs", "--alert-webhook", "http://127.0.0.1:99999/x"], 2, "--alert-webhook is not"),
        # `--alert-webhook "$SLACK_WEBHOOK_URL"` with the variable unset: served without one
        (["logs", "--alert-webhook", ""], 2, "--alert-webhook is empty"),
        # an unset variable, pinned as the runner's working folder
        (["", "--db", "f.duckdb"], 3, "SOURCE is empty"),
        (["logs", "--db", ""], 5, "--db is empty"),
        # served, and every night failed at 02:00 as `faith nightly` does on them (exit 5)
        (["logs", "--db", "warehouse/"], 5, "warehouse/ names a folder, not a database file"),
        (["logs", "--db", "/dev/null"], 5, "not a database file but a pipe, a device"),
        (["logs", "--golden", ""], 2, "--golden is empty"),
        (["logs", "--name", "a/b"], 2, "--name 'a/b': Name 'a/b' contains an invalid"),
        # a deployment 'faithpipe-nightly/   ', which the UI shows as nothing
        (["logs", "--name", "   "], 2, "--name '   ': name the deployment"),
        # taken and ignored: the schedule was served through Prefect all the same
        (["logs", "--prefect", "no"], 2, "faith serve always runs through Prefect"),
        # the parameters come back from Prefect with the password as **********: each night
        # sent that and was refused (exit 9 or 6)
        (
            ["logs", "--judge", "openai", "--model", "m", "--base-url", "http://u:pw@h:8/v1"],
            2,
            "--base-url holds credentials",
        ),
        # served, and every night failed at 02:00 with the same line as `faith nightly`'s
        (["logs", "--judge", "openai"], 2, "--judge openai needs --model NAME"),
        (["logs", "--model", "grounded-v99"], 2, "unknown grounded rules 'grounded-v99'"),
    ],
)
def test_serve_refuses_what_no_scheduled_night_could_run(
    capsys: pytest.CaptureFixture[str], argv: list[str], code: int, says: str
) -> None:
    assert main(["serve", *argv, "--dry-run"]) == code
    assert says in capsys.readouterr().err


@pytest.mark.parametrize("value", ["nan", "inf", "1e10", ""])
def test_a_run_timeout_no_timer_can_hold_is_a_usage_error(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """nan, inf and 1e10 failed each scheduled night with exit 1 (the timer's timestamp)."""
    with pytest.raises(SystemExit) as refused:
        main(["serve", "logs", "--run-timeout", value, "--dry-run"])
    assert refused.value.code == 2
    assert "--run-timeout: must be a number of seconds from 0 (none)" in capsys.readouterr().err


def test_a_deadline_inside_an_armed_one_leaves_the_first_in_force() -> None:
    """`faith nightly --prefect yes` arms its deadline, then the flow arms its own: the
    command's (started first) governs, and leaving the flow's disarms nothing."""
    import signal

    from flows.clock import remaining
    from flows.run.deadline import run_deadline

    with run_deadline(300):
        with run_deadline(30):
            left = remaining()
            assert left is not None
            assert left > 30
        assert signal.getitimer(signal.ITIMER_REAL)[0] > 30
    assert remaining() is None
    assert signal.getitimer(signal.ITIMER_REAL)[0] == 0


@pytest.mark.parametrize("value", [-5.0, float("nan"), float("inf"), 1e10])
def test_a_run_timeout_parameter_no_timer_can_hold_is_refused_before_the_night(
    tmp_path: Path, value: float
) -> None:
    """prefect.yaml's parameters, or a run started from the UI with its parameters changed,
    reach the flow without the command line's check: 1e10 failed each night on the timer
    (OverflowError), and -5 or nan left every wait of the judge with no time at all."""
    from faith_udfs.errors import ConfigError
    from flows.orchestration.nightly_flow import nightly_flow

    settings = ScoreSettings(source=str(tmp_path / "logs"), db=str(tmp_path / "f.duckdb"))
    with pytest.raises(ConfigError, match="run_timeout must be a number of seconds from 0"):
        nightly_flow.fn(settings, run_timeout=value)
    assert not (tmp_path / "f.duckdb").exists()


@pytest.mark.slow
@pytest.mark.usefixtures("prefect_harness", "sigint_heard")
@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_stopped_serve_exits_with_the_signals_code_and_one_line(
    sig: signal.Signals, code: int, tmp_path: Path
) -> None:
    """Prefect's runner took SIGTERM as a graceful stop and its serve() swallowed Ctrl-C: the
    process ended 0 either way, without a line, where docs/exit-codes.md promises 143 and 130,
    so a service manager could not tell a stop from the server's end of a schedule."""
    from prefect.settings import PREFECT_API_URL

    from tests.support.stops import signal_at, spawn

    name = f"stop-{sig.name.lower()}"
    env = {**os.environ, "PREFECT_API_URL": str(PREFECT_API_URL.value())}
    argv = [sys.executable, "-m", "flows", "serve", str(tmp_path / "logs"), "--name", name]
    child = spawn([*argv, "--db", str(tmp_path / "f.duckdb")], env)
    # A serve that never says it serves is ended, not waited for until pytest's timeout.
    guard = threading.Timer(HANG_GUARD, child.kill)
    guard.start()
    try:
        # Its line names the deployment once the runner polls (Prefect's own table named it
        # just before the runner started: the second lets that runner start).
        _, output = signal_at(child, f"faithpipe-nightly/{name}", 1.0, sig)
    finally:
        guard.cancel()
        if child.poll() is None:
            child.kill()
            child.wait(timeout=60)
    assert child.returncode == code, output
    last = output.strip().splitlines()[-1]
    assert last == f"interrupted ({sig.name}): committed batches are kept; run again to finish"
    assert "Traceback" not in output, output
    assert deployment_paused(f"faithpipe-nightly/{name}")  # Prefect's runner paused it


def deployment_paused(name: str) -> bool:
    import asyncio

    from prefect.client.orchestration import get_client

    async def read() -> bool:
        async with get_client() as client:
            return bool((await client.read_deployment_by_name(name)).paused)

    return asyncio.run(read())


def test_a_prefect_api_that_never_answers_the_registration_is_exit_2_and_one_line(
    tmp_path: Path,
) -> None:
    """Prefect's add_deployment waits for its registration without a deadline: a Prefect API
    that answered its health check, then held the connection, left `faith serve` starting
    for minutes, then a traceback (exit 1). It now gets PREFECT_API_REQUEST_TIMEOUT."""
    from tests.support.black_hole import HealthyBlackHole

    with HealthyBlackHole() as hole:
        url = hole.api_url
        env = {**os.environ, "PREFECT_API_URL": url, "PREFECT_API_REQUEST_TIMEOUT": "3"}
        argv = [sys.executable, "-m", "flows", "serve", str(tmp_path / "logs"), "--name", "held"]
        done = subprocess.run(
            [*argv, "--db", str(tmp_path / "f.duckdb")],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,  # the hard guard: a child still starting then is killed, and fails
            check=False,
        )
        # the health check, then one registration request held to the deadline (and at most
        # one retry begun as it fell): no wall-clock bound, which a loaded machine breaks;
        # without the deadline Prefect retried the held request for ~85 s, one connection each
        assert 2 <= hole.connections <= 3, hole.connections
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.splitlines()
    assert line == (
        f"error: the Prefect server at {url} did not register the deployment within "
        "3 s (PREFECT_API_REQUEST_TIMEOUT): check the server, point PREFECT_API_URL at a "
        "running one, or raise PREFECT_API_REQUEST_TIMEOUT"
    ), line
    assert not list(tmp_path.glob("f.duckdb*"))


def test_a_second_stop_inside_the_runners_tasks_ends_with_it_and_logs_what_else_failed(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A stop raised inside the runner's tasks comes out of asyncio.run in nested exception
    groups: the command ends with the stop (143 here), the cancelled tasks it left are no
    errors, and an error beside it is logged on one line, not dropped."""
    import asyncio

    from flows.orchestration.serving import stop_of
    from flows.run.stop_signals import Terminated

    term = Terminated("SIGTERM")
    group = BaseExceptionGroup(
        "tasks",
        [
            asyncio.CancelledError(),
            BaseExceptionGroup("inner", [term, RuntimeError("the run's database is gone")]),
        ],
    )
    with caplog.at_level("WARNING", logger="faithpipe"):
        assert stop_of(group) is term
    said = [record.getMessage() for record in caplog.records]
    assert said == ["faith serve: RuntimeError: the run's database is gone, as it stopped"]
    assert stop_of(BaseExceptionGroup("tasks", [RuntimeError("boom")])) is None  # raised as is
