"""A judge no run could build is a bad option (exit 2) that leaves the disk as it was: `faith
score` and `faith nightly` created the database (and its tables) before they refused
`--judge openai` without `--model`, so a typo left a stray file a later run would use."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from flows.run.settings import ScoreSettings
from tests.support.builders import case_row, cases, write
from tests.support.cli_run import faith_here
from tests.support.openai_stub import serving

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = str(ROOT / "data" / "sample" / "cases.parquet")


@pytest.mark.parametrize("command", ["score", "nightly"])
@pytest.mark.parametrize(
    ("judge", "said"),
    [
        (["--judge", "openai"], "--judge openai needs --model NAME"),
        (["--judge", "openai", "--model", " "], "--judge openai needs --model NAME"),
        (["--model", "grounded-v99"], "unknown grounded rules 'grounded-v99'"),
    ],
)
def test_a_judge_no_run_could_build_creates_no_database(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    command: str,
    judge: list[str],
    said: str,
) -> None:
    db = tmp_path / "faith.duckdb"
    done = faith_here(capsys, command, SAMPLE, "--db", str(db), "--prefect", "no", *judge)
    assert done.returncode == 2
    assert said in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_on_dask_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Refused before a cluster is started, so no worker runs either."""
    db = tmp_path / "faith.duckdb"
    argv = ["score", SAMPLE, "--db", str(db), "--prefect", "no", "--engine", "dask"]
    done = faith_here(capsys, *argv, "--judge", "openai")
    assert done.returncode == 2
    assert "--judge openai needs --model NAME" in done.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", ["score", "nightly"])
@pytest.mark.parametrize("mode", ["per-item", "batch"])
def test_an_llm_judge_without_its_key_creates_no_database(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: str,
    mode: str,
) -> None:
    monkeypatch.delenv("FAITH_TEST_KEY", raising=False)
    db = tmp_path / "faith.duckdb"
    judge = ["--judge", "openai", "--model", "gpt-4o-mini", "--api-key-env", "FAITH_TEST_KEY"]
    done = faith_here(
        capsys, command, SAMPLE, "--db", str(db), "--prefect", "no", *judge, "--judge-mode", mode
    )
    assert done.returncode == 2
    assert "environment variable FAITH_TEST_KEY, which is not set" in done.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", ["score", "nightly"])
def test_an_empty_key_variable_name_is_said_as_such(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """`--api-key-env "$KEY_VAR"` with KEY_VAR unset gave `… from the environment variable ,
    which is not set; export =<key> …`: a line with a hole where the name goes."""
    db = tmp_path / "faith.duckdb"
    judge = ["--judge", "openai", "--model", "gpt-4o-mini", "--api-key-env", ""]
    done = faith_here(capsys, command, SAMPLE, "--db", str(db), "--prefect", "no", *judge)
    assert done.returncode == 2
    last = done.stderr.splitlines()[-1]
    assert last.startswith("error: --api-key-env is empty: name the environment variable"), last
    assert "export =" not in last
    assert list(tmp_path.iterdir()) == []


def test_a_dry_run_needs_no_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A dry run only counts what it would ask: it still runs, and creates its row's file."""
    monkeypatch.delenv("FAITH_TEST_KEY", raising=False)
    db = tmp_path / "faith.duckdb"
    judge = ["--judge", "openai", "--model", "gpt-4o-mini", "--api-key-env", "FAITH_TEST_KEY"]
    done = faith_here(
        capsys, "score", SAMPLE, "--db", str(db), "--prefect", "no", *judge, "--dry-run"
    )
    assert done.returncode == 0, done.stderr
    assert "nothing judged or written" in done.stdout + done.stderr


@pytest.mark.parametrize("command", ["score", "nightly"])
@pytest.mark.parametrize("value", ["inf", "nan", "1e400"])
def test_a_price_that_is_no_finite_number_is_refused_before_any_call(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, value: str
) -> None:
    # `--price-input inf` ran the night and stored cost_usd inf, which `faith runs` showed.
    db = tmp_path / "faith.duckdb"
    with serving() as stub, pytest.raises(SystemExit) as refused:  # argparse's, in-process
        faith_here(
            capsys, command, SAMPLE, "--db", str(db), "--prefect", "no", "--judge", "openai",
            "--model", "gpt-4o-mini", "--base-url", stub.base_url, "--price-input", value,
        )  # fmt: skip
    assert refused.value.code == 2
    assert capsys.readouterr().err.strip() == (
        f"error: faith {command}: argument --price-input: must be a price in USD, 0 or more, "
        f"got {value} (see faith {command} --help)"
    )
    assert stub.requests == 0
    assert list(tmp_path.iterdir()) == []


def test_settings_built_in_python_refuse_an_infinite_price() -> None:
    with pytest.raises(ValidationError, match="finite number"):
        ScoreSettings(source=SAMPLE, price_output_usd=float("inf"))


# A key pasted or mounted with what no HTTP header can carry: `echo KEY > secret` leaves a line
# break (a Kubernetes secret made so ends in one), a word processor a typographic quote. Each
# call failed inside httpx: the newline as 5 "could not be connected to" in a row (exit 6, the
# endpoint blamed), the é as "judge openai/m crashed (a bug …)" (exit 1).
UNSENDABLE_KEYS = [
    pytest.param("sk-proj-0123456789abcdef\n", "begins or ends with white space", id="newline"),
    pytest.param(" sk-proj-0123456789abcdef", "begins or ends with white space", id="space"),
    pytest.param("\x1b[32msk-proj-0123456789abcdef", "a control character", id="escape"),
    pytest.param("sk-proj-0123456789abcdéf", "a character outside ASCII", id="non-ascii"),
]


@pytest.mark.parametrize("command", ["score", "nightly"])
@pytest.mark.parametrize(("key", "said"), UNSENDABLE_KEYS)
def test_a_key_no_http_header_can_carry_is_refused_before_any_call(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: str,
    key: str,
    said: str,
) -> None:
    monkeypatch.setenv("FAITH_TEST_KEY", key)
    db = tmp_path / "faith.duckdb"
    with serving() as stub:
        done = faith_here(
            capsys, command, SAMPLE, "--db", str(db), "--prefect", "no", "--judge", "openai",
            "--model", "gpt-4o-mini", "--base-url", stub.base_url, "--api-key-env",
            "FAITH_TEST_KEY",
        )  # fmt: skip
    assert done.returncode == 2, done.stderr
    last = done.stderr.splitlines()[-1]
    assert last.startswith("error: the API key in FAITH_TEST_KEY "), last
    assert said in last
    assert "0123456789" not in done.stdout + done.stderr  # the key itself is never shown
    assert stub.requests == 0
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("key", "said"), UNSENDABLE_KEYS)
def test_judge_check_refuses_such_a_key_too(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, key: str, said: str
) -> None:
    monkeypatch.setenv("FAITH_TEST_KEY", key)
    with serving() as stub:
        done = faith_here(
            capsys, "judge-check", "--model", "gpt-4o-mini", "--base-url", stub.base_url,
            "--api-key-env", "FAITH_TEST_KEY",
        )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert said in done.stderr.splitlines()[-1]
    assert "0123456789" not in done.stdout + done.stderr
    assert stub.requests == 0


# The key itself given where its variable's name goes, as people do: the "variable is not
# set" line quoted it twice (`export 0f3c…=<key>`), into the scheduler's log. An OpenAI key
# was cut by the scrubber (`the environment variable [redacted]`); an Azure key (32 hex
# digits) or a Groq key (`gsk_…`, a valid variable name) was printed whole.
KEYS_AS_NAMES = [
    pytest.param("sk-proj-AbCdEf0123456789XyZ", id="openai"),
    pytest.param("0f3c9a7b5e1d4f2a8c6b0e9d7f5a3c1b", id="azure-hex"),
    pytest.param("gsk_0f3c9a7b5e1d4f2aXc6b0e9d7f5a3c1b", id="groq"),
    pytest.param("AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY", id="google"),
]


@pytest.mark.parametrize("key", KEYS_AS_NAMES)
def test_a_key_given_as_the_variable_name_is_never_printed(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    key: str,
) -> None:
    monkeypatch.delenv(key, raising=False)
    db = tmp_path / "faith.duckdb"
    judge = ["--judge", "openai", "--model", "gpt-4o-mini", "--api-key-env", key]
    done = faith_here(capsys, "score", SAMPLE, "--db", str(db), "--prefect", "no", *judge)
    assert done.returncode == 2
    last = done.stderr.splitlines()[-1]
    assert last.startswith("error: --api-key-env takes the name of the variable"), last
    assert "looks like a key" in last
    assert key[4:16] not in done.stdout + done.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_variable_named_alike_that_is_set_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only an unset one is refused: a variable whose name looks odd but holds the key works."""
    name = "team_key_2024_0f3c9a7b5e1d"
    monkeypatch.setenv(name, "sk-proj-0123456789abcdef")
    db = tmp_path / "faith.duckdb"
    source = write(cases([case_row("c1"), case_row("c2")]), tmp_path / "cases.parquet")
    with serving() as stub:
        done = faith_here(
            capsys, "score", str(source), "--db", str(db), "--prefect", "no", "--judge",
            "openai", "--model", "gpt-4o-mini", "--base-url", stub.base_url, "--api-key-env",
            name,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert stub.requests > 0
