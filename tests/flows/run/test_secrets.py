"""No secret in Prefect, tables or logs (issue 10): the API key and the password of a
`--base-url` like http://user:password@host/v1 never reach flow parameters, artifacts, logs or
tables; the stored endpoint is host:port."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import duckdb
import polars as pl
import pytest

from faith_udfs import DeepEvalModelJudge, PromptJudge
from faith_udfs.errors import JudgeCrashed
from flows.judges.settings import JudgeSettings
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.conftest import everything_prefect_stored
from tests.support.openai_stub import StubServer

SAMPLE = Path(__file__).resolve().parents[3] / "data" / "sample" / "cases.parquet"
KEY = "sk-test-key-4f9d2c1b"
PASSWORD = "pa55-w0rd-7e1a"


@pytest.fixture
def stub(monkeypatch: pytest.MonkeyPatch) -> Iterator[StubServer]:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    # No key check: with credentials in the URL, httpx sends them as Basic auth instead.
    with StubServer() as server:
        yield server


def with_password(stub: StubServer) -> str:
    return stub.base_url.replace("http://", f"http://faith:{PASSWORD}@")


def test_the_url_password_is_kept_apart_and_masked() -> None:
    judge = JudgeSettings(kind="openai", base_url=f"https://faith:{PASSWORD}@llm.example:8443/v1")
    assert judge.base_url == "https://llm.example:8443/v1"
    assert judge.endpoint_url() == f"https://faith:{PASSWORD}@llm.example:8443/v1"
    shown = [repr(judge), str(judge), judge.model_dump_json(), str(judge.model_dump(mode="json"))]
    assert all(PASSWORD not in text for text in shown)
    again = ScoreSettings.model_validate(ScoreSettings(source="x", judge=judge))
    assert again.judge.endpoint_url() == judge.endpoint_url()


@pytest.mark.parametrize(
    "password", ["1234/5678", "pa?ss#w", "p@ss", "p%2Fq", "pa:ss", "x::y"], ids=repr
)
def test_a_password_of_any_characters_is_split_off(password: str) -> None:
    url = f"http://faith:{password}@[::1]:8443/v1"
    judge = JudgeSettings(kind="openai", base_url=url)
    assert judge.base_url == "http://[::1]:8443/v1"
    assert judge.endpoint_url() == url
    assert password not in judge.model_dump_json()


def every_text_in(db: Path) -> str:
    """Every value of every table of the DuckDB file, as text."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        tables = [
            row[0] for row in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()
        ]
        return "\n".join(
            str(con.execute(f'SELECT * FROM "{table}"').fetchall()) for table in tables
        )
    finally:
        con.close()


@pytest.mark.usefixtures("prefect_harness")
def test_no_key_or_url_password_in_prefect_tables_or_logs(
    stub: StubServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from flows.orchestration.score_flow import score_flow

    source = tmp_path / "cases.parquet"
    pl.read_parquet(SAMPLE).head(60).write_parquet(source)
    db = tmp_path / "f.duckdb"
    judge = JudgeSettings(kind="openai", model="stub-model", base_url=with_password(stub))
    with caplog.at_level(logging.DEBUG):
        run = score_flow(ScoreSettings(source=str(source), db=str(db), judge=judge))
    assert run["rows_newly_scored"] == 60
    assert stub.requests > 0  # the credentials reached the endpoint, and only there

    stored = everything_prefect_stored()
    tables = every_text_in(db)
    assert run["run_id"] in stored
    for text in (stored, tables, caplog.text):
        assert KEY not in text
        assert PASSWORD not in text


# An Azure key's shape (32 hex digits): no pattern knows it, only the variable it was read from.
CUSTOM_KEY = "9f3b6c0d2e4a71858a0b1c2d3e4f5a6b"


class LeakyModel:
    """A DeepEval-shaped custom model whose provider SDK quotes the key it was given, as
    openai's AuthenticationError does (`Incorrect API key provided: …`)."""

    def generate(self, prompt: str) -> str:
        raise RuntimeError(
            f"Error code: 401 - Incorrect API key provided: {CUSTOM_KEY}; "
            "sent Authorization: Bearer sk-proj-leaked0key0of0another0account"
        )

    def get_model_name(self) -> str:
        return "leaky-llm"


def test_a_custom_models_error_keeps_no_key_in_the_case_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A custom model's exception text was stored verbatim in case_scores.error: its key,
    read from the key variable (--api-key-env, OPENAI_API_KEY), and any Bearer token it
    quoted. The run's text is scrubbed as every server's is: the error is kept, the keys
    cut out."""
    monkeypatch.setenv("OPENAI_API_KEY", CUSTOM_KEY)
    db = tmp_path / "f.duckdb"
    settings = ScoreSettings(source=str(SAMPLE), db=str(db), max_invalid_share=1.0)
    run_score(settings, judge=DeepEvalModelJudge(LeakyModel()))
    errors = every_text_in(db)
    assert "Incorrect API key provided: [redacted]" in errors  # the error itself is kept
    assert CUSTOM_KEY not in errors
    assert "sk-proj-leaked0key" not in errors


def test_a_custom_judges_crash_keeps_no_key_in_the_run_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A judge that raises something other than a judge error stops the run (exit 1); its
    one line, stored in runs.error, quoted the key as the exception did."""

    def answer(prompt: str, schema: str) -> dict:
        raise KeyError(f"no account for key {CUSTOM_KEY}")

    monkeypatch.setenv("OPENAI_API_KEY", CUSTOM_KEY)
    db = tmp_path / "f.duckdb"
    with pytest.raises(JudgeCrashed, match="crashed"):
        run_score(ScoreSettings(source=str(SAMPLE), db=str(db)), judge=PromptJudge(answer))
    stored = every_text_in(db)
    assert "no account for key [redacted]" in stored
    assert CUSTOM_KEY not in stored


class PlainSpokenModel:
    """A custom model for a local server that takes any key (OPENAI_API_KEY=test), whose
    replies never parse: the error quotes what it wrote."""

    def generate(self, prompt: str) -> str:
        raise ValueError("the reply 'a test of the test suite' is no JSON")

    def get_model_name(self) -> str:
        return "plain-llm"


def test_a_placeholder_key_is_not_cut_from_the_words_a_model_wrote_in_a_case_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A placeholder key (`test`, `EMPTY`, as local servers take) is no secret in a model's own
    words: the case errors keep them, as the replies' text does (flows/scrub.py)."""
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    db = tmp_path / "f.duckdb"
    settings = ScoreSettings(source=str(SAMPLE), db=str(db), max_invalid_share=1.0)
    run_score(settings, judge=DeepEvalModelJudge(PlainSpokenModel()))
    assert "the reply 'a test of the test suite' is no JSON" in every_text_in(db)


def test_a_placeholder_key_is_not_cut_from_the_words_of_a_crash_in_the_run_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """runs.error is scrubbed as the cases' errors are: a real key cut, a placeholder (`test`)
    kept where it is a word of what the judge said."""

    def answer(prompt: str, schema: str) -> dict:
        raise KeyError("the test suite holds no answer")

    monkeypatch.setenv("OPENAI_API_KEY", "test")
    db = tmp_path / "f.duckdb"
    with pytest.raises(JudgeCrashed, match="crashed"):
        run_score(ScoreSettings(source=str(SAMPLE), db=str(db)), judge=PromptJudge(answer))
    assert "the test suite holds no answer" in every_text_in(db)
