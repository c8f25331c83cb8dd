"""Unattended runs against a misbehaving judge endpoint never hang and never crash (issue 10).

A real HTTP server on 127.0.0.1 (tests/support/openai_stub.py) hangs, trickles its reply a byte at a
time, answers 200 with HTML, an empty body or JSON of another shape, 401, 429 with
Retry-After, 500, a wrong verdict count, or verdicts numbered from 0. Every run goes through
the pipeline into a real DuckDB file, ends within a bound, accounts for every row in `runs`,
and leaves the API key in no table and no log line.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import duckdb
import polars as pl
import pytest

from faith_udfs import JudgeTransientError, LexicalJudge
from faith_udfs.errors import JudgeCrashed
from faith_udfs.packed_prompts import PACKED_CLAIMS, PACKED_TRUTHS, PACKED_VERDICTS
from faith_udfs.prompts import VERDICTS
from flows.errors import TooManyInvalid
from flows.judges.live.judge import OpenAIJudge
from flows.judges.settings import JudgeSettings
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.builders import COMPARED, case_row, cases, many_cases, write
from tests.support.llm_judge import openai_judge
from tests.support.openai_stub import StubServer, serving

KEY = "sk-faults-3b9d41e07c5a4f6e8d2c1b0a9f8e7d6c"
FAITH = Path(sys.executable).with_name("faith")
# Test-sized judge: a 1 s deadline, one retry after a short backoff.
FAST = {"timeout": 1.0, "max_retries": 1, "backoff_base": 0.01, "backoff_max": 0.05}


@pytest.fixture
def stub(monkeypatch: pytest.MonkeyPatch) -> Iterator[StubServer]:
    """The endpoint, which takes only KEY, and KEY in the judge's environment variable."""
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    with serving(api_key=KEY, retry_after=1.0, trickle_seconds=0.3) as server:
        yield server


@pytest.fixture
def source(tmp_path: Path) -> Path:
    """Eight cases (one sharing context, five answers) and one row for quarantine."""
    rows = many_cases(8).vstack(cases([case_row("no-answer", actual_output=None)]))
    return write(rows, tmp_path / "cases.parquet")


@pytest.fixture
def judges(stub: StubServer) -> Iterator[list[OpenAIJudge]]:
    made: list[OpenAIJudge] = []
    yield made
    for judge in made:
        judge.close()


def llm_judge(stub: StubServer, made: list[OpenAIJudge], **options: object) -> OpenAIJudge:
    judge = openai_judge("stub-model", base_url=stub.base_url, **{**FAST, **options})
    made.append(judge)
    return judge


def score(source: Path, db: Path, judge: object = None, **settings: object) -> dict:
    """One in-process run; returns its `runs` row and how long it took."""
    started = time.monotonic()
    settings.setdefault("max_quarantine_share", None)  # test_quarantine_share.py's subject
    run = run_score(ScoreSettings(source=str(source), db=str(db), **settings), judge=judge)
    return {**run, "seconds": time.monotonic() - started}


def query(db: Path, sql: str, **params: object) -> pl.DataFrame:
    """A read-only query of the run's database file."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.sql(sql, params=params or None).pl()
    finally:
        con.close()


def runs_accounted(db: Path) -> pl.DataFrame:
    """Every run's row of `runs`; each must account for every row it read."""
    runs = query(
        db,
        "SELECT status, rows_in, rows_scored, rows_invalid, rows_pending, rows_quarantined "
        "FROM runs",
    )
    parts = ["rows_scored", "rows_invalid", "rows_pending", "rows_quarantined"]
    assert runs.height > 0
    assert (runs["rows_in"] == runs.select(pl.sum_horizontal(parts)).to_series()).all(), runs
    return runs


def assert_no_key(db: Path, *texts: str) -> None:
    """The key is in no row of any table (every column as text), no log text, no file byte."""
    tables = query(
        db, "SELECT table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE'"
    )["table_name"].to_list()
    assert {"runs", "case_scores", "claim_verdicts", "judge_cache"} <= set(tables)
    for table in tables:
        found = query(
            db,
            f'SELECT count(*) AS n FROM "{table}" AS t WHERE CAST(t AS VARCHAR) LIKE $pattern',
            pattern=f"%{KEY}%",
        )
        assert found["n"][0] == 0, table
    for text in texts:
        assert KEY not in text
    for path in db.parent.iterdir():
        if path.is_file():
            assert KEY.encode() not in path.read_bytes(), path


# --- faults that persist: every call fails at its deadline or at once, cases end invalid -----

PERSISTENT = {
    "hang": "the endpoint did not answer within 0.4 s; gave up after 2 attempts",
    "trickle": "the endpoint did not answer within 0.4 s; gave up after 2 attempts",
    "html": "not a chat completion (HTTP 200, text/html): '<html><body><h1>502 Bad Gateway",
    "empty": "not a chat completion (HTTP 200, application/json): an empty body",
    "wrong_shape": 'not a chat completion (HTTP 200, application/json): \'{"object": "error"',
    "500": "HTTP 500 from the endpoint: stub fault 500; gave up after 2 attempts",
    "429": "HTTP 429 from the endpoint: Rate limit reached; gave up after 2 attempts",
    "fewer_verdicts": "JudgeReplyError: verdicts do not match the claims one to one",
}


@pytest.mark.timeout(300)  # a hang guard for a machine at load 20, not a promise
@pytest.mark.parametrize("fault", PERSISTENT)
def test_a_persistent_fault_ends_the_cases_invalid_within_the_deadlines(
    stub: StubServer, source: Path, tmp_path: Path, judges, fault, caplog, capsys
) -> None:
    caplog.set_level("DEBUG")
    stub.fail(fault, times=None)
    db = tmp_path / "f.duckdb"
    # A packed reply loses one item's verdict; one-item replies lose every item's.
    mode = "per-item" if fault == "fewer_verdicts" else "packed"
    started = time.monotonic()
    # Everything is kept, and the run says that it judged nothing well (exit 8 in the CLI).
    # The circuit breaker is off (tests/flows/judges/test_endpoint_breaker.py has it): every
    # call runs its course to its own deadline.
    # Every call fails here, so no healthy call needs FAST's 1 s: a hang or a trickle costs
    # 0.4 s an attempt, a 429 the 0.2 s its Retry-After asks.
    stub.retry_after = 0.2
    stub.trickle_seconds = 2.0  # a byte every 2 s: a reply read to its end takes 400+ s
    deadline = {"timeout": 0.4} if fault in ("hang", "trickle") else {}
    judge = llm_judge(stub, judges, mode=mode, breaker_failures=10_000, **deadline)
    with pytest.raises(TooManyInvalid, match="8 of 8 judged cases"):
        score(source, db, judge)
    # Truths and claims are asked whatever became of the other; two attempts each, a
    # sub-second deadline or Retry-After: a few seconds, never a hang. The attempts are
    # counted in the errors ("gave up after 2 attempts"); the bound is the one a hang would
    # break: well under the 400 s a trickled reply takes to its end (and a hang: forever), not
    # the few seconds a quiet machine takes.
    assert time.monotonic() - started < 200
    counts = runs_accounted(db).select("rows_in", "rows_scored", "rows_invalid", "rows_quarantined")
    assert counts.rows() == [(9, 0, 8, 1)]
    errors = query(db, "SELECT status, error FROM case_scores")
    assert set(errors["status"]) == {"invalid"}
    assert all(PERSISTENT[fault] in error for error in errors["error"]), errors["error"][0]
    runs_accounted(db)
    out = capsys.readouterr()
    assert_no_key(db, caplog.text, out.out, out.err)


@pytest.mark.timeout(300)  # a hang guard, not a promise
def test_a_trickle_is_cut_at_the_deadline_though_bytes_keep_coming(
    stub: StubServer, judges
) -> None:
    stub.trickle_seconds = 1.0  # a byte a second: a per-read timeout never fires
    stub.fail("trickle", times=None)
    judge = llm_judge(stub, judges, timeout=0.5, max_retries=0, mode="per-item")
    started = time.monotonic()
    with pytest.raises(JudgeTransientError, match=r"did not answer within 0\.5 s"):
        judge.answer_claims("Order A17 shipped.")
    # A chat completion's body is over 200 bytes: read to its end, 200 s at a byte a second.
    assert 0.45 < time.monotonic() - started < 100


# --- faults that pass: retried with backoff, everything scored -------------------------------


@pytest.mark.slow
@pytest.mark.timeout(300)  # a hang guard for a machine at load 20
def test_the_cli_rides_out_faults_that_pass(stub: StubServer, source: Path, tmp_path: Path):
    # Two faults a question at most, fewer than the CLI's retries.
    for fault, schema in [("trickle", PACKED_TRUTHS), ("html", PACKED_TRUTHS),
                          ("429", PACKED_CLAIMS), ("empty", PACKED_CLAIMS),
                          ("500", PACKED_VERDICTS)]:  # fmt: skip
        stub.fail(fault, schema=schema)
    db = tmp_path / "f.duckdb"
    # a hang meets the test's 60 s timeout; the source's one bad row of 9 is past the 0.1 alarm
    done = faith(stub, source, db, "--timeout", "1", "--max-quarantine-share", "0.2")
    assert done.returncode == 0, done.stderr
    assert sum(stub.faults_served.values()) == 5
    runs = runs_accounted(db)
    assert runs.rows() == [("completed", 9, 8, 0, 0, 1)]
    assert_no_key(db, done.stdout, done.stderr)


@pytest.mark.slow
@pytest.mark.timeout(300)  # a hang guard for a machine at load 20
def test_the_cli_stops_on_a_refused_key_with_one_line(
    stub: StubServer, source: Path, tmp_path: Path
) -> None:
    stub.fail("401", times=None)
    db = tmp_path / "f.duckdb"
    done = faith(stub, source, db, "--timeout", "1")
    assert done.returncode == 6
    assert "HTTP 401" in done.stderr
    assert stub.requests == 1  # not hammered: the first refusal stops every call
    runs_accounted(db)
    assert_no_key(db, done.stdout, done.stderr)


def faith(stub: StubServer, source: Path, db: Path, *options: str) -> subprocess.CompletedProcess:
    """`faith score` in its own process against the stub, with a hard timeout."""
    argv = [str(FAITH), "score", str(source), "--db", str(db), "--prefect", "no",
            "--judge", "openai", "--model", "stub-model", "--base-url", stub.base_url,
            *options]  # fmt: skip
    env = {**os.environ, "OPENAI_API_KEY": KEY}
    return subprocess.run(argv, capture_output=True, text=True, timeout=240, env=env, check=False)


# --- lenient where it costs nothing ----------------------------------------------------------


@pytest.mark.timeout(300)  # a hang guard
@pytest.mark.parametrize("mode", ["per-item", "packed"])
def test_verdicts_numbered_from_zero_give_the_lexical_scores(
    stub: StubServer, source: Path, tmp_path: Path, judges, mode
) -> None:
    stub.fail("zero_based", times=None)
    db = tmp_path / "f.duckdb"
    run = score(source, db, llm_judge(stub, judges, mode=mode))
    assert stub.faults_served["zero_based"] > 0
    lexical = score(source, db, LexicalJudge())
    assert (run["rows_scored"], run["rows_invalid"]) == (8, 0)
    compared = f"SELECT {', '.join(COMPARED)} FROM case_scores WHERE run_id = $r ORDER BY 1"
    by_llm = query(db, compared, r=run["run_id"])
    assert by_llm.equals(query(db, compared, r=lexical["run_id"]))
    runs_accounted(db)


@pytest.mark.timeout(300)  # a hang guard
def test_a_verdict_asked_alone_after_its_pack_is_never_asked_again(
    stub: StubServer, source: Path, tmp_path: Path
) -> None:
    # As `faith score --judge-mode packed` builds its judge, with the database's judge_cache.
    judge = JudgeSettings(kind="openai", model="stub-model", base_url=stub.base_url, mode="packed")

    def score_into(db: Path, threshold: float) -> dict:
        settings = ScoreSettings(
            source=str(source), db=str(db), judge=judge, threshold=threshold,
            max_quarantine_share=None,  # the source's one bad row is another test's
        )  # fmt: skip
        return run_score(settings)

    # The packed verdicts call loses one item's verdict; that item is asked alone (the
    # one-item template, whose verdicts name no claim) and its answer cached for its item.
    stub.fail("fewer_verdicts", schema=PACKED_VERDICTS)
    db = tmp_path / "f.duckdb"
    first = score_into(db, 0.5)
    assert stub.faults_served["fewer_verdicts"] == 1
    assert stub.by_schema[VERDICTS] == 1
    assert first["judge_calls"] == stub.requests
    # A new config needs no new answer: every question was answered, alone or packed.
    stub.reset_counts()
    second = score_into(db, 0.6)
    assert stub.requests == 0, dict(stub.by_schema)
    assert (second["judge_calls"], second["prompt_tokens"], second["rows_scored"]) == (0, 0, 8)
    assert second["judge_cached"] > 0
    # What it stored is what a run that met no fault stores.
    clean = tmp_path / "clean.duckdb"
    fault_free = score_into(clean, 0.6)
    assert stub.requests > 0
    assert stub.faults_served["fewer_verdicts"] == 0
    compared = f"SELECT {', '.join(COMPARED)} FROM case_scores WHERE run_id = $r ORDER BY 1"
    assert query(db, compared, r=second["run_id"]).equals(
        query(clean, compared, r=fault_free["run_id"])
    )
    verdicts = (
        "SELECT case_id, claim_index, claim, verdict, reason FROM claim_verdicts "
        "WHERE config_id = (SELECT config_id FROM runs WHERE run_id = $r) ORDER BY 1, 2"
    )
    assert query(db, verdicts, r=second["run_id"]).equals(
        query(clean, verdicts, r=fault_free["run_id"])
    )
    runs_accounted(db)


# --- stopping and judge bugs -----------------------------------------------------------------


@pytest.mark.timeout(300)  # a hang guard, not a promise
def test_stop_ends_calls_in_flight_and_waits_for_a_slot(stub: StubServer, judges) -> None:
    stub.fail("hang", times=None)
    judge = llm_judge(stub, judges, timeout=240, concurrency=1, mode="per-item")
    failures: list[BaseException] = []

    def ask() -> None:
        try:
            judge.answer_claims("Order A17 shipped.")
        except JudgeTransientError as exc:
            failures.append(exc)

    askers = [threading.Thread(target=ask) for _ in range(3)]  # one calls, two wait for a slot
    for asker in askers:
        asker.start()
    while stub.requests == 0:
        time.sleep(0.01)
    time.sleep(0.2)
    started = time.monotonic()
    judge.stop()
    for asker in askers:
        asker.join(timeout=15)
    # Without the stop the call in flight would wait its 240 s deadline, the others behind it.
    assert time.monotonic() - started < 120
    assert len(failures) == 3
    assert stub.requests == 1
    assert any("stopped" in str(exc) for exc in failures)


class BuggyJudge(LexicalJudge):
    """A custom judge with a bug that shows on the third batch."""

    def __init__(self) -> None:
        super().__init__()
        self.claims_calls = 0

    def claims(self, answers: pl.DataFrame) -> pl.DataFrame:
        self.claims_calls += 1
        if self.claims_calls == 3:
            return {"claims": []}["answer"]  # a KeyError, as a bug would raise it
        return super().claims(answers)


@pytest.mark.timeout(300)  # a hang guard
def test_a_judge_bug_stops_the_run_after_the_batches_before(source: Path, tmp_path: Path) -> None:
    db = tmp_path / "f.duckdb"
    judge = BuggyJudge()
    with pytest.raises(JudgeCrashed, match=r"judge lexical/\S+ crashed .*KeyError: 'answer'") as e:
        run_score(ScoreSettings(source=str(source), db=str(db), batch_size=3), judge=judge)
    assert isinstance(e.value.__cause__, KeyError)
    assert e.value.exit_code == 1
    assert "\n" not in str(e.value)
    assert judge.claims_calls == 3  # the bug was not bisected into more calls
    runs = runs_accounted(db)
    assert runs["status"].to_list() == ["failed"]
    assert runs["rows_in"].to_list() == [6]  # two batches of three committed, then the stop
    assert query(db, "SELECT count(*) AS n FROM case_scores")["n"][0] == 6
