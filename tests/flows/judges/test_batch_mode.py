"""`--judge-mode batch` end to end (issue 15, item 4): a real Batch API server on 127.0.0.1
(tests/support/openai_batch_stub.py), real Parquet, a real DuckDB file shared by runs in this
process and in a subprocess. The stub answers with the lexical rules, so once every round is
collected the batch judge must give the lexical judge's scores."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest

from faith_udfs.errors import ConfigError
from flows.cli import main
from flows.errors import JudgeEndpointError
from flows.judges.batch import collecting
from flows.judges.factory import build_judge
from flows.judges.settings import JudgeSettings
from flows.nightly.nightly_run import run_nightly
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from flows.store.db import open_store, statements
from schemas import OUTPUT_MODELS
from tests.support.builders import COMPARED
from tests.support.openai_batch_stub import BATCH_KEY, BatchStub
from tests.support.openai_stub import serving

KEY = BATCH_KEY  # the conftest stub's
SAMPLE = Path(__file__).resolve().parents[3] / "data" / "sample" / "cases.parquet"
CASES = 24
# Seconds a run in a process waits for its batches: the stop must end the wait well before.
# Long, so that what the bound proves (the stop ended the wait) holds on a machine so loaded
# that a process takes a minute to start or to stop; the stop takes seconds when quiet.
BATCH_WAIT = 400
# A guard against a hang, not a promise: at load 20 a `faith` process took over 60 s to start
# and submit its first batch (pytest's own timeout, 600 s, is the last guard).
HANG_GUARD = 240


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The cases every test scores: written once, only read."""
    path = tmp_path_factory.mktemp("source") / "cases.parquet"
    pl.read_parquet(SAMPLE).head(CASES).write_parquet(path)
    return path


@pytest.fixture(scope="module")
def lexical(source: Path, tmp_path_factory: pytest.TempPathFactory) -> pl.DataFrame:
    """The lexical judge's scores of `source`, what every settled batch run must match: one
    run for the module, as every test only compares with them."""
    return lexical_scores(source, tmp_path_factory.mktemp("lexical") / "l.duckdb")


def settings(stub: BatchStub, source: Path, db: Path, **judge: Any) -> ScoreSettings:
    options = {"model": "stub-model", "base_url": stub.base_url, "timeout": 5.0, **judge}
    return ScoreSettings(
        source=str(source),
        db=str(db),
        judge=JudgeSettings(kind="openai", **options),
        max_invalid_share=1.0,  # rounds with reply errors must still return their row
    )


def batch(stub: BatchStub, source: Path, db: Path, **judge: Any) -> ScoreSettings:
    return settings(stub, source, db, mode="batch", **judge)


def score(run_settings: ScoreSettings) -> dict[str, Any]:
    """One run; every row it read is accounted for, and so is every token it was charged."""
    run = run_score(run_settings)
    assert (
        run["rows_in"]
        == CASES
        == (
            run["rows_scored"] + run["rows_invalid"] + run["rows_pending"] + run["rows_quarantined"]
        )
    )
    per_case = query(
        Path(run_settings.db),
        "SELECT coalesce(sum(prompt_tokens), 0), coalesce(sum(completion_tokens), 0) "
        "FROM case_scores WHERE run_id = $r",
        r=run["run_id"],
    )
    assert per_case == [(run["prompt_tokens"], run["completion_tokens"])]
    return run


def score_in_a_process(stub: BatchStub, source: Path, db: Path, *options: str) -> subprocess.Popen:
    """`faith score` in batch mode in a process of its own."""
    return subprocess.Popen(
        [sys.executable, "-m", "flows.cli", "score", str(source), "--db", str(db),
         "--prefect", "no", "--judge", "openai", "--judge-mode", "batch",
         "--model", "stub-model", "--base-url", stub.base_url, *options],
        cwd=Path(__file__).resolve().parents[3],
        env={**os.environ, "OPENAI_API_KEY": KEY},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip


def until_settled(run_settings: ScoreSettings, most: int = 6) -> list[dict[str, Any]]:
    """Runs until one leaves nothing pending or invalid (at most `most`)."""
    runs = [score(run_settings)]
    while runs[-1]["rows_pending"] or runs[-1]["rows_invalid"]:
        assert len(runs) < most, [(r["rows_pending"], r["rows_invalid"]) for r in runs]
        runs.append(score(run_settings))
    return runs


def query(db: Path, sql: str, **params: Any) -> list[tuple]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql, params).fetchall()
    finally:
        con.close()


def scores(db: Path, config_id: str) -> pl.DataFrame:
    """The columns two judges must agree on, by case."""
    sql = f"SELECT {', '.join(COMPARED)} FROM case_scores WHERE config_id = $c ORDER BY 1"
    return pl.DataFrame(query(db, sql, c=config_id), schema=COMPARED, orient="row")


def lexical_scores(source: Path, db: Path) -> pl.DataFrame:
    run = run_score(
        ScoreSettings(source=str(source), db=str(db), judge=JudgeSettings(kind="lexical"))
    )
    return scores(db, run["config_id"])


def asked_again_after_answered(db: Path) -> int:
    """Items put into a batch after their answer was already in judge_cache: paid twice."""
    return query(
        db,
        "SELECT count(*) FROM judge_batch_items i JOIN judge_batches b USING (batch_id) "
        "JOIN judge_cache c ON c.cache_key = i.cache_key AND c.created_at < b.submitted_at",
    )[0][0]


def test_rounds_give_the_lexical_scores_and_a_rerun_pays_nothing(
    stub: BatchStub,
    source: Path,
    lexical: pl.DataFrame,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    db = tmp_path / "f.duckdb"
    runs = until_settled(batch(stub, source, db, model="gpt-4o-mini"))
    # Round 1 asks truths and claims, round 2 verdicts, round 3 finds every answer.
    assert [r["rows_pending"] for r in runs] == [CASES, CASES, 0]
    assert [r["judge_calls"] for r in runs] == [0, 0, 0]
    assert stub.requests["chat"] == 0
    assert stub.lines_billed == stub.lines_submitted > 0
    # The runs that collected the answers are charged what the server billed, at the batch
    # price (half the table's 0.15 / 0.60 USD per million).
    billed = (stub.prompt_tokens, stub.completion_tokens)
    assert tuple(sum(r[k] for r in runs) for k in ("prompt_tokens", "completion_tokens")) == billed
    assert [r["prompt_tokens"] > 0 for r in runs] == [False, True, True]
    assert sum(r["cost_usd"] for r in runs) == pytest.approx(
        (billed[0] * 0.075 + billed[1] * 0.30) / 1e6
    )
    assert main(["batches", "--db", str(db)]) == 0
    listed = capsys.readouterr().out
    assert "cost_usd" in listed
    for prompt, completion in query(
        db, "SELECT prompt_tokens, completion_tokens FROM judge_batches"
    ):
        assert str(round((prompt * 0.075 + completion * 0.30) / 1e6, 6)) in listed
    assert scores(db, runs[-1]["config_id"]).equals(lexical)
    states = query(db, "SELECT state, collected_at IS NOT NULL, items_failed FROM judge_batches")
    assert sorted(states) == [("completed", True, 0)] * 3
    con = duckdb.connect(str(db), read_only=True)
    try:
        for table in ("judge_batches", "judge_batch_items"):
            OUTPUT_MODELS[table].validate(con.sql(f"SELECT * FROM {table}").pl(), lazy=True)
    finally:
        con.close()
    assert asked_again_after_answered(db) == 0

    billed, requests = stub.lines_billed, sum(stub.requests.values())
    again = score(batch(stub, source, db, model="gpt-4o-mini"))
    assert again["rows_already_scored"] == CASES
    assert (stub.lines_billed, sum(stub.requests.values())) == (billed, requests)


def test_request_lines_carry_the_live_path_bodies(
    stub: BatchStub, source: Path, tmp_path: Path
) -> None:
    live = score(settings(stub, source, tmp_path / "live.duckdb"))
    assert live["rows_newly_scored"] == CASES
    live_bodies = sorted(json.dumps(body, sort_keys=True) for body in stub.bodies)
    stub.bodies.clear()
    runs = until_settled(batch(stub, source, tmp_path / "batch.duckdb"))
    assert runs[-1]["config_id"] == live["config_id"]  # one metric config, one cache
    batch_bodies = sorted(json.dumps(body, sort_keys=True) for body in stub.bodies)
    assert batch_bodies == live_bodies
    assert all("response_format" in json.loads(body) for body in batch_bodies)


@pytest.mark.slow
@pytest.mark.usefixtures("sigint_heard")
def test_submitted_by_one_process_collected_by_another(
    stub: BatchStub, source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "f.duckdb"
    stub.then("hold", "hold")
    # Process 1 submits the truths and waits for them (--batch-wait), until a Ctrl-C.
    process = score_in_a_process(stub, source, db, "--batch-wait", str(BATCH_WAIT))
    try:
        deadline = time.monotonic() + HANG_GUARD
        while not stub.requests["batch_status"]:  # polled: submitted and recorded
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "no batch submitted: a hang"
            time.sleep(0.05)
        stopped = time.monotonic()
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=BATCH_WAIT / 2)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 130, err
    assert time.monotonic() - stopped < BATCH_WAIT / 2  # the wait ends with the stop, not its own
    assert stub.requests["batch_create"] == 1  # nothing is asked after it
    assert query(db, "SELECT count(*) FROM judge_batches") == [(1,)]

    # Process 2 (this one): the truths are still running, so their cases stay pending and
    # nothing is asked twice; the claims are asked.
    waiting = score(batch(stub, source, db))
    assert (waiting["rows_pending"], stub.requests["upload"]) == (CASES, 2)
    errors = query(db, "SELECT DISTINCT error FROM case_scores")
    assert all(error.startswith("BatchPending: ") for (error,) in errors)
    assert any("waiting for batch batch-stub0002" in error for (error,) in errors)

    assert main(["batches", "--db", str(db)]) == 0
    listed = capsys.readouterr().out
    assert listed.count("in_progress") == 1
    assert listed.count("validating") == 1
    assert "stub-model" in listed
    stub.release()
    argv = ["batches", "--db", str(db), "--refresh", "--base-url", stub.base_url]
    assert main(argv) == 0
    refreshed = capsys.readouterr().out
    assert "refreshed the state of 2 of 2 unfinished batches" in refreshed
    assert refreshed.count("completed") == 2
    assert query(db, "SELECT count(*) FROM judge_batches WHERE collected_at IS NULL") == [(2,)]

    # The nightly run collects the first round and submits the next stage; its judge check
    # asks the golden set live (a batch of it was incomplete until the next night, then read
    # from judge_cache, where no change of the model shows), under the batch judge's config.
    chats = stub.requests["chat"]
    nightly = run_nightly(batch(stub, source, db))
    assert nightly["rows_pending"] == CASES
    assert nightly["judge_check"]["passed"] is not None
    assert nightly["judge_check"]["config_id"] == nightly["config_id"]
    assert stub.requests["chat"] > chats
    assert query(db, "SELECT count(*) FROM judge_batches WHERE collected_at IS NULL")[0][0] >= 1
    assert until_settled(batch(stub, source, db))[-1]["rows_pending"] == 0
    assert KEY not in capsys.readouterr().out + out + err
    assert KEY.encode() not in db.read_bytes()


def test_failed_and_expired_batches_lose_nothing_and_are_asked_again(
    stub: BatchStub, source: Path, lexical: pl.DataFrame, tmp_path: Path
) -> None:
    db = tmp_path / "f.duckdb"
    # Round 1: truths complete, claims expire half done; round 2: the claims asked again fail.
    stub.then("complete", "expire", "fail")
    runs = until_settled(batch(stub, source, db))
    assert all(r["rows_invalid"] == 0 for r in runs)  # never an error: waiting is pending
    first = query(
        db,
        "SELECT state, items, items_answered, items_failed, error FROM judge_batches "
        "ORDER BY submitted_at, batch_id LIMIT 3",
    )
    assert first[0][:4] == ("completed", first[0][1], first[0][1], 0)
    expired, items, answered, unusable, _ = first[1]
    assert (expired, unusable) == ("expired", 0)  # what the window cut off is asked again
    assert 0 < answered < items
    failed, _, failed_answered, _, why = first[2]
    assert (failed, failed_answered, why) == ("failed", 0, "stub: this batch failed validation")
    assert asked_again_after_answered(db) == 0  # an expired batch keeps what it answered
    assert scores(db, runs[-1]["config_id"]).equals(lexical)


def test_unusable_and_failed_answers_make_cases_invalid_once_then_are_asked_again(
    stub: BatchStub, source: Path, lexical: pl.DataFrame, tmp_path: Path
) -> None:
    db = tmp_path / "f.duckdb"
    stub.then("partial", "garbled")
    runs = until_settled(batch(stub, source, db))
    collected = runs[1]
    assert collected["rows_invalid"] > 0
    errors = {
        error
        for (error,) in query(db, "SELECT error FROM judge_batch_items WHERE error IS NOT NULL")
    }
    assert any("HTTP 400" in error for error in errors)
    assert not any("HTTP 500" in error for error in errors)  # a 5xx is asked again, no error
    assert any("HTTP" not in error for error in errors)  # the garbled reply: a reply error
    # Neither kind of failure reached the cache; both were asked again and answered.
    failed_keys = query(
        db,
        "SELECT count(*) FROM judge_batch_items i WHERE error IS NOT NULL AND NOT EXISTS "
        "(SELECT 1 FROM judge_batch_items j WHERE j.cache_key = i.cache_key AND j.error IS NULL "
        "AND j.batch_id <> i.batch_id)",
    )
    assert failed_keys == [(0,)]
    assert scores(db, runs[-1]["config_id"]).equals(lexical)


def test_caps_limit_the_request_lines_of_a_run(
    stub: BatchStub, source: Path, tmp_path: Path
) -> None:
    db = tmp_path / "f.duckdb"
    capped = score(batch(stub, source, db, max_calls=1))
    assert stub.lines_submitted == 1
    assert capped["rows_pending"] == CASES
    errors = {error for (error,) in query(db, "SELECT DISTINCT error FROM case_scores")}
    assert any("cap of 1 batch requests" in error for error in errors)
    # a line that would pass --max-tokens is not submitted: the first went past a cap of 1
    stub.lines_submitted = 0
    tight = score(batch(stub, source, tmp_path / "tokens.duckdb", max_tokens=1))
    assert stub.lines_submitted == 0
    assert tight["rows_pending"] == CASES


def test_a_refused_key_stops_the_run_and_leaves_the_cases_for_the_next(
    stub: BatchStub, source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "f.duckdb"
    monkeypatch.setenv("OPENAI_API_KEY", "sk-wrong-key")
    with pytest.raises(JudgeEndpointError, match="refused the key"):
        run_score(batch(stub, source, db))
    assert query(db, "SELECT count(*) FROM judge_batches") == [(0,)]
    assert b"sk-wrong-key" not in db.read_bytes()
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    assert score(batch(stub, source, db))["rows_pending"] == CASES


def test_a_server_without_a_batch_api_stops_the_run_with_exit_6(
    source: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """llama.cpp's and Ollama's servers answer chat completions only: POST /files is a 404.
    That 404 left every case pending and the run ended 0, night after night, judging nothing;
    it is a refusal of every call, as a wrong --base-url's 404 is (exit 6)."""
    db = tmp_path / "f.duckdb"
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    with serving() as chat_only:
        argv = ["score", str(source), "--db", str(db), "--prefect", "no", "--judge", "openai"]
        argv += ["--judge-mode", "batch", "--model", "m", "--base-url", chat_only.base_url]
        code = main(argv)
        assert chat_only.requests == 0  # no chat completion asked instead
    assert code == 6
    line = capsys.readouterr().err.strip().splitlines()[-1]
    assert line.startswith("error: the endpoint at 127.0.0.1:"), line
    assert "has no Batch API" in line
    assert "--judge-mode packed" in line
    # As for any refusal of every call: the cases are invalid, naming it; a run in another
    # mode asks them.
    (status,) = query(db, "SELECT status, count(*), min(error) FROM case_scores GROUP BY 1")
    assert status[:2] == ("invalid", CASES)
    assert "has no Batch API" in status[2]


def test_a_server_with_files_but_no_batches_endpoint_stops_the_run_with_exit_6(
    stub: BatchStub,
    source: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A server with OpenAI's files API but not its batches (LocalAI's, say): the upload
    passes, POST /batches and the batch listing are 404. That 404 was 'no clear answer': the
    batch looked for, never found, every case pending and exit 0, night after night."""
    gone = (404, {"error": {"message": "no route"}})
    monkeypatch.setattr(stub, "create", lambda *_, **__: gone)
    monkeypatch.setattr(stub, "listing", lambda *_: gone)
    db = tmp_path / "f.duckdb"
    argv = ["score", str(source), "--db", str(db), "--prefect", "no", "--judge", "openai"]
    argv += ["--judge-mode", "batch", "--model", "m", "--base-url", stub.base_url]
    assert main(argv) == 6
    line = capsys.readouterr().err.strip().splitlines()[-1]
    assert "has no Batch API" in line, line
    assert "for POST /batches" in line, line
    assert "--judge-mode packed" in line
    (status,) = query(db, "SELECT status, count(*) FROM case_scores GROUP BY 1")
    assert status == ("invalid", CASES)
    assert query(db, "SELECT count(*) FROM judge_batches WHERE state = 'submitting'") == [(0,)]


def test_a_lost_batch_and_one_past_its_window_are_asked_again(
    stub: BatchStub, source: Path, tmp_path: Path
) -> None:
    db = tmp_path / "f.duckdb"
    stub.then("hold", "hold")
    score(batch(stub, source, db))
    lost, late = sorted(stub.batches)
    with stub.lock:
        del stub.batches[lost]  # the server forgot it
    submitted_earlier(db, days=3)  # a 404 is final only a day after submission
    again = score(batch(stub, source, db))
    assert again["rows_pending"] == CASES
    assert dict(query(db, "SELECT batch_id, state FROM judge_batches")) == {
        lost: "lost",
        late: "abandoned",
        **dict.fromkeys(sorted(stub.batches)[1:], "validating"),
    }
    assert stub.batches[late]["status"] == "cancelled"  # a cancel was asked for
    assert stub.requests["upload"] == 4  # both asked again
    assert until_settled(batch(stub, source, db))[-1]["rows_newly_scored"] == CASES


def test_a_result_file_answering_404_right_after_the_batch_ends_is_waited_for(
    stub: BatchStub, source: Path, lexical: pl.DataFrame, tmp_path: Path
) -> None:
    """An OpenAI-compatible server can answer 404 for a batch's output file for a while after
    the batch completes. That 404 was final at once: the batch was collected empty and its
    items asked, and paid for, again. It now gets the grace of any unreadable file (72 h)."""
    db = tmp_path / "f.duckdb"
    score(batch(stub, source, db))
    with stub.lock:  # the batches complete, their output files not yet served
        for found in stub.batches.values():
            stub._advance(found)
        first = list(stub.batches)
        missing = {
            f["output_file_id"]: stub.files.pop(f["output_file_id"]) for f in stub.batches.values()
        }
    uploads = stub.requests["upload"]
    assert score(batch(stub, source, db))["rows_pending"] == CASES
    waited = query(
        db,
        "SELECT collected_at IS NULL FROM judge_batches WHERE list_contains($ids, batch_id)",
        ids=first,
    )
    assert waited == [(True,), (True,)]
    assert stub.requests["upload"] == uploads  # nothing asked again
    with stub.lock:  # the files appear
        stub.files.update(missing)
    runs = until_settled(batch(stub, source, db))
    assert sum(r["rows_newly_scored"] for r in runs) == CASES
    assert query(db, "SELECT count(*) FROM judge_batches WHERE error IS NOT NULL") == [(0,)]
    assert asked_again_after_answered(db) == 0
    asked_twice = query(
        db,
        "SELECT count(*) FROM (SELECT cache_key FROM judge_batch_items GROUP BY cache_key "
        "HAVING count(DISTINCT batch_id) > 1)",
    )
    assert asked_twice == [(0,)]  # none of the first two batches' items paid for again
    assert scores(db, runs[-1]["config_id"]).equals(lexical)


def test_a_result_file_still_gone_three_days_after_submission_is_asked_again(
    stub: BatchStub, source: Path, tmp_path: Path
) -> None:
    db = tmp_path / "f.duckdb"
    score(batch(stub, source, db))
    with stub.lock:  # the batches finish, then their output files are deleted on the server
        for batch_id in stub.batches:
            stub._advance(stub.batches[batch_id])
            del stub.files[stub.batches[batch_id]["output_file_id"]]
    uploads = stub.requests["upload"]
    submitted_earlier(db, days=2)  # 48 h: still waited for
    assert score(batch(stub, source, db))["rows_pending"] == CASES
    assert stub.requests["upload"] == uploads
    submitted_earlier(db, days=1)
    again = score(batch(stub, source, db))
    assert again["rows_pending"] == CASES
    gone = query(db, "SELECT collected_at IS NOT NULL, error FROM judge_batches LIMIT 2")
    assert all(
        collected and "still gone" in error and "HTTP 404" in error for collected, error in gone
    ), gone
    assert stub.requests["upload"] == uploads + 2  # their items are asked again
    assert until_settled(batch(stub, source, db))[-1]["rows_newly_scored"] == CASES


def test_a_batch_whose_state_answers_404_right_after_its_creation_is_waited_for(
    stub: BatchStub,
    source: Path,
    lexical: pl.DataFrame,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An OpenAI-compatible server can answer 404 for a batch's state for a while right after
    creating it. That 404 was final at once: the batch was `lost` and its items asked, and
    paid for, again while the server still ran it. It is now waited for (STATE_GONE_AFTER)."""
    db = tmp_path / "f.duckdb"
    stub.unknown_at_first = 3  # each batch's first 3 state requests: 404
    # The wait's first pause, doubled after each poll: 0.2 s made the four polls of each of
    # the two rounds take 3 s of idle time; what a 404 does is the same at any pace.
    monkeypatch.setattr(collecting, "_FIRST_POLL", 0.01)
    run = score(batch(stub, source, db, batch_wait=30.0))
    assert run["rows_newly_scored"] == CASES
    assert query(db, "SELECT count(*) FROM judge_batches WHERE state = 'lost'") == [(0,)]
    asked_twice = query(
        db,
        "SELECT count(*) FROM (SELECT cache_key FROM judge_batch_items GROUP BY cache_key "
        "HAVING count(DISTINCT batch_id) > 1)",
    )
    assert asked_twice == [(0,)]
    assert stub.lines_submitted == stub.lines_billed  # every line paid for once, and used
    assert scores(db, run["config_id"]).equals(lexical)


def test_a_batch_whose_state_still_answers_404_a_day_after_submission_is_lost(
    stub: BatchStub, source: Path, tmp_path: Path
) -> None:
    db = tmp_path / "f.duckdb"
    score(batch(stub, source, db))
    with stub.lock:  # the server does not know the two batches (for a long while)
        for found in stub.batches.values():
            found["_unknown"] = 10**6
    uploads = stub.requests["upload"]
    submitted_earlier(db, hours=23)  # within the day: waited for, nothing asked again
    assert score(batch(stub, source, db))["rows_pending"] == CASES
    assert stub.requests["upload"] == uploads
    waited = query(db, "SELECT state, collected_at IS NULL FROM judge_batches")
    assert waited == [("validating", True)] * 2, waited
    submitted_earlier(db, hours=2)  # 25 h: lost, its items asked again
    assert score(batch(stub, source, db))["rows_pending"] == CASES
    lost = query(db, "SELECT state, error FROM judge_batches WHERE collected_at IS NOT NULL")
    assert len(lost) == 2, lost
    assert all(state == "lost" and "still not found" in error for state, error in lost), lost
    assert stub.requests["upload"] == uploads + 2
    assert until_settled(batch(stub, source, db))[-1]["rows_newly_scored"] == CASES


def test_answers_of_another_runs_batch_are_not_stored_under_this_ones_items(
    stub: BatchStub, source: Path, tmp_path: Path
) -> None:
    db = tmp_path / "f.duckdb"
    # Other cases whose packs are the same shapes as this source's: same lengths, same counts.
    other = tmp_path / "other.parquet"
    swapped = [pl.col(c).str.to_uppercase() for c in ("case_id", "actual_output")]
    pl.read_parquet(source).with_columns(
        *swapped, pl.col("retrieval_context").list.eval(pl.element().str.to_uppercase())
    ).write_parquet(other)
    stub.then(*["hold"] * 4)
    score(batch(stub, source, db))  # this source's truths and claims, then the other's
    score(batch(stub, other, db))
    ours, theirs = (b for b in sorted(stub.batches) if "truths" in stub.files_text(b))
    with stub.lock:  # the server mixes them up: the other run's batch gets our answers
        stub.batches[ours]["_outcome"] = "complete"
        stub._advance(stub.batches[ours])
        mixed = {"status": "completed", "output_file_id": stub.batches[ours]["output_file_id"]}
        stub.batches[theirs].update(mixed)
    score(batch(stub, other, db))
    answered = query(db, "SELECT items_answered FROM judge_batches WHERE batch_id = $b", b=theirs)
    assert answered == [(0,)]  # answers to other questions, under custom_ids it never asked
    stub.release()
    config_id = until_settled(batch(stub, other, db))[-1]["config_id"]
    theirs_lexical = lexical_scores(other, tmp_path / "lexical.duckdb")
    scored = scores(db, config_id).filter(pl.col("case_id").is_in(theirs_lexical["case_id"]))
    assert scored.equals(theirs_lexical)


def submitted_earlier(db: Path, *, days: int = 0, hours: int = 0) -> None:
    con = duckdb.connect(str(db))
    try:
        by = 24 * days + hours
        con.execute(f"UPDATE judge_batches SET submitted_at = submitted_at - INTERVAL {by} HOUR")
    finally:
        con.close()


def test_a_finished_batch_whose_results_never_read_is_asked_again_after_three_days(
    stub: BatchStub, source: Path, tmp_path: Path
) -> None:
    """A result file the server refuses (HTTP 400, run after run) left the batch waited for
    forever, its cases pending; now a day past the give-up age it answered nothing."""
    db = tmp_path / "f.duckdb"
    score(batch(stub, source, db))
    with stub.lock:
        for found in stub.batches.values():
            stub._advance(found)
            stub.unreadable.add(found["output_file_id"])
    uploads = stub.requests["upload"]
    assert score(batch(stub, source, db))["rows_pending"] == CASES  # a bad hour: waited out
    assert query(db, "SELECT count(*) FROM judge_batches WHERE collected_at IS NULL") == [(2,)]
    assert stub.requests["upload"] == uploads
    submitted_earlier(db, days=2)  # 48 h after submission, still unreadable: waited for
    assert score(batch(stub, source, db))["rows_pending"] == CASES
    assert stub.requests["upload"] == uploads
    submitted_earlier(db, days=1)
    score(batch(stub, source, db))
    given_up = query(db, "SELECT collected_at IS NOT NULL, error FROM judge_batches LIMIT 2")
    assert all(done and "results unreadable" in error for done, error in given_up), given_up
    assert stub.requests["upload"] == uploads + 2  # their items are asked again
    assert until_settled(batch(stub, source, db))[-1]["rows_newly_scored"] == CASES


def test_a_batch_whose_state_is_never_readable_is_asked_again_after_three_days(
    stub: BatchStub, source: Path, tmp_path: Path
) -> None:
    """A batch whose state the server refuses (HTTP 400, run after run) was waited for
    forever, its cases pending for good (`state unknown; the next run asks again`); now,
    as an unreadable result file, it is `lost` a day past the give-up age."""
    db = tmp_path / "f.duckdb"
    stub.then("hold", "hold")
    score(batch(stub, source, db))
    stub.state_refused = 400
    uploads = stub.requests["upload"]
    assert score(batch(stub, source, db))["rows_pending"] == CASES  # a bad hour: waited out
    submitted_earlier(db, days=2)
    assert score(batch(stub, source, db))["rows_pending"] == CASES
    assert stub.requests["upload"] == uploads
    submitted_earlier(db, days=1)
    score(batch(stub, source, db))
    lost = query(db, "SELECT state, collected_at IS NOT NULL, error FROM judge_batches LIMIT 2")
    assert all(state == "lost" and done and "state still unreadable" in error
               for state, done, error in lost), lost  # fmt: skip
    assert stub.requests["upload"] == uploads + 2  # their items are asked again
    stub.state_refused = None
    stub.release()
    assert until_settled(batch(stub, source, db))[-1]["rows_newly_scored"] == CASES


def test_an_unreadable_error_file_given_up_keeps_the_output_files_answers(
    stub: BatchStub, source: Path, tmp_path: Path
) -> None:
    """Past the 72 h bound, an error file the server refused threw the batch's readable output
    file away with it: answers already paid for were asked, and paid for, again."""
    db = tmp_path / "f.duckdb"
    stub.then("partial", "partial")
    score(batch(stub, source, db))
    with stub.lock:
        for found in stub.batches.values():
            stub._advance(found)
            stub.unreadable.add(found["error_file_id"])
    submitted_earlier(db, days=3)
    score(batch(stub, source, db))
    collected = query(db, "SELECT items_answered, error FROM judge_batches WHERE error IS NOT NULL")
    assert len(collected) == 2  # the first run's two batches, given up on their error files
    assert all(answered > 0 and "results unreadable" in error for answered, error in collected)
    assert asked_again_after_answered(db) == 0


def test_faith_batches_on_a_database_without_batches(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "older.duckdb"
    # a faithpipe database as one written before migration 010 reads: no batch tables
    con = duckdb.connect(str(db))
    for statement in statements("000_schema_migrations"):
        con.execute(statement)
    con.execute("INSERT INTO schema_migrations VALUES (0, '000_schema_migrations', now())")
    con.close()
    assert main(["batches", "--db", str(db)]) == 0
    assert "no judge batches in" in capsys.readouterr().out


def test_faith_batches_on_a_database_that_never_ran_batch_mode(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Today's databases have the batch tables from the start: one that never ran
    --judge-mode batch printed a table of column names and no row."""
    db = tmp_path / "f.duckdb"
    open_store(db).close()
    assert main(["batches", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert out == f"no judge batches in {db}: no run of --judge-mode batch has written it\n"


@pytest.mark.parametrize("kind", ["missing", "empty file", "empty duckdb"])
def test_faith_batches_refresh_refuses_a_database_that_is_not_there_and_makes_none(
    stub: BatchStub, tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    """A typo in --db made a new database and said 'refreshed the state of 0 of 0': exit 5,
    as `faith batches` without --refresh, and nothing is written."""
    db = tmp_path / "typo.duckdb"
    if kind == "empty file":
        db.touch()
    elif kind == "empty duckdb":
        duckdb.connect(str(db)).close()
    before = db.read_bytes() if db.exists() else None
    argv = ["batches", "--db", str(db), "--refresh", "--base-url", stub.base_url]
    assert main(argv) == 5
    err = capsys.readouterr().err
    assert err.startswith("error: "), err
    assert err.count("\n") == 1, err
    assert (db.read_bytes() if db.exists() else None) == before
    assert sum(stub.requests.values()) == 0


def test_with_a_wait_one_run_goes_through_every_round(
    stub: BatchStub, source: Path, lexical: pl.DataFrame, tmp_path: Path
) -> None:
    db = tmp_path / "f.duckdb"
    stub.then("complete", "expire")  # the claims asked again are collected in the same run
    run = score(batch(stub, source, db, batch_wait=30.0))
    assert run["rows_newly_scored"] == CASES
    assert scores(db, run["config_id"]).equals(lexical)
    assert query(db, "SELECT count(*) FROM judge_batches WHERE collected_at IS NULL") == [(0,)]

    # A batch that does not finish within the wait leaves its cases pending, on time.
    # Against a baseline of the same run without a wait, measured here: the held batch never
    # finishes, so a run deaf to --batch-wait would wait until the test's timeout.
    stub.then("hold", "hold", "hold", "hold")
    started = time.monotonic()
    score(batch(stub, source, tmp_path / "unwaited.duckdb", batch_wait=0.0))
    baseline = time.monotonic() - started
    started = time.monotonic()
    held = score(batch(stub, source, tmp_path / "held.duckdb", batch_wait=0.5))
    assert held["rows_pending"] == CASES
    assert time.monotonic() - started < 0.5 + 4 * baseline + 2


def assert_every_batch_recorded_once(stub: BatchStub, db: Path) -> None:
    """Every batch the server holds is one row of judge_batches, so no item is in two billed
    batches; and no item was asked again once answered."""
    recorded = dict(query(db, "SELECT batch_id, requests FROM judge_batches"))
    assert set(stub.batches) == set(recorded)
    assert stub.lines_submitted == sum(recorded.values())
    assert asked_again_after_answered(db) == 0


def test_a_lost_create_answer_adopts_the_batch_instead_of_paying_twice(
    stub: BatchStub, source: Path, tmp_path: Path
) -> None:
    db = tmp_path / "f.duckdb"
    stub.lose_create_answers(1)  # the truths batch is created, its answer is a 502
    runs = until_settled(batch(stub, source, db))
    assert [r["rows_pending"] for r in runs] == [CASES, CASES, 0]  # nothing is delayed
    assert stub.requests["batch_create"] == 3  # the lost answer is not retried
    assert stub.requests["batch_list"] >= 1  # ... the batch is looked for, and adopted
    assert_every_batch_recorded_once(stub, db)
    assert stub.lines_billed == stub.lines_submitted


@pytest.mark.slow
def test_a_process_killed_during_a_create_leaves_its_batch_for_the_next_run(
    stub: BatchStub, source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "f.duckdb"
    process = score_in_a_process(stub, source, db, "--timeout", "5")
    # The server has created the batch; the process dies before it reads the answer.
    stub.on_create = lambda: os.kill(process.pid, signal.SIGKILL)
    try:
        process.communicate(timeout=HANG_GUARD)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == -signal.SIGKILL
    stub.on_create = None
    assert len(stub.batches) == 1
    (created,) = stub.batches
    (row,) = query(db, "SELECT batch_id, state, input_file_id FROM judge_batches")
    assert row == (f"submitting:{row[2]}", "submitting", row[2])  # recorded before the create
    # `faith batches --refresh` finds it by its file; the next run collects it.
    assert main(["batches", "--db", str(db), "--refresh", "--base-url", stub.base_url]) == 0
    assert "refreshed the state of 1 of 1" in capsys.readouterr().out
    assert query(db, "SELECT batch_id FROM judge_batches") == [(created,)]
    runs = until_settled(batch(stub, source, db))
    assert runs[-1]["rows_newly_scored"] == CASES
    assert_every_batch_recorded_once(stub, db)


@pytest.mark.parametrize("route", ["settings", "worker"])
def test_batch_mode_on_dask_is_refused_with_the_engine_message(tmp_path: Path, route: str) -> None:
    """Whichever route reaches it, the user reads that batch mode needs --engine local."""
    judge = JudgeSettings(kind="openai", model="m", mode="batch")
    if route == "settings":
        with pytest.raises(ValueError, match="batch runs in one process: use --engine local"):
            ScoreSettings(source="x.parquet", db=str(tmp_path / "f.duckdb"), judge=judge,
                          engine="dask")  # fmt: skip
    else:  # a judge built without the database, as a Dask worker's would be
        with pytest.raises(ConfigError, match="use --engine local"):
            build_judge(judge)


@pytest.mark.slow
def test_a_stop_during_a_create_leaves_its_batch_for_the_next_run(
    stub: BatchStub, source: Path, tmp_path: Path
) -> None:
    db = tmp_path / "f.duckdb"
    run_settings = batch(stub, source, db)
    con = open_store(db)
    judge = build_judge(run_settings.judge, con)
    try:
        stub.on_create = judge.stop  # the server made the batch; the request is cancelled
        stopped = run_score(run_settings, judge=judge)
    finally:
        judge.close()
        con.close()
    stub.on_create = None
    assert stopped["rows_newly_scored"] == 0
    assert query(db, "SELECT state FROM judge_batches") == [("submitting",)]
    assert until_settled(run_settings)[-1]["rows_newly_scored"] == CASES
    assert_every_batch_recorded_once(stub, db)


@pytest.mark.usefixtures("prefect_harness")
def test_a_deployment_stored_with_a_timeout_past_the_cap_still_runs_at_the_cap(
    stub: BatchStub, source: Path, tmp_path: Path
) -> None:
    """--timeout became at most a day (86,400 s) after deployments were stored with longer
    ones (a batch night's transfers): each of their runs then failed Prefect's parameter
    validation before reading anything. The stored value now runs at the cap, with one
    warning naming it; the command line still refuses it (next test)."""
    import logging

    from flows.orchestration.nightly_flow import nightly_flow

    db = tmp_path / "f.duckdb"
    judge = {"kind": "openai", "model": "stub-model", "base_url": stub.base_url}
    stored = {  # the parameters as the Prefect server hands them to a scheduled run
        "settings": {
            "source": str(source),
            "db": str(db),
            "flow": "nightly",
            "max_invalid_share": 1.0,
            "judge": {**judge, "mode": "batch", "timeout": 172800.0},
        },
        "golden": None,
        "agreement_floor": 0.0,
    }
    warnings: list[str] = []
    handler = logging.Handler(logging.WARNING)
    handler.emit = lambda record: warnings.append(record.getMessage())  # type: ignore[method-assign]
    logger = logging.getLogger("faithpipe")
    logger.addHandler(handler)
    try:
        night = nightly_flow(**stored)
    finally:
        logger.removeHandler(handler)
    assert (night["status"], night["rows_pending"]) == ("completed", CASES)
    assert stub.requests["upload"] == 2  # its batches were submitted
    capped = [line for line in warnings if "172,800 s" in line]
    assert len(capped) == 1, warnings
    assert "86,400 s (a day): this run uses 86,400 s" in capped[0]


@pytest.mark.parametrize("command", ["score", "nightly", "serve", "judge-check"])
def test_a_timeout_past_the_cap_on_the_command_line_is_still_refused(
    command: str, source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [command] if command == "judge-check" else [command, str(source)]
    argv += ["--judge", "openai"] if command != "judge-check" else []
    argv += ["--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--timeout", "86401"]
    argv += ["--dry-run"] if command == "serve" else []
    with pytest.raises(SystemExit) as refused:
        main([*argv, "--db", str(tmp_path / "f.duckdb")] if command != "judge-check" else argv)
    assert refused.value.code == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith(f"error: faith {command}: argument --timeout: "), line
    assert "at most 86,400 (a day), got '86401'" in line
    assert not (tmp_path / "f.duckdb").exists()


@pytest.mark.parametrize(
    "given",
    [
        ["--base-url", "https://api.openai.com/v1"],
        ["--api-key-env", "OTHER_KEY"],
        ["--timeout", "5"],
        ["--lock-timeout", "600"],
    ],
)
def test_faith_batches_refuses_a_refresh_option_without_refresh(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], given: list[str]
) -> None:
    """`faith batches --base-url URL` (--refresh forgotten) only listed the stored states,
    asking no server, and said nothing of the option it dropped: exit 2, before the
    database is read."""
    db = tmp_path / "faith.duckdb"
    assert main(["batches", "--db", str(db), *given]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {given[0]} needs --refresh"), err
    assert err.count("\n") == 1, err
    assert not db.exists()


def test_a_server_reusing_a_file_id_ends_the_run_with_exit_6_and_one_line(
    stub: BatchStub, source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A server answering every upload with one file id (a counter reset by a restart): the
    claims' upload gets the truths' batch's id, which a lost create's look-up would take for
    the new batch. One line and exit 6, no second batch; once the server is fixed, the runs
    after finish the work without paying for anything twice."""
    db = tmp_path / "f.duckdb"
    stub.file_id = "file-1"
    argv = ["score", str(source), "--db", str(db), "--prefect", "no", "--judge", "openai"]
    argv += ["--judge-mode", "batch", "--model", "stub-model", "--base-url", stub.base_url]
    assert main(argv) == 6
    line = capsys.readouterr().err.strip().splitlines()[-1]
    assert line.startswith("error: the batch server at 127.0.0.1:"), line
    assert "gave the id file-1 of an earlier upload (batch batch-stub0001)" in line
    assert stub.requests["batch_create"] == 1
    assert query(db, "SELECT batch_id, input_file_id FROM judge_batches") == [
        ("batch-stub0001", "file-1")
    ]
    stub.file_id = None
    assert until_settled(batch(stub, source, db))[-1]["rows_scored"] == CASES
    assert asked_again_after_answered(db) == 0
    assert stub.lines_billed == stub.lines_submitted
