"""The judge's settings check themselves (issue 21): a Python caller of the run API meets
the same start checks as `faith score`, and every option reaches the settings field it names."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from faith_udfs.errors import ConfigError
from flows.cli.commands import build_parser
from flows.cli.settings import run_settings
from flows.judges.settings import JudgeSettings
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.builders import many_cases, write
from tests.support.cli_run import Done, faith_here
from tests.support.openai_batch_stub import BatchStub

TPM_TOO_SMALL = "--tpm 5,000 cannot hold one judge request: its reply may take 8,192 tokens"


def test_a_python_caller_meets_the_tpm_rule_when_the_settings_are_built() -> None:
    with pytest.raises(ValidationError, match=TPM_TOO_SMALL):
        JudgeSettings(kind="openai", model="m", tpm=5000)
    # Nested as a plain mapping, as a Prefect deployment's parameters arrive.
    with pytest.raises(ValidationError, match="raise --tpm well above 400"):
        ScoreSettings(
            source="x.parquet",
            judge={"kind": "openai", "model": "m", "tpm": 300, "max_output_tokens": 400},
        )
    # A window that holds one call, and a judge that makes none, pass.
    assert JudgeSettings(kind="openai", model="m", tpm=20_000).tpm == 20_000
    assert JudgeSettings(kind="lexical", tpm=10).tpm == 10


def test_run_score_is_never_reached_with_a_tpm_that_holds_no_call(tmp_path: Path) -> None:
    db = tmp_path / "f.duckdb"
    with pytest.raises(ValidationError, match=TPM_TOO_SMALL):
        run_score(
            ScoreSettings(
                source=str(tmp_path / "none.parquet"),
                db=str(db),
                judge=JudgeSettings(kind="openai", model="m", tpm=5000),
            )
        )
    assert not db.exists()


def test_the_cli_says_what_a_python_caller_is_told() -> None:
    args = build_parser().parse_args(["score", "x.parquet", "--judge", "openai", "--tpm", "5000"])
    with pytest.raises(ConfigError) as refused:
        run_settings(args, flow="score")
    with pytest.raises(ValidationError) as python:
        JudgeSettings(kind="openai", tpm=5000)
    assert str(refused.value) == python.value.errors()[0]["msg"].removeprefix("Value error, ")


def test_every_option_reaches_the_field_it_names() -> None:
    command = [
        "score", "logs/", "--db", "f.duckdb", "--judge", "openai", "--model", "m",
        "--base-url", "http://127.0.0.1:9/v1", "--api-key-env", "K", "--judge-mode", "per-item",
        "--llm-reason", "--concurrency", "3", "--timeout", "7", "--max-calls", "11",
        "--max-tokens", "12000", "--rpm", "13", "--tpm", "90000", "--max-output-tokens", "600",
        "--price-input", "0.5", "--price-output", "1.5", "--threshold", "0.7",
        "--penalize-ambiguous-claims", "--strict-mode", "--no-reason",
        "--truths-extraction-limit", "4", "--batch-size", "500", "--lock-timeout", "3",
        "--max-invalid-share", "0.25", "--max-quarantine-share", "0.2", "--snapshot", "--dry-run",
    ]  # fmt: skip
    settings = run_settings(build_parser().parse_args(command), flow="nightly")
    assert settings.judge == JudgeSettings(
        kind="openai",
        model="m",
        base_url="http://127.0.0.1:9/v1",
        api_key_env="K",
        mode="per-item",
        llm_reason=True,
        concurrency=3,
        timeout=7,
        max_calls=11,
        max_tokens=12000,
        rpm=13,
        tpm=90000,
        max_output_tokens=600,
    )
    assert settings.model_dump(exclude={"judge"}) == ScoreSettings(
        source="logs/",
        db="f.duckdb",
        judge=settings.judge,
        threshold=0.7,
        penalize_ambiguous_claims=True,
        strict_mode=True,
        include_reason=False,
        truths_extraction_limit=4,
        batch_size=500,
        lock_timeout=3,
        max_invalid_share=0.25,
        max_quarantine_share=0.2,
        snapshot=True,
        flow="nightly",
        price_input_usd=0.5,
        price_output_usd=1.5,
        dry_run=True,
    ).model_dump(exclude={"judge"})


@pytest.mark.parametrize("timeout", ["inf", "1e300", "0", "nan"])
@pytest.mark.parametrize("command", ["score", "judge-check", "batches"])
def test_a_timeout_no_timer_can_hold_is_refused_at_start(
    command: str,
    timeout: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`--timeout inf` (or 1e300) overflowed a timer's timestamp at the first request: exit 1,
    `judge … crashed (a bug …)`; `faith batches --refresh --timeout 0` opened the breaker
    (exit 6) on a server that was fine. Each is a bad option: exit 2, one line, no request."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-timeout-check-key")
    db = tmp_path / "f.duckdb"
    with BatchStub() as stub:
        if command == "batches":
            stub.then("hold")
            source = write(many_cases(3), tmp_path / "cases.parquet")
            seeded = faith_here(capsys, "score", str(source), "--db", str(db), "--prefect", "no",
                                "--judge", "openai", "--judge-mode", "batch", "--model", "m",
                                "--base-url", stub.base_url)  # fmt: skip
            assert seeded.returncode == 0, seeded.stderr
            argv = ["batches", "--db", str(db), "--refresh"]
        elif command == "score":
            source = write(many_cases(3), tmp_path / "cases.parquet")
            argv = ["score", str(source), "--db", str(db), "--prefect", "no", "--judge", "openai",
                    "--model", "m"]  # fmt: skip
        else:
            argv = ["judge-check", "--model", "m"]
        asked = sum(stub.requests.values())
        try:
            done = faith_here(capsys, *argv, "--base-url", stub.base_url, f"--timeout={timeout}")
        except SystemExit as refused:  # an option's type: argparse's usage, then the line
            done = Done(int(str(refused.code)), "", capsys.readouterr().err)
        assert sum(stub.requests.values()) == asked
    assert done.returncode == 2, done.stderr
    assert "error: " in done.stderr.splitlines()[-1], done.stderr
    assert "--timeout" in done.stderr.splitlines()[-1], done.stderr


@pytest.mark.parametrize(
    ("base_url", "said"),
    [
        ("http://alice:hunter2pass@127.0.0.1:notaport/v1", "'http://127.0.0.1:notaport/v1'"),
        ("http://alice:hunter2pass@127.0.0.1:99999/v1", "Port out of range"),
        ("http://alice:hunter2pass@[::1/v1", "Invalid IPv6 URL"),
        ("htp://alice:hunter2pass@127.0.0.1:8000/v1", "its scheme is 'htp'"),
        ("alice:hunter2pass@127.0.0.1:8000/v1", "does not start with http:// or https://"),
        (
            "http://127.0.0.1:8000/v1?key=hunter2pass",
            "'http://127.0.0.1:8000/v1' cannot be called: it has a query",
        ),
        ("http://127.0.0.1:notaport/v1?key=hunter2pass#alice", "'http://127.0.0.1:notaport/v1'"),
        ("http://127.0.0.1:8000/v1?", "cannot be called: it has a query"),
        ("http://alice:hunter2pass@127.0.0.1:8000/v1\r", "white space or a control character"),
        (" http://alice:hunter2pass@127.0.0.1:8000/v1", "white space or a control character"),
        ("http://alice:hunter2pass@vllm host:8000/v1", "white space or a control character"),
        ("http://alice:hunter2pass@\uff56llm:8000/v1", "Invalid IDNA hostname"),
    ],
    ids=[
        "port-not-a-number",
        "port-out-of-range",
        "broken-ipv6",
        "scheme",
        "no-scheme",
        "key-in-query",
        "bad-port-and-key-in-query",
        "empty-query",
        "line-break",  # read from a file written on Windows: exit 1, InvalidURL
        "leading-space",  # a relative URL to the client: exit 6, `could not be connected to`
        "space-in-host",  # exit 6, `has a host name that does not resolve`
        "fullwidth-host",  # exit 1, InvalidURL
    ],
)
@pytest.mark.parametrize("command", ["score", "batches"])
def test_a_base_url_no_client_can_call_is_refused_at_start_without_its_password(
    command: str,
    base_url: str,
    said: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A port that is no number crashed the run once its judge was built (exit 1, `error:
    ValueError: Port could not be cast …`), a scheme that is not http went on to an
    unreachable endpoint (exit 6), and a query (`?key=…`) was mangled by the client into
    `/v1/?key=…chat/completions`, every call a 404. So did a URL the client's own parser
    refuses or reads otherwise (a line break: exit 1; a leading space: a relative URL, exit 6).
    Each is a bad option: exit 2, one line that never shows the URL's credentials, query or
    fragment."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-base-url-check-key")
    db = tmp_path / "f.duckdb"
    source = write(many_cases(3), tmp_path / "cases.parquet")
    if command == "batches":
        with BatchStub() as stub:
            stub.then("hold")
            seeded = faith_here(capsys, "score", str(source), "--db", str(db), "--prefect", "no",
                                "--judge", "openai", "--judge-mode", "batch", "--model", "m",
                                "--base-url", stub.base_url)  # fmt: skip
        assert seeded.returncode == 0, seeded.stderr
        argv = ["batches", "--db", str(db), "--refresh"]
    else:
        argv = ["score", str(source), "--db", str(db), "--prefect", "no", "--judge", "openai",
                "--model", "m"]  # fmt: skip
    done = faith_here(capsys, *argv, "--base-url", base_url)
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("error: --base-url"), line
    assert said in line, line
    assert "hunter2pass" not in line, line
    assert "alice" not in line, line


@pytest.mark.parametrize("wait", ["inf", "1e300", "2592001"])
def test_a_batch_wait_without_an_end_is_refused_at_start(
    wait: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--batch-wait inf` was taken: the run polled a batch the provider held for as long as
    it held it, an unattended night with no end. A wait is a number of seconds from 0 to
    30 days, as --run-timeout's: anything else is a bad option (exit 2, one line), refused
    before the database is made or the endpoint asked."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-batch-wait-check-key")
    db = tmp_path / "f.duckdb"
    source = write(many_cases(3), tmp_path / "cases.parquet")
    with BatchStub() as stub:
        stub.then("hold")
        try:
            done = faith_here(capsys, "score", str(source), "--db", str(db), "--prefect", "no",
                              "--judge", "openai", "--judge-mode", "batch", "--model", "m",
                              "--base-url", stub.base_url, "--run-timeout", "30",
                              "--batch-wait", wait)  # fmt: skip
        except SystemExit as refused:  # an option's type: argparse's usage, then the line
            done = Done(int(str(refused.code)), "", capsys.readouterr().err)
        assert sum(stub.requests.values()) == 0
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines()[-1].startswith("error: "), done.stderr
    assert "--batch-wait" in done.stderr.splitlines()[-1], done.stderr
    assert not db.exists()


@pytest.mark.parametrize("wait", [float("inf"), 1e300])
def test_a_python_caller_meets_the_batch_wait_bound(wait: float) -> None:
    with pytest.raises(ValidationError, match="batch_wait"):
        JudgeSettings(kind="openai", model="m", mode="batch", batch_wait=wait)
    assert JudgeSettings(kind="openai", model="m", mode="batch", batch_wait=3600).batch_wait == 3600


@pytest.mark.parametrize("command", ["score", "nightly"])
@pytest.mark.parametrize(
    "given",
    [
        ["--judge-mode", "batch"],
        ["--base-url", "http://127.0.0.1:9/v1"],
        ["--llm-reason"],
        ["--batch-wait", "600"],
        ["--timeout", "5"],
        ["--rpm", "100"],
        ["--judge", "lexical", "--max-reply-bytes", "1M"],
    ],
)
def test_an_llm_option_given_to_an_offline_judge_is_refused_not_ignored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, given: list[str]
) -> None:
    """`faith score logs/ --judge-mode batch --base-url URL` (--judge openai forgotten)
    scored every case with the grounded judge and exited 0: exit 2, nothing created."""
    write(many_cases(3), tmp_path / "cases.parquet")
    db = tmp_path / "faith.duckdb"
    argv = [command, str(tmp_path / "cases.parquet"), "--db", str(db), "--prefect", "no"]

    done = faith_here(capsys, *argv, *given)

    option = next(o for o in given if o.startswith("--") and o != "--judge")
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"error: {option} is an option of the LLM judge"), done.stderr
    assert done.stderr.count("\n") == 1
    assert not db.exists()
