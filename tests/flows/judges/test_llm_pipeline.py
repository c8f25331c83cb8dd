"""`faith score --judge openai` end to end: a real HTTP server on 127.0.0.1, real Parquet,
a real DuckDB file. The stub answers our prompts by the lexical rules, so the LLM judge
must reproduce the lexical judge's case_scores exactly."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import polars as pl
import pytest

from flows.cli import main
from flows.judges.settings import JudgeSettings
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.conftest import everything_prefect_stored
from tests.support.builders import COMPARED
from tests.support.llm_judge import shorten_backoff
from tests.support.openai_stub import StubServer

KEY = "sk-test-7c1e9d0b4a6f4e2b9d3c8a1f0e5d6c7b"
SAMPLE = Path(__file__).resolve().parents[3] / "data" / "sample" / "cases.parquet"
ROWS = 120  # of the sample: enough for packs of several sizes and shared passages


@pytest.fixture
def source(tmp_path: Path) -> Path:
    path = tmp_path / "cases.parquet"
    pl.read_parquet(SAMPLE).head(ROWS).write_parquet(path)
    return path


@pytest.fixture
def stub(monkeypatch: pytest.MonkeyPatch) -> Iterator[StubServer]:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    with StubServer(api_key=KEY, slow_seconds=3.0, retry_after=0.05) as server:
        yield server


def llm(stub: StubServer, source: Path, db: Path, **judge: object) -> ScoreSettings:
    # A 2 s deadline: under the stub's 3 s "slow" fault, with room for a loaded machine.
    options = {"model": "stub-model", "base_url": stub.base_url, "timeout": 2.0, **judge}
    return ScoreSettings(
        source=str(source), db=str(db), judge=JudgeSettings(kind="openai", **options)
    )


def lexical_settings(source: Path, db: Path) -> ScoreSettings:
    """The lexical judge's run: the stub answers by its rules, so its scores are the target."""
    return ScoreSettings(source=str(source), db=str(db), judge=JudgeSettings(kind="lexical"))


def scores(db: Path, config_id: str) -> pl.DataFrame:
    con = duckdb.connect(str(db), read_only=True)
    try:
        query = f"SELECT {', '.join(COMPARED)} FROM case_scores WHERE config_id = $c ORDER BY 1"
        return con.sql(query, params={"c": config_id}).pl()
    finally:
        con.close()


def test_llm_judge_gives_the_lexical_scores_and_a_rerun_makes_no_request(
    stub: StubServer, source: Path, tmp_path: Path
) -> None:
    db = tmp_path / "f.duckdb"
    lexical = run_score(lexical_settings(source, db))
    first = run_score(llm(stub, source, db))
    assert first["rows_newly_scored"] == ROWS
    assert scores(db, first["config_id"]).equals(scores(db, lexical["config_id"]))
    assert first["judge_calls"] == stub.requests > 0
    assert first["judge_calls"] / ROWS <= 1.5

    con = duckdb.connect(str(db), read_only=True)
    try:
        charged = con.sql(
            "SELECT sum(judge_calls), sum(prompt_tokens) FROM case_scores WHERE run_id = $r",
            params={"r": first["run_id"]},
        ).fetchall()[0]
    finally:
        con.close()
    assert charged[0] == pytest.approx(first["judge_calls"])
    assert charged[1] == first["prompt_tokens"]

    requests = stub.requests
    again = run_score(llm(stub, source, db))
    assert stub.requests == requests
    assert (again["judge_calls"], again["rows_already_scored"]) == (0, ROWS)


def test_faults_never_lose_a_case_and_the_next_run_heals(
    stub: StubServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """80 cases (a few hundred calls, a fifth of them faulty) through the run's own judge,
    its retries as many as the product's, the waits between them test-sized."""
    shorten_backoff(monkeypatch)
    source = tmp_path / "cases.parquet"
    pl.read_parquet(SAMPLE).head(80).write_parquet(source)
    db = tmp_path / "f.duckdb"
    stub.fail_randomly(0.2)
    # How many cases the faults leave invalid is chance (9 of 80 happened once): the run's
    # invalid-share alarm (10% by default) is not what this test is about.
    faulty = llm(stub, source, db, mode="per-item", concurrency=16)
    first = run_score(faulty.model_copy(update={"max_invalid_share": 1.0}))
    assert first["status"] == "completed"
    assert sum(stub.faults_served.values()) >= 10
    assert first["rows_in"] == 80 == first["rows_scored"] + first["rows_invalid"]
    stub.heal()
    second = run_score(llm(stub, source, db, mode="per-item", concurrency=16))
    assert second["rows_invalid"] == 0
    assert second["rows_newly_scored"] == first["rows_invalid"]
    lexical = run_score(lexical_settings(source, db))
    assert scores(db, second["config_id"]).equals(scores(db, lexical["config_id"]))


def test_a_call_cap_leaves_the_rest_pending_for_the_next_run(
    stub: StubServer, source: Path, tmp_path: Path
) -> None:
    db = tmp_path / "f.duckdb"
    capped = run_score(llm(stub, source, db, max_calls=10))
    assert capped["judge_calls"] <= 10
    assert capped["rows_pending"] > 0
    assert capped["rows_in"] == capped["rows_scored"] + capped["rows_pending"]
    rest = run_score(llm(stub, source, db))
    assert rest["rows_pending"] == 0
    assert rest["rows_newly_scored"] == capped["rows_pending"]


def test_a_refused_key_stops_the_run_with_what_to_fix(
    stub: StubServer, source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-wrong")
    code = main(
        ["score", str(source), "--db", str(tmp_path / "f.duckdb"), "--prefect", "no",
         "--judge", "openai", "--model", "stub-model", "--base-url", stub.base_url]
    )  # fmt: skip
    assert code == 6
    err = capsys.readouterr().err
    assert "401" in err
    assert "sk-wrong" not in err


def test_the_api_key_reaches_no_table_log_or_output(
    stub: StubServer, source: Path, tmp_path: Path, capsys, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "f.duckdb"
    stub.fail("401", times=1)
    caplog.set_level("DEBUG")
    argv = ["score", str(source), "--db", str(db), "--prefect", "no", "--judge", "openai",
            "--model", "stub-model", "--base-url", stub.base_url, "--timeout", "1"]  # fmt: skip
    codes = [main(argv), main(argv)]
    stub.fail("500", times=3)
    codes.append(main([*argv, "--penalize-ambiguous-claims"]))
    assert codes == [6, 0, 0]  # refused, then scored twice: the key was in every request
    scored = duckdb.connect(str(db), read_only=True)
    try:
        assert scored.sql("SELECT count(*) FROM case_scores").fetchall()[0][0] > 0
    finally:
        scored.close()
    out = capsys.readouterr()
    assert KEY not in out.out + out.err + caplog.text
    for path in tmp_path.iterdir():
        assert KEY.encode() not in path.read_bytes(), path
    assert stub.requests > 0


@pytest.mark.usefixtures("prefect_harness")
def test_the_api_key_reaches_no_prefect_artifact_log_or_parameter(
    stub: StubServer, source: Path, tmp_path: Path
) -> None:
    from flows.orchestration.score_flow import score_flow

    run = score_flow(llm(stub, source, tmp_path / "f.duckdb"))

    stored = everything_prefect_stored()
    assert run["run_id"] in stored
    assert "stub-model" in stored
    assert KEY not in stored
