"""The LLM judge against servers as they were met (issue 16): llama.cpp's json_schema 500,
servers refusing any response_format, chat templates that refuse two user turns in a row,
generation that runs to the context's end without max_tokens, a model copying the prompt's
example, fenced JSON, no usage. Each run scores its cases or reports the documented error, with
no retry storm, nothing cached from a bad reply, and the format remembered by the next run.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest

from faith_udfs import LexicalJudge, MetricConfig, score_cases
from faith_udfs.errors import JudgeReplyError
from faith_udfs.packed_prompts import PACKED_CLAIMS, PACKED_TRUTHS
from faith_udfs.packed_replies import refuse_placeholders, top_level_object
from faith_udfs.prompts import CLAIMS, TRUTHS
from flows.cli import main
from flows.errors import JudgeUnusable
from flows.judges.settings import JudgeSettings
from flows.nightly.nightly_run import check_line, run_nightly
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from flows.store.db import open_store
from flows.store.judge_memory import JudgeMemory
from flows.store.reply_cache import ReplyCache
from tests.support.builders import COMPARED, case_row, cases, many_cases, write
from tests.support.db_reading import frame as query
from tests.support.llm_judge import openai_judge, shorten_backoff
from tests.support.openai_stub import StubServer, serving

KEY = "sk-servers-5f0c2a9e7d1b4c3a8e6f"


@pytest.fixture(scope="module")
def server() -> Iterator[StubServer]:
    """One stub for the module; each test gets it healed and counted from zero."""
    with serving() as stub:
        yield stub


@pytest.fixture
def stub(server: StubServer, monkeypatch: pytest.MonkeyPatch) -> StubServer:
    """The module's stub, and test-sized waits between the attempts of the judges the
    product's paths build (the attempts counted here are the product's)."""
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    shorten_backoff(monkeypatch)
    server.heal()
    server.reset_counts()
    return server


@pytest.fixture
def source(tmp_path: Path) -> Path:
    """Eight cases: two passages, five distinct answers (one packed call a stage)."""
    return write(many_cases(8), tmp_path / "cases.parquet")


def settings(stub: StubServer, source: Path, db: Path, **judge: Any) -> ScoreSettings:
    options = {"model": "stub-model", "base_url": stub.base_url, "timeout": 5.0, **judge}
    return ScoreSettings(
        source=str(source),
        db=str(db),
        judge=JudgeSettings(kind="openai", **options),
        max_invalid_share=1.0,
    )


def lexical_scores(source: Path) -> pl.DataFrame:
    frame = pl.read_parquet(source).select("case_id", "actual_output", "retrieval_context")
    return score_cases(frame, LexicalJudge(), MetricConfig()).case_scores.select(COMPARED)


def roles_alternate(bodies: list[dict[str, Any]]) -> bool:
    """No request holds a system turn or two turns of one role in a row."""
    for body in bodies:
        roles = [message["role"] for message in body["messages"]]
        if "system" in roles or any(a == b for a, b in itertools.pairwise(roles)):
            return False
    return True


def formats_asked(stub: StubServer) -> list[str]:
    return [(b.get("response_format") or {}).get("type", "text") for b in stub.bodies]


# --- servers that work once spoken to properly: every case scored, the mode remembered ------

REFUSALS = {"schema_500": 1, "format_400": 2, "completion_tokens": 1, "error_200": 1}
FOUND = {"schema_500": "json_object", "format_400": "text", "error_200": "json_object"}


@pytest.mark.parametrize(
    "behaviour",
    [
        "schema_500",
        "format_400",
        "error_200",
        "alternating",
        "fences",
        "no_usage",
        "runaway",
        "completion_tokens",
        "content_parts",
    ],
)
def test_a_server_as_met_scores_every_case_and_the_next_run_remembers_its_format(
    stub: StubServer, source: Path, tmp_path: Path, behaviour: str
) -> None:
    stub.behave(behaviour)
    if behaviour == "alternating":
        stub.fail("fewer_verdicts")  # one item is asked again: user / assistant / user
    db = tmp_path / "f.duckdb"
    run = run_score(settings(stub, source, db))
    assert (run["rows_scored"], run["rows_invalid"], run["rows_pending"]) == (8, 0, 0)
    got = query(db, f"SELECT {', '.join(COMPARED)} FROM case_scores ORDER BY case_id")
    assert got.equals(lexical_scores(source).sort("case_id"))
    # One packed call a stage, plus each refused format once, plus the one ask-again: no storm.
    again = 1 if behaviour == "alternating" else 0
    assert stub.requests == 3 + REFUSALS.get(behaviour, 0) + again
    assert run["judge_failed"] == REFUSALS.get(behaviour, 0)
    field = "max_completion_tokens" if behaviour == "completion_tokens" else "max_tokens"
    assert all(isinstance(body.get(field), int) for body in stub.bodies[-3:])
    assert all("max_tokens" in body or field in body for body in stub.bodies)
    assert roles_alternate(stub.bodies)
    found = FOUND.get(behaviour, "json_schema")
    assert run["judge_response_format"] == found
    estimated = stub.requests - REFUSALS.get(behaviour, 0) if behaviour == "no_usage" else 0
    assert run["judge_tokens_estimated"] == estimated

    # The next run, on new answers, starts with the mode found: no request is refused.
    stub.reset_counts()
    more = cases([case_row(f"n{i}", f"Order A17 shipped on {i + 4} March.") for i in range(3)])
    again_run = run_score(settings(stub, write(more, tmp_path / "more.parquet"), db))
    assert again_run["rows_scored"] == 3
    # Claims and verdicts (the passages' truths are cached); the token field is found again.
    assert stub.requests == 2 + (behaviour == "completion_tokens")
    assert set(formats_asked(stub)) == {found}
    assert again_run["judge_response_format"] == found


# --- servers whose replies cannot be used: the documented error, nothing cached ---------------


def test_a_model_copying_the_format_example_is_a_reply_error_never_cached(
    stub: StubServer, source: Path, tmp_path: Path
) -> None:
    stub.behave("example")
    db = tmp_path / "f.duckdb"
    run = run_score(settings(stub, source, db))
    assert (run["rows_invalid"], run["rows_scored"]) == (8, 0)
    errors = query(db, "SELECT DISTINCT error FROM case_scores")["error"].to_list()
    assert all("copies the prompt's format example ('...' is a placeholder" in e for e in errors)
    # Truths and claims: each pack asked once, then each of its items alone once (issue 27:
    # escalation, never the pack again); verdicts never asked.
    assert (stub.by_schema[PACKED_TRUTHS], stub.by_schema[PACKED_CLAIMS]) == (1, 1)
    assert stub.requests == 2 + stub.by_schema[TRUTHS] + stub.by_schema[CLAIMS] == 9
    assert run["judge_failed"] == 9
    stored = query(db, "SELECT (SELECT count(*) FROM judge_cache) AS c, count(*) AS t FROM truths")
    assert stored.row(0) == (0, 0)


def test_a_reply_cut_at_max_tokens_is_never_parsed_and_says_how_to_raise_it(
    stub: StubServer, source: Path, tmp_path: Path
) -> None:
    stub.fail("truncated", times=None)
    db = tmp_path / "f.duckdb"
    run = run_score(settings(stub, source, db, max_output_tokens=16, mode="per-item"))
    assert run["rows_invalid"] == 8
    errors = query(db, "SELECT DISTINCT error FROM case_scores")["error"].to_list()
    assert errors == [
        # per-item mode: its one-item replies are the shortest, so no mode is advised
        "ReplyCut: the reply was cut at max_tokens=16 (finish_reason 'length') before it "
        "ended; raise --max-output-tokens"
    ]
    assert {body["max_tokens"] for body in stub.bodies} == {16}
    # Each passage and answer once; never asked again at the limit given.
    assert stub.requests == stub.by_schema[TRUTHS] + stub.by_schema[CLAIMS] == 7
    assert query(db, "SELECT count(*) AS n FROM judge_cache")["n"][0] == 0


def test_a_packed_reply_cut_at_the_limit_given_is_asked_item_by_item(
    stub: StubServer, source: Path, tmp_path: Path
) -> None:
    # Issue 27: one item's reply is shorter than a pack's, so it may end under the limit.
    db = tmp_path / "f.duckdb"
    run = run_score(settings(stub, source, db, max_output_tokens=16))
    assert {body["max_tokens"] for body in stub.bodies} == {16}
    assert stub.by_schema[PACKED_TRUTHS] == stub.by_schema[PACKED_CLAIMS] == 1
    cut = query(db, "SELECT count(*) AS n FROM case_scores WHERE error LIKE 'ReplyCut:%'")
    assert 0 < cut["n"][0] == run["rows_invalid"] < 8
    assert run["rows_scored"] + run["rows_invalid"] == 8


def test_only_a_complete_top_level_object_is_read() -> None:
    # Issue 16: a per-item reply cut at 1,024 tokens was read as its first nested object.
    cut = '{"truth":["a"],"data":[{"truths":["Order A17 shipped.","It left."]}],"more":'
    with pytest.raises(JudgeReplyError, match="not one complete JSON object"):
        top_level_object(cut)
    assert top_level_object('Here it is:\n```json\n{"truths": ["x"]}\n```') == {"truths": ["x"]}
    assert top_level_object('{"claims": []}\nHope this helps.') == {"claims": []}
    # Nor the first object of a top-level array (whole or cut), nor an object quoted in prose.
    for nested in (
        '[{"truths": ["a", "b"]}]',
        '[{"truths": ["a", "b"]}, {"truths": ["c"',
        'The answer for item {"item": 1} is {"items": []}',
    ):
        with pytest.raises(JudgeReplyError, match=r"JSON array|more than one JSON value"):
            top_level_object(nested)
    with pytest.raises(JudgeReplyError, match="placeholder"):
        refuse_placeholders({"verdicts": [{"claim": 1, "verdict": "yes|no|idk", "reason": "x"}]})


def test_a_placeholder_stored_by_an_older_faithpipe_is_asked_again(
    stub: StubServer, tmp_path: Path
) -> None:
    with open_store(tmp_path / "f.duckdb") as con, ReplyCache(con) as cache:
        judge = openai_judge("stub-model", base_url=stub.base_url, mode="per-item", cache=cache)
        with judge:
            assert judge.answer_claims("Order A17 shipped on 3 March.") == [
                "Order A17 shipped on 3 March."
            ]
        con.execute('UPDATE judge_cache SET reply = \'{"claims": ["...", "..."]}\'')
        stub.reset_counts()
        judge = openai_judge("stub-model", base_url=stub.base_url, mode="per-item", cache=cache)
        with judge:
            assert judge.answer_claims("Order A17 shipped on 3 March.") == [
                "Order A17 shipped on 3 March."
            ]
    assert stub.requests == 1


# --- counts: caps and earlier failures -----------------------------------------------------------


def test_under_a_call_cap_items_that_failed_before_wait_behind_untried_ones(
    stub: StubServer, tmp_path: Path
) -> None:
    answers = pl.DataFrame(
        {"key": [1, 2, 3, 4], "text": [f"Order A{n} shipped." for n in range(1, 5)]},
        schema={"key": pl.UInt64, "text": pl.String},
    )

    def claims_with_cap() -> pl.DataFrame:
        memory = JudgeMemory(con)
        options = {"mode": "per-item", "max_calls": 2, "max_retries": 0, "memory": memory}
        with openai_judge("stub-model", base_url=stub.base_url, **options) as judge:
            return judge.claims(answers)

    exhausted = (
        "JudgeBudgetExhausted: the run's cap of 2 judge calls is reached (--max-calls); "
        "the case stays pending for the next run"
    )
    with open_store(tmp_path / "f.duckdb") as con:
        stub.fail("500", times=None)
        first = claims_with_cap()
        # The calls run in threads: which two items took the cap's two calls is not the point.
        untried = [row["key"] for row in first.iter_rows(named=True) if row["pending"]]
        assert len(untried) == 2
        errors = dict(zip(first["pending"], first["error"], strict=False))
        assert {e for e, p in zip(first["error"], first["pending"], strict=True) if p} == {
            exhausted
        }
        assert errors[False].startswith("JudgeTransientError: HTTP 500")
        stub.heal()
        stub.reset_counts()
        second = claims_with_cap()
    prompts = [body["messages"][0]["content"] for body in stub.bodies]
    asked = sorted(key for key in range(1, 5) for p in prompts if f"Order A{key} shipped" in p)
    assert asked == untried  # each untried item once, before any that failed before
    assert [row["key"] for row in second.iter_rows(named=True) if not row["pending"]] == untried


# --- faith judge-check and the nightly preflight ---------------------------------------------


def test_judge_check_reports_the_mode_latency_and_scores(
    stub: StubServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stub.behave("schema_500")
    db = tmp_path / "f.duckdb"
    args = ["judge-check", "--model", "stub-model", "--base-url", stub.base_url, "--db", str(db)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "judge stub-model (packed): response_format json_object" in out
    assert "calls 4 (1 failed, 0 packed answers asked again alone); latency per call at " in out
    assert "--concurrency 1 (s): " in out
    assert "  contradicting: score 0.50, expected 0.50" in out
    assert "usable: yes" in out
    remembered = query(db, "SELECT response_format FROM judge_formats")["response_format"]
    assert remembered.to_list() == ["json_object"]
    assert "judge mode: packed" in out
    assert "--timeout 60 fits" in out  # a fast server: the default
    modes = query(db, "SELECT judge_mode, concurrency, slowest_call FROM judge_modes")
    assert modes.row(0)[:2] == ("packed", 1)
    assert 0 < modes.row(0)[2] < 60


def test_judge_check_refuses_an_empty_db_before_asking_the_endpoint(
    stub: StubServer, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--db "$DB"` with DB unset checked the endpoint and remembered nothing, without a word:
    the night's preflight then paid for the check again, and the mode found was not used.
    It is exit 5 as for every other command's `--db ""`, before any call."""
    argv = ["judge-check", "--model", "stub-model", "--base-url", stub.base_url, "--db", ""]
    assert main(argv) == 5
    assert "error: --db is empty: name the database file" in capsys.readouterr().err
    assert stub.requests == 0


def test_judge_check_exits_9_on_a_judge_whose_replies_are_unusable(
    stub: StubServer, capsys: pytest.CaptureFixture[str]
) -> None:
    stub.behave("example")
    assert main(["judge-check", "--model", "stub-model", "--base-url", stub.base_url]) == 9
    captured = capsys.readouterr()
    assert "  grounded: score invalid, expected 1.00 (JudgeReplyError: the reply copies" in (
        captured.out
    )
    # Packed first, then per-item (issue 27); neither can be used.
    assert "judge stub-model (packed)" in captured.out
    assert "judge stub-model (per-item)" in captured.out
    assert "usable: NO: 3 of 3 examples could not be judged" in captured.out
    assert "error: the judge stub-model cannot be used" in captured.err
    # Packed: each pack once, then each item alone once; per-item: each item twice. No storm.
    assert stub.requests == (2 + 4) + 2 * 4


def test_the_nightly_stops_before_scoring_on_an_unusable_judge_and_trusts_a_passed_check(
    stub: StubServer, source: Path, tmp_path: Path
) -> None:
    db = tmp_path / "f.duckdb"
    nightly = settings(stub, source, db).model_copy(update={"flow": "nightly"})
    stub.behave("example")
    with pytest.raises(JudgeUnusable, match="nothing was scored: 3 of 3 examples"):
        run_nightly(nightly)
    assert stub.requests == (2 + 4) + 2 * 4  # the checks' only: packed, then per-item
    assert query(db, "SELECT count(*) AS n FROM runs")["n"][0] == 0
    stub.heal()
    run_nightly(nightly)
    stub.reset_counts()
    run_nightly(nightly)  # the check passed within a day: not paid again, nothing new to score
    checks = query(db, "SELECT usable FROM judge_preflights ORDER BY checked_at")
    assert checks["usable"].to_list() == [False, False, True]
    assert query(db, "SELECT count(*) AS n FROM runs")["n"][0] == 2


def test_the_next_nights_check_is_paid_again_though_its_start_came_seconds_early(
    stub: StubServer, source: Path, tmp_path: Path
) -> None:
    """A check was trusted for 24 hours: a night started at 02:00:03 after one checked at
    02:00:05 (cron and start-up jitter) skipped it, so a daily schedule checked the judge
    every other night, as seconds fell."""
    db = tmp_path / "f.duckdb"
    nightly = settings(stub, source, db).model_copy(update={"flow": "nightly"})
    run_nightly(nightly)
    con = duckdb.connect(str(db))
    try:  # the check as the last night made it, a day less two seconds ago
        con.execute("UPDATE judge_preflights SET checked_at = checked_at - INTERVAL 86398 SECOND")
    finally:
        con.close()
    run_nightly(nightly)
    checks = query(db, "SELECT usable FROM judge_preflights ORDER BY checked_at")
    assert checks["usable"].to_list() == [True, True]


def test_each_nights_judge_check_asks_the_judge_again_so_a_changed_model_is_seen(
    stub: StubServer, source: Path, tmp_path: Path
) -> None:
    # The drift watch's purpose: a hosted model changed behind the same name. The golden
    # check's replies came from judge_cache after the first night, so agreement never moved.
    db = tmp_path / "f.duckdb"
    nightly = settings(stub, source, db).model_copy(update={"flow": "nightly"})
    first = run_nightly(nightly)
    assert first["judge_check"]["cases_invalid"] == 0
    stub.reset_counts()
    stub.behave("example")  # the same name, another model: its replies are now unusable
    second = run_nightly(nightly)  # nothing new to score, the preflight passed within a day
    assert stub.requests > 0  # the golden set was asked again
    assert second["judge_check"]["cases_invalid"] == second["judge_check"]["cases"]
    assert second["judge_check"]["passed"] is False
    assert "judge drift" in second["warning"]
    # a recurring cost, so each night's check says what it asked, and the table keeps it
    asked = second["judge_check"]["judge_calls"]
    assert 0 < asked <= stub.requests
    assert f"; {asked:,} judge calls, " in check_line(second["judge_check"])
    stored = query(db, "SELECT judge_calls, prompt_tokens FROM judge_checks ORDER BY checked_at")
    assert stored["judge_calls"].to_list() == [first["judge_check"]["judge_calls"], asked]
    assert stored["prompt_tokens"][1] > 0


def test_a_case_pending_for_the_cap_says_so_not_another_items_reply_error(
    stub: StubServer,
) -> None:
    # Issue 16: a pending case showed the reply error of one of its passages as its error.
    case = pl.DataFrame(
        {
            "case_id": ["two-passages"],
            "actual_output": ["Order A17 shipped on 3 March."],
            "retrieval_context": [["Order A17 shipped on 3 March.", "Refunds take 5 days."]],
        }
    )
    stub.fail("malformed", times=2)  # the first passage's answer, and its second try
    options = {"mode": "per-item", "max_calls": 2, "concurrency": 1}
    with openai_judge("stub-model", base_url=stub.base_url, **options) as judge:
        scores = score_cases(case, judge, MetricConfig()).case_scores
    assert scores.row(0, named=True)["status"] == "pending"
    assert scores["error"][0].startswith("JudgeBudgetExhausted: the run's cap of 2 judge calls")


def test_the_run_line_says_how_the_judge_was_asked_and_whose_token_counts_are_estimates(
    stub: StubServer, source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stub.behave("schema_500", "no_usage")
    db = tmp_path / "f.duckdb"
    args = ["score", str(source), "--db", str(db), "--prefect", "no", "--judge", "openai"]
    args += ["--model", "stub-model", "--base-url", stub.base_url, "--max-invalid-share", "1"]
    assert main(args) == 0
    judge_line = next(
        line for line in capsys.readouterr().out.splitlines() if line.startswith("judge: ")
    )
    run = query(db, "SELECT judge_calls, judge_tokens_estimated FROM runs").row(0, named=True)
    assert "(response_format json_object)" in judge_line
    assert f"({run['judge_tokens_estimated']:,} calls' estimated: no usage sent)" in judge_line
    assert 0 < run["judge_tokens_estimated"] <= run["judge_calls"]


def test_calls_a_cap_refused_before_sending_are_not_failed_calls(
    stub: StubServer, source: Path, tmp_path: Path
) -> None:
    run = run_score(settings(stub, source, tmp_path / "f.duckdb", max_calls=2))
    assert (run["judge_calls"], run["judge_failed"]) == (2, 0)
    assert stub.requests == 2
    assert run["rows_pending"] > 0


def test_a_400_about_another_field_is_not_taken_for_a_format_refusal(
    stub: StubServer, source: Path, tmp_path: Path
) -> None:
    stub.behave("temperature_400")
    db = tmp_path / "f.duckdb"
    run = run_score(settings(stub, source, db))
    assert run["rows_invalid"] == 8
    assert set(formats_asked(stub)) == {"json_schema"}  # never stepped down
    assert stub.requests == run["judge_failed"] <= 3  # not retried: one request a call
    assert query(db, "SELECT count(*) AS n FROM judge_formats")["n"].to_list() == [0]


def test_a_prompt_refused_in_every_format_does_not_lower_the_format_of_later_runs(
    stub: StubServer, source: Path, tmp_path: Path
) -> None:
    # A content filter refuses one answer's prompt with a bare 400, whatever the format: the
    # request steps down to none, is refused there too, and json_schema is asked again.
    stub.filter_on = "was cancelled"  # until the next test's heal()
    db = tmp_path / "f.duckdb"
    run = run_score(settings(stub, source, db, mode="per-item"))
    errors = query(db, "SELECT error FROM case_scores WHERE status = 'invalid'")["error"]
    assert set(errors) == {
        "RequestRefused: HTTP 400 from the endpoint: The response was filtered due to the prompt "
        "triggering Azure OpenAI's content management policy."
    }
    assert (run["rows_scored"], run["rows_invalid"]) == (8 - len(errors), len(errors))
    assert run["judge_response_format"] == "json_schema"
    formats = query(db, "SELECT response_format FROM judge_formats")["response_format"]
    assert formats.to_list() == ["json_schema"]
    assert formats_asked(stub)[-1] == "json_schema"  # the calls after it, back in json_schema

    stub.reset_counts()
    more = cases([case_row("n1", "Order A17 shipped on 9 March.")])
    run_score(settings(stub, write(more, tmp_path / "more.parquet"), db, mode="per-item"))
    assert set(formats_asked(stub)) == {"json_schema"}


def test_a_pack_refused_for_one_items_prompt_is_asked_item_by_item(
    stub: StubServer, source: Path, tmp_path: Path
) -> None:
    # Packed, the refused answer shares its claims call with the other four answers: they
    # are asked again alone and scored; only the cases of the refused answer are invalid.
    stub.filter_on = "was cancelled"  # until the next test's heal()
    db = tmp_path / "f.duckdb"
    run = run_score(settings(stub, source, db))
    got = query(db, "SELECT case_id, status, error FROM case_scores ORDER BY case_id")
    refused = pl.read_parquet(source).filter(pl.col("actual_output").str.contains("was cancelled"))
    invalid = got.filter(pl.col("status") == "invalid")
    assert invalid["case_id"].to_list() == sorted(refused["case_id"])
    assert set(invalid["error"]) == {
        "RequestRefused: HTTP 400 from the endpoint: The response was filtered due to the "
        "prompt triggering Azure OpenAI's content management policy."
    }
    assert run["rows_scored"] == 8 - invalid.height > 0
    scored = got.filter(pl.col("status") == "scored")["case_id"]
    expected = lexical_scores(source).filter(pl.col("case_id").is_in(scored.to_list()))
    stored = query(db, f"SELECT {', '.join(COMPARED)} FROM case_scores WHERE status = 'scored'")
    assert stored.sort("case_id").equals(expected.sort("case_id"))


@pytest.mark.parametrize("echo", ["echo_500", "echo_200"])
def test_an_error_echoing_the_request_is_not_taken_for_a_format_refusal(
    stub: StubServer, source: Path, tmp_path: Path, echo: str
) -> None:
    # The echo holds our own `"response_format": {"type": "json_schema", ...}`: not the
    # server's word; a 500 is a passing failure, asked again in the same format.
    stub.fail(echo)
    db = tmp_path / "f.duckdb"
    run = run_score(settings(stub, source, db))
    assert (run["rows_scored"], run["rows_invalid"]) == (8, 0)
    assert set(formats_asked(stub)) == {"json_schema"}
    assert run["judge_response_format"] == "json_schema"
    formats = query(db, "SELECT response_format FROM judge_formats")["response_format"]
    assert formats.to_list() == ["json_schema"]


def test_a_cut_reply_is_asked_again_with_twice_the_room(
    stub: StubServer, source: Path, tmp_path: Path
) -> None:
    stub.fail("truncated")  # the first reply ends at finish_reason "length"
    run = run_score(settings(stub, source, tmp_path / "f.duckdb", mode="per-item"))
    assert (run["rows_scored"], run["rows_invalid"]) == (8, 0)
    cut = stub.bodies[0]
    # Asked afresh (the same messages, not the cut reply as a turn), with twice the room.
    again = [body["max_tokens"] for body in stub.bodies[1:] if body["messages"] == cut["messages"]]
    assert again == [2 * cut["max_tokens"]]
