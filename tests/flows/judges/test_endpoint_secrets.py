"""Nothing a server echoes of our credentials is stored, logged or printed (issue 22, item 1).

Real servers on 127.0.0.1 (tests/support/openai_stub.py, openai_batch_stub.py) echo every
header and the body they received, Authorization first, into a 500's error, a 200's error
object, an HTML page, the reply itself, or a batch's error file. Each path that reads server
text (live run, batch run, `faith judge-check`, a Dask worker) runs against them with the key
sent as `Bearer` and with `user:password@` in the base URL (sent as `Basic`); the stored rows,
the log and the process's output hold the echo, scrubbed, and no secret in any form.
"""

from __future__ import annotations

import base64
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import duckdb
import polars as pl
import pytest

from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from flows.scrub import register_endpoint_secrets, scrub
from tests.support.builders import many_cases, write
from tests.support.llm_judge import openai_judge
from tests.support.openai_batch_stub import BatchStub
from tests.support.openai_stub import ECHOES, StubServer, serving

KEY = "sk-echo-7c1d9e2f4a6b8c0d1e3f5a7b9c1d3e5f"
USER, PASSWORD = "probeuser", "pr0be-pass/w0rd"
FAITH = Path(sys.executable).with_name("faith")
FAST = {"timeout": 2.0, "max_retries": 1, "backoff_base": 0.01, "backoff_max": 0.05}
# Every form a secret travels in: the key, its header, the URL's credentials plain and base64.
BASIC = base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
SECRETS = (KEY, f"Bearer {KEY}", f"{USER}:{PASSWORD}", PASSWORD, BASIC, f"Basic {BASIC}", USER)


@pytest.fixture
def stub(monkeypatch: pytest.MonkeyPatch) -> Iterator[StubServer]:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    with serving() as server:
        yield server


@pytest.fixture
def source(tmp_path: Path) -> Path:
    return write(many_cases(4), tmp_path / "cases.parquet")


def with_credentials(url: str) -> str:
    scheme, _, rest = url.partition("://")
    return f"{scheme}://{USER}:{PASSWORD}@{rest}"


def stored_text(db: Path) -> str:
    """Every row of every table, every column as text."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        tables = con.sql(
            "SELECT table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE'"
        ).fetchall()
        return "\n".join(
            str(con.sql(f'SELECT CAST(t AS VARCHAR) FROM "{name}" AS t').fetchall())
            for (name,) in tables
        )
    finally:
        con.close()


def assert_no_secret(*texts: str) -> None:
    for text in texts:
        for secret in SECRETS:
            assert secret not in text, (secret, text[text.find(secret) - 80 :][:240])


def assert_echo_kept_scrubbed(text: str) -> None:
    """The echo did reach the text (so the test can fail), its Authorization cut."""
    assert "you sent Authorization: [redacted]" in text, text[:2000]


@pytest.mark.timeout(60)
@pytest.mark.parametrize("auth", ["bearer", "basic"])
@pytest.mark.parametrize("fault", ECHOES)
def test_a_live_run_keeps_no_secret_a_server_echoes(
    stub: StubServer, source: Path, tmp_path: Path, fault: str, auth: str, caplog, capsys
) -> None:
    caplog.set_level("DEBUG", logger="flows")
    stub.fail(fault, times=None)
    base_url = stub.base_url if auth == "bearer" else with_credentials(stub.base_url)
    judge = openai_judge("stub-model", base_url=base_url, breaker_failures=10_000, **FAST)
    db = tmp_path / "echo.duckdb"
    settings = ScoreSettings(source=str(source), db=str(db), max_invalid_share=1.0)
    try:
        run = run_score(settings, judge=judge)
    finally:
        judge.close()
    assert run["rows_invalid"] == run["rows_in"] == 4
    stored = stored_text(db)
    assert_echo_kept_scrubbed(stored)
    out = capsys.readouterr()
    assert_no_secret(stored, caplog.text, out.out, out.err)


def test_scrub_cuts_every_form_of_a_registered_secret() -> None:
    register_endpoint_secrets(KEY, with_credentials("http://127.0.0.1:9/v1"))
    text = (
        f"Authorization: Bearer {KEY}; {{'authorization': 'Basic {BASIC}'}}; {USER}:{PASSWORD}; "
        f"http://{USER}:x@host/; key={KEY}; user {USER} password {PASSWORD}"
    )
    cleaned = scrub(text)
    assert_no_secret(cleaned)
    assert "Basic facts" in scrub("Basic facts hold")  # prose is not taken for a header


def test_short_credentials_go_in_their_pair_and_base64_and_prose_stays() -> None:
    register_endpoint_secrets(None, "http://user:pw@127.0.0.1:9/v1")  # the example
    echoed = "Authorization was Basic dXNlcjpwdw== (user:pw). The user asked for a refund."
    assert scrub(echoed) == (
        "Authorization was Basic [redacted] ([redacted]). The user asked for a refund."
    )


def test_a_short_key_is_cut_as_a_whole_word_and_a_placeholder_stays_in_model_text() -> None:
    """Any value will do as the key of a server without auth: `test` was cut out of every
    reply as a substring ("the la[redacted] [redacted]s"), mangling the claims stored."""
    register_endpoint_secrets("zorbl", None)  # a placeholder: letters alone, short
    register_endpoint_secrets("zq-9x", None)  # short, but no word: a secret
    said = "Zorblax and zorbly ship; the zorbl unit ships. Key zq-9x, not xzq-9xy."
    assert scrub(said, model_text=True) == (
        "Zorblax and zorbly ship; the zorbl unit ships. Key [redacted], not xzq-9xy."
    )
    assert scrub("refused key zorbl; zorblax") == "refused key [redacted]; zorblax"
    # a password of letters alone is a secret wherever it stands, a model's text too
    register_endpoint_secrets(None, "https://svcacct:Swordfish@llm.internal/v1")
    assert scrub("echo: Swordfish", model_text=True) == "echo: [redacted]"


@pytest.mark.timeout(120)
def test_a_run_with_a_placeholder_key_stores_the_models_words_whole(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "blorp")
    answer = "Our blorpex units ship on 3 March. The blorp unit ships on 3 March."
    context = ["Our blorpex units ship on 3 March.", "The blorp unit ships on 3 March."]
    rows = many_cases(2).with_columns(
        actual_output=pl.lit(answer), retrieval_context=pl.lit(context, dtype=pl.List(pl.String))
    )
    source = write(rows, tmp_path / "cases.parquet")
    db = tmp_path / "f.duckdb"
    with serving() as server:
        judge = openai_judge("stub-model", base_url=server.base_url, **FAST)
        try:
            run = run_score(ScoreSettings(source=str(source), db=str(db)), judge=judge)
        finally:
            judge.close()
    assert (run["rows_scored"], run["rows_invalid"]) == (2, 0)
    con = duckdb.connect(str(db), read_only=True)
    try:
        claims = {claim for (claim,) in con.execute("SELECT claim FROM claim_verdicts").fetchall()}
    finally:
        con.close()
    assert claims == {"Our blorpex units ship on 3 March.", "The blorp unit ships on 3 March."}


def faith(*argv: str, base_url: str, timeout: float = 90) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "OPENAI_API_KEY": KEY, "PREFECT_SERVER_ANALYTICS_ENABLED": "false"}
    command = [str(FAITH), *argv, "--base-url", base_url, "-v"]
    return subprocess.run(
        command, capture_output=True, text=True, timeout=timeout, env=env, check=False
    )


@pytest.mark.timeout(120)
def test_a_cli_run_prints_no_secret_a_server_echoes(
    stub: StubServer, source: Path, tmp_path: Path
) -> None:
    stub.fail("echo_reply", times=None)
    db = tmp_path / "cli.duckdb"
    done = faith(
        "score", str(source), "--db", str(db), "--prefect", "no", "--judge", "openai",
        "--model", "stub-model", "--max-invalid-share", "1",
        base_url=with_credentials(stub.base_url),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    stored = stored_text(db)
    assert_echo_kept_scrubbed(stored)
    assert_no_secret(stored, done.stdout, done.stderr)


@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    ("fault", "said"),
    [
        ("401", "refused the user name and password of --base-url (HTTP 401"),
        ("quota", "the account whose user name and password --base-url gives is used up (HTTP 429"),
    ],
)
def test_refused_credentials_of_the_url_are_named_not_the_key(
    stub: StubServer, source: Path, tmp_path: Path, fault: str, said: str
) -> None:
    """With user:password@ in --base-url the key is not sent; a 401 said "the endpoint
    refused the API key read from $OPENAI_API_KEY; set a valid key", the wrong thing to fix,
    and a spent quota named the account of that key."""
    stub.fail(fault, times=None)  # the stub echoes the refused Authorization in full
    db = tmp_path / "refused.duckdb"
    done = faith(
        "score", str(source), "--db", str(db), "--prefect", "no", "--judge", "openai",
        "--model", "stub-model", base_url=with_credentials(stub.base_url),
    )  # fmt: skip
    assert done.returncode == 6, done.stderr
    error = done.stderr.splitlines()[-1]
    assert said in error, error
    assert "API key" not in error.replace("in place of the API key", "")
    assert "OPENAI_API_KEY" not in error
    assert_no_secret(stored_text(db), done.stdout, done.stderr)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("fault", ["echo_reply", "echo_500"])
def test_judge_check_prints_no_secret_a_server_echoes(
    stub: StubServer, tmp_path: Path, fault: str
) -> None:
    stub.fail(fault, times=None)
    db = tmp_path / "check.duckdb"
    done = faith(
        "judge-check", "--db", str(db), "--model", "stub-model",
        base_url=with_credentials(stub.base_url),
    )  # fmt: skip
    # a reply it cannot read: unusable (9); 5xx after 5xx, packed then per-item: the breaker
    # opens and the endpoint counts as unreachable (6)
    assert done.returncode == (9 if fault == "echo_reply" else 6), done.stderr
    if fault == "echo_reply":  # the breaker's line names the fault, not the server's text
        assert_echo_kept_scrubbed(done.stdout + done.stderr + stored_text(db))
    assert_no_secret(stored_text(db), done.stdout, done.stderr)


@pytest.mark.timeout(120)
def test_a_batch_run_keeps_and_prints_no_secret_a_server_echoes(
    source: Path, tmp_path: Path
) -> None:
    with BatchStub() as batches:
        batches.then("echo")
        db = tmp_path / "batch.duckdb"
        argv = ["score", str(source), "--db", str(db), "--prefect", "no", "--judge",
                "openai", "--model", "stub-model", "--judge-mode", "batch",
                "--max-invalid-share", "1"]  # fmt: skip
        url = with_credentials(batches.base_url)
        first = faith(*argv, "--batch-wait", "20", base_url=url)
        second = faith(*argv, base_url=url)
    assert first.returncode == 0, first.stderr
    stored = stored_text(db)
    assert_echo_kept_scrubbed(stored + first.stderr + second.stderr)
    assert_no_secret(stored, first.stdout, first.stderr, second.stdout, second.stderr)


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_a_dask_worker_keeps_no_secret_a_server_echoes(
    stub: StubServer, source: Path, tmp_path: Path
) -> None:
    pytest.importorskip("distributed")
    stub.fail("echo_reply", times=None)
    db = tmp_path / "dask.duckdb"
    done = faith(
        "score", str(source), "--db", str(db), "--prefect", "no", "--judge", "openai",
        "--model", "stub-model", "--max-invalid-share", "1", "--engine", "dask",
        "--workers", "1",
        base_url=with_credentials(stub.base_url), timeout=200,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    stored = stored_text(db)
    assert_echo_kept_scrubbed(stored)
    assert_no_secret(stored, done.stdout, done.stderr)
    for path in db.parent.rglob("*"):
        if path.is_file() and path.suffix != ".parquet":
            assert_no_secret(path.read_bytes().decode("utf-8", "replace"))
