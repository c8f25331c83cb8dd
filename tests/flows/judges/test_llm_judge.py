"""OpenAIJudge against a real chat-completions server on 127.0.0.1 (tests/support/openai_stub.py).

Issue #4: lexical scores through the endpoint, every fault kind ends scored or invalid, random
faults lose no case, a second identical run makes zero requests, caps leave cases pending,
and the API key shows up nowhere.
"""

from __future__ import annotations

import json
import logging
import random
import re
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path

import polars as pl
import pytest
from pydantic import ValidationError

from faith_udfs import ConfigError, JudgeTransientError, LexicalJudge, MetricConfig, score_cases
from faith_udfs.errors import JudgeCrashed
from faith_udfs.packed_prompts import PACKED_TRUTHS, PACKED_VERDICTS
from faith_udfs.prompts import CLAIMS, TRUTHS, VERDICTS
from flows.judges.endpoint.call_policy import CallPolicy
from flows.judges.endpoint.limiter import AdaptiveLimiter
from flows.judges.endpoint.request_details import retry_after_seconds as _retry_after
from flows.judges.live.judge import OpenAIJudge
from flows.judges.live.tasks import Packing
from flows.judges.settings import JudgeSettings
from flows.store.db import open_store
from flows.store.reply_cache import ReplyCache
from tests.conftest import POLICY
from tests.support.builders import COMPARED, metric_cases
from tests.support.llm_judge import openai_judge
from tests.support.openai_stub import StubServer, serving

ROOT = Path(__file__).resolve().parents[3]
KEY = "sk-faithpipe-TEST-9f8e7d6c5b4a39281706"
MODES = ["per-item", "packed"]
CONFIG = MetricConfig()

FACTS = [
    *POLICY,
    "The Berlin store opens at 9 am on weekdays.",
    "Premium members get free delivery on every order.",
    "Gift cards expire after 24 months.",
    "Returns are accepted within 30 days of delivery.",
]
INVENTED = ["It arrives tomorrow.", "We are sorry.", "Our team loves helping you!"]
ALTERED = [
    "Order A17 was cancelled.",
    "Refunds are paid within 10 working days.",
    "The Berlin store opens at 8 am on Sundays.",
    "Gift cards never expire.",
]


def seed_cases() -> pl.DataFrame:
    context = [POLICY[0]]
    return metric_cases(
        [
            ("grounded", "Order A17 shipped on 3 March.", context),
            ("invented", "Order A17 shipped on 3 March. It arrives tomorrow.", context),
            ("wrong", "Order A17 was cancelled. We are sorry.", context),
        ]
    )


def generated_cases(n: int, seed: int = 7) -> pl.DataFrame:
    """Cases citing a few shared passages, answers mixing supported, altered, invented
    sentences; plus one case with no context and one answer with no claims."""
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        context = rng.sample(FACTS, k=rng.choice([1, 2, 2, 3]))
        parts = [rng.choice(context)]
        if rng.random() < 0.4:
            parts.append(rng.choice(ALTERED))
        if rng.random() < 0.4:
            parts.append(rng.choice(INVENTED))
        rows.append((f"case-{i:03d}", " ".join(parts), context))
    rows.append(("no-context", "Order A17 shipped on 3 March.", []))
    # A blank answer is never sent to a judge (tests/flows/run/test_entry_points_agree.py).
    return metric_cases(rows)


def lexical(cases: pl.DataFrame) -> pl.DataFrame:
    return score_cases(cases, LexicalJudge(), CONFIG).case_scores.sort("case_id")


def assert_lexical(scores: pl.DataFrame, cases: pl.DataFrame) -> None:
    got = scores.sort("case_id").select(COMPARED)
    assert got.equals(lexical(cases).select(COMPARED)), got


def scored_match_lexical(scores: pl.DataFrame, cases: pl.DataFrame) -> None:
    """Rows the endpoint scored are exactly the lexical judge's rows."""
    scored = scores.filter(pl.col("status") == "scored").select(COMPARED)
    expected = lexical(cases).select(COMPARED).join(scored.select("case_id"), on="case_id")
    assert scored.sort("case_id").equals(expected.sort("case_id"))


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    return KEY


@pytest.fixture
def stub() -> Iterator[StubServer]:
    with serving(api_key=KEY, slow_seconds=8.0, retry_after=0.02) as server:
        yield server


@pytest.fixture
def make_judge(stub: StubServer) -> Iterator[Callable[..., OpenAIJudge]]:
    """OpenAIJudge on the stub with test-sized timeouts and backoffs; closed at teardown."""
    made: list[OpenAIJudge] = []

    def make(**options: object) -> OpenAIJudge:
        settings: dict = {
            "base_url": stub.base_url,
            "mode": "per-item",
            "concurrency": 4,
            # Half the stub's "slow" 8 s: a healthy call on a machine at load 18 took over 0.6 s,
            # was retried and counted twice; 4 s is what a slow fault costs an attempt.
            "timeout": 4.0,
            "max_retries": 2,
            "backoff_base": 0.005,
            "backoff_max": 0.02,
            **options,
        }
        judge = openai_judge("stub-model", **settings)
        made.append(judge)
        return judge

    yield make
    for judge in made:
        judge.close()


# --- healthy server: the lexical scores, deduplicated calls ----------------------------------


@pytest.mark.parametrize(("mode", "requests"), [("per-item", 7), ("packed", 3)])
def test_seed_cases_score_as_the_lexical_judge(make_judge, stub, mode, requests) -> None:
    judge = make_judge(mode=mode)
    frames = score_cases(seed_cases(), judge, CONFIG)
    assert_lexical(frames.case_scores, seed_cases())
    # One passage, three answers, three questions: one call each, or one pack each.
    assert stub.requests == requests == judge.usage()["calls"]
    reasons = dict(frames.case_scores.select("case_id", "reason").iter_rows())
    assert reasons["wrong"] == (
        "The score is 0.50. The context says otherwise about: Order A17 was cancelled."
    )
    assert reasons["grounded"] == "The score is 1.00."


@pytest.mark.parametrize("mode", MODES)
def test_generated_cases_score_as_the_lexical_judge(make_judge, stub, mode) -> None:
    cases = generated_cases(40)
    stub.reverse_items = True  # packed replies in another order: item numbers must be used
    judge = make_judge(mode=mode)
    frames = score_cases(cases, judge, CONFIG)
    assert_lexical(frames.case_scores, cases)
    distinct_passages = cases["retrieval_context"].explode().drop_nulls().n_unique()
    truths_asked = stub.by_schema[TRUTHS] or stub.by_schema[PACKED_TRUTHS]
    expected = distinct_passages if mode == "per-item" else -(-distinct_passages // 8)
    assert truths_asked == expected


def test_llm_reason_asks_the_endpoint(make_judge, stub) -> None:
    judge = make_judge(mode="packed", llm_reason=True)
    frames = score_cases(seed_cases(), judge, CONFIG)
    assert_lexical(frames.case_scores, seed_cases())
    # The pretend judge reads the score back out of the prompt.
    assert frames.case_scores.sort("case_id")["reason"].to_list() == [
        "The score is 1.00.",
        "The score is 1.00.",
        "The score is 0.50.",
    ]
    assert stub.requests == 4


def test_concurrency_is_limited(make_judge, stub) -> None:
    stub.delay = 0.03
    judge = make_judge(concurrency=3)
    cases = generated_cases(30)
    score_cases(cases, judge, CONFIG)
    assert 2 <= stub.max_in_flight <= 3


# --- faults ----------------------------------------------------------------------------------

ONCE = ["429", "500", "slow", "malformed", "truncated", "fewer_verdicts", "reset"]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("fault", ONCE)
def test_a_fault_once_is_retried_to_the_lexical_scores(make_judge, stub, fault, mode) -> None:
    stub.fail(fault)
    judge = make_judge(mode=mode)
    frames = score_cases(seed_cases(), judge, CONFIG)
    assert stub.faults_served[fault] == 1
    assert_lexical(frames.case_scores, seed_cases())
    assert judge.usage()["retries"] == 1
    # A packed reply that lost one item's verdicts was used for the others: not a failed call
    # (issue 16).
    assert judge.usage()["failed"] == (0 if (fault, mode) == ("fewer_verdicts", "packed") else 1)


PERSISTENT = {
    "429": "HTTP 429 from the endpoint: Rate limit reached; gave up after 3 attempts",
    "500": "HTTP 500 from the endpoint: stub fault 500; gave up after 3 attempts",
    "slow": "the endpoint did not answer within 0.5 s; gave up after 3 attempts",
    "reset": "connection to the endpoint failed",
    "malformed": "JudgeReplyError: reply is not one complete JSON object",
    # Cut at 256, asked again with twice the room, cut at the same place: not asked again.
    "truncated": "ReplyCut: the reply was cut twice at the same place",
    "fewer_verdicts": "JudgeReplyError: verdicts do not match the claims one to one",
    "400": "RequestRefused: HTTP 400 from the endpoint: stub fault 400",
}


@pytest.mark.parametrize("fault", PERSISTENT)
def test_a_fault_that_persists_makes_the_cases_invalid(make_judge, stub, fault) -> None:
    stub.fail(fault, times=None)
    # The circuit breaker is off (test_endpoint_breaker.py has it): each call runs its course.
    # Every call is slow here, so no healthy call needs the fixture's 4 s: a 0.5 s deadline.
    deadline = {"timeout": 0.5} if fault == "slow" else {}
    judge = make_judge(breaker_failures=10_000, **deadline)
    cases = seed_cases()
    scores = score_cases(cases, judge, CONFIG).case_scores
    assert scores.height == cases.height
    assert set(scores["status"]) == {"invalid"}
    assert all(PERSISTENT[fault] in error for error in scores["error"]), scores["error"][0]
    assert scores["score"].null_count() == cases.height
    retried = {"400": 0, "malformed": 1, "truncated": 1, "fewer_verdicts": 1}.get(fault, 2)
    # The verdicts of three answers; or the one passage and the three answers (claims are
    # asked whatever became of the truths).
    asked = 3 if fault == "fewer_verdicts" else 4
    expected = asked * (1 + retried)
    if fault == "400":
        # A 400 naming nothing may be a refused response_format: a call steps down to none, and,
        # refused there too, json_schema is asked again by the next call. At most three requests
        # a call; fewer when it starts in a format another call in flight stepped down to.
        assert asked + 2 <= stub.faults_served[fault] <= 3 * asked
        return
    if fault == "slow":
        # Every attempt was made and given up on at its deadline: the judge's own count. The
        # stub's may fall short, not over: the 0.5 s deadline covers sending the request too,
        # and on a loaded machine an attempt can end before its request is read whole (10 of
        # 12 counted at load 5, after a 30 s wait).
        assert judge.usage()["retries"] == asked * retried
        assert 0 < stub.faults_served[fault] <= expected
        return
    # The stub counts a request as it reads it: on a loaded machine the last call's may still
    # be on its way when the judge is done. A hang guard, not a promise: more than expected
    # still fails below.
    deadline = time.monotonic() + 30
    while stub.faults_served[fault] < expected and time.monotonic() < deadline:
        time.sleep(0.02)
    assert stub.faults_served[fault] == expected


def test_a_reply_cut_twice_in_per_item_mode_advises_what_per_item_mode_can_change(
    make_judge, stub
) -> None:
    """Cut twice is per-item mode's error (its second ask, with twice the room): it advised
    `Try --judge-mode per-item`, the mode the run was in."""
    stub.fail("truncated", times=None)
    judge = make_judge(mode="per-item", breaker_failures=10_000)
    errors = score_cases(seed_cases(), judge, CONFIG).case_scores["error"].to_list()
    assert all("cut twice at the same place" in error for error in errors), errors[0]
    assert not any("--judge-mode per-item" in error for error in errors), errors[0]
    assert all("another model" in error for error in errors), errors[0]


@pytest.mark.parametrize("fault", ["html", "empty", "wrong_shape"])
def test_an_answer_that_is_no_chat_completion_is_retried_and_frees_its_slot(
    make_judge, stub, fault
) -> None:
    stub.fail(fault, times=3)
    judge = make_judge(concurrency=1)
    with pytest.raises(JudgeTransientError, match=r"not a chat completion.*gave up after 3"):
        judge.answer_claims("Order A17 shipped.")
    assert judge.usage()["retries"] == 2
    # Every failed call handed its one slot back: the next call is answered at once.
    assert judge.answer_claims("Order A17 shipped.") == ["Order A17 shipped."]


def test_a_bug_in_the_llm_judge_stops_scoring_naming_the_judge(
    make_judge, stub, monkeypatch: pytest.MonkeyPatch
) -> None:
    judge = make_judge(mode="packed")

    def broken(*args: object, **kwargs: object) -> None:
        raise KeyError("verdicts")

    monkeypatch.setattr(judge._asking.store, "read_reply", broken)
    with pytest.raises(JudgeCrashed, match=r"judge openai/stub-model crashed .*KeyError"):
        score_cases(generated_cases(40), judge, CONFIG)


@pytest.mark.parametrize(
    ("fault", "message"),
    [
        ("401", "the endpoint refused the API key read from $OPENAI_API_KEY (HTTP 401)"),
        ("404", "the endpoint has no model 'stub-model' or no chat-completions route"),
    ],
)
def test_a_refusing_endpoint_fails_every_item_fast(make_judge, stub, fault, message) -> None:
    stub.fail(fault, times=None)
    judge = make_judge(concurrency=1)
    cases = generated_cases(20)
    scores = score_cases(cases, judge, CONFIG).case_scores
    assert stub.requests == 1
    judged = scores.filter(pl.col("case_id") != "no-context")
    assert set(judged["status"]) == {"invalid"}
    assert all(message in error for error in judged["error"])
    assert judge.fatal_error is not None
    assert message in judge.fatal_error


def test_a_refused_key_is_not_hammered_with_concurrency(make_judge, stub) -> None:
    stub.fail("401", times=None)
    judge = make_judge(concurrency=4)
    scores = score_cases(generated_cases(30), judge, CONFIG).case_scores
    assert stub.requests <= 4
    assert scores.height == 31  # 30 generated, and one without context


def test_retry_after_is_honoured(make_judge, stub) -> None:
    stub.retry_after = 0.4  # far above the test backoff of at most 0.02 s
    stub.fail("429")
    judge = make_judge()
    score_cases(seed_cases().head(1), judge, CONFIG)
    first, second = stub.request_times[:2]
    assert second - first >= 0.4
    assert judge.usage()["throttled"] == 1


def test_retry_after_header_forms() -> None:
    assert _retry_after({"retry-after": "2"}, 60) == 2.0
    assert _retry_after({"retry-after-ms": "250", "retry-after": "1"}, 60) == 0.25
    assert _retry_after({"retry-after": "3600"}, 60) == 60
    later = format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True)
    assert 25 <= (_retry_after({"retry-after": later}, 60) or 0) <= 30
    assert _retry_after({"retry-after": "soon"}, 60) is None
    # a hostile `nan` is no wait, and hides no other header's
    assert _retry_after({"retry-after": "nan"}, 60) is None
    assert _retry_after({"retry-after-ms": "NaN", "retry-after": "1"}, 60) == 1.0
    assert _retry_after({}, 60) is None


def test_adaptive_limiter_halves_once_per_round_and_recovers() -> None:
    limiter = AdaptiveLimiter(8)
    tickets = [limiter.acquire() for _ in range(8)]
    for ticket in tickets[:3]:  # a burst of 429s from requests sent at the same limit
        limiter.release(ticket, ok=False, throttled=True)
    assert limiter.limit == 4
    for ticket in tickets[3:]:  # 4 successes in a row at limit 4: one more slot
        limiter.release(ticket, ok=True)
    assert limiter.limit == 5
    for _ in range(4):  # 1 + 4 successes at limit 5
        limiter.release(limiter.acquire(), ok=True)
    assert limiter.limit == 6
    limiter.release(limiter.acquire(), ok=False)  # a 500 neither grows nor shrinks
    assert limiter.limit == 6


def test_adaptive_limiter_pauses_everyone_for_retry_after() -> None:
    limiter = AdaptiveLimiter(2)
    limiter.release(limiter.acquire(), ok=False, throttled=True, retry_after=0.2)
    started = time.monotonic()
    limiter.acquire()
    assert time.monotonic() - started >= 0.19
    assert limiter.limit == 1


def test_a_wait_for_a_slot_ends_when_the_judge_stops() -> None:
    limiter = AdaptiveLimiter(1)
    limiter.acquire()
    stop = threading.Event()
    stopper = threading.Timer(0.2, stop.set)
    stopper.start()
    started = time.monotonic()
    with pytest.raises(JudgeTransientError, match="stopped"):
        limiter.acquire(stop)
    stopper.join()
    # The slot is never handed back: without the stop the wait would last until its deadline
    # (the next test); the stop comes at 0.2 s, and any load leaves it far below 10 s.
    assert time.monotonic() - started < 10


def test_a_slot_never_handed_back_is_an_error_not_a_hang() -> None:
    limiter = AdaptiveLimiter(1, patience=0.2)
    limiter.acquire()
    with pytest.raises(JudgeTransientError, match=r"no request slot came free within 0\.2 s"):
        limiter.acquire()


@pytest.mark.parametrize(
    ("refused", "used"),
    [(("json_schema",), "json_object"), (("json_schema", "json_object"), "text")],
)
def test_structured_output_falls_back_and_remembers(make_judge, stub, refused, used) -> None:
    stub.reject_formats(*refused)
    judge = make_judge(mode="packed")
    cases = generated_cases(20)
    assert_lexical(score_cases(cases, judge, CONFIG).case_scores, cases)
    assert judge.response_format == used
    assert stub.faults_served["response_format"] == len(refused)


def test_twenty_percent_random_faults_lose_no_case(make_judge, stub, tmp_path) -> None:
    cases = generated_cases(60)
    con = open_store(tmp_path / "faith.duckdb")
    cache = ReplyCache(con)
    stub.fail_randomly(0.2)
    # A 1 s deadline for the faulty run: a slow fault costs 1 s, not 4; a healthy call that a
    # loaded machine makes slower only adds an invalid case, which the healed run then scores.
    faulty = make_judge(cache=cache, max_retries=0, timeout=1.0)
    first = score_cases(cases, faulty, CONFIG).case_scores
    assert sum(stub.faults_served.values()) >= 10
    assert first.height == cases.height
    assert set(first["status"]) <= {"scored", "invalid"}
    assert first.filter(pl.col("status") == "invalid")["error"].null_count() == 0
    scored_match_lexical(first, cases)

    stub.heal()
    retry = cases.join(first.filter(pl.col("status") == "invalid").select("case_id"), on="case_id")
    lexically_invalid = lexical(cases).filter(pl.col("status") == "invalid")["case_id"]
    assert retry.height > lexically_invalid.len()  # the faults did make cases invalid
    second = score_cases(retry, make_judge(cache=cache), CONFIG).case_scores
    assert second.filter(pl.col("status") == "invalid")["case_id"].to_list() == ["no-context"]
    assert_lexical(second, retry)
    cache.close()
    con.close()


# --- paying once -----------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_a_second_identical_run_makes_no_request(make_judge, stub, tmp_path, mode) -> None:
    cases = generated_cases(15)
    path = tmp_path / "faith.duckdb"
    with open_store(path) as con, ReplyCache(con) as cache:
        first = score_cases(cases, make_judge(mode=mode, cache=cache), CONFIG).case_scores
    assert stub.requests > 0
    stub.reset_counts()
    with open_store(path) as con, ReplyCache(con) as cache:
        judge = make_judge(mode=mode, cache=cache)
        second = score_cases(cases, judge, CONFIG).case_scores
    assert stub.requests == 0
    assert judge.usage()["calls"] == 0
    assert judge.usage()["cached"] > 0
    assert second.select(COMPARED).equals(first.select(COMPARED))
    assert_lexical(second, cases)


def test_an_interrupted_run_pays_only_for_the_rest(make_judge, stub, tmp_path) -> None:
    cases = generated_cases(16)
    score_cases(cases, make_judge(), CONFIG)
    full = stub.requests
    stub.reset_counts()
    with open_store(tmp_path / "faith.duckdb") as con, ReplyCache(con) as cache:
        capped = score_cases(cases, make_judge(cache=cache, max_calls=full // 2), CONFIG)
        assert "pending" in set(capped.case_scores["status"])
        paid_first = stub.requests
        stub.reset_counts()
        rest = score_cases(cases, make_judge(cache=cache), CONFIG).case_scores
    assert paid_first == full // 2
    assert stub.requests == full - paid_first
    assert_lexical(rest, cases)


def test_every_passage_is_asked_once_across_batches(make_judge, stub, tmp_path) -> None:
    cases = generated_cases(20)
    with open_store(tmp_path / "faith.duckdb") as con, ReplyCache(con) as cache:
        judge = make_judge(cache=cache, track_items=True)
        for batch in cases.iter_slices(5):
            score_cases(batch, judge, CONFIG)
    assert stub.by_schema[TRUTHS] == cases["retrieval_context"].explode().drop_nulls().n_unique()
    assert stub.by_schema[CLAIMS] == cases["actual_output"].n_unique()
    usage = judge.drain_item_usage()
    assert set(usage["stage"]) == {"truths", "claims", "verdicts"}
    assert usage["cached"].any()
    assert usage["calls"].sum() == pytest.approx(stub.requests)


@pytest.mark.parametrize(
    ("cap", "message"),
    [
        ({"max_calls": 1}, "the run's cap of 1 judge calls is reached"),
        ({"max_tokens": 1}, "the run's cap of 1 judge tokens is reached"),
        ({"max_calls": 0}, "the run's cap of 0 judge calls is reached"),
    ],
)
def test_caps_leave_cases_pending(make_judge, stub, cap, message) -> None:
    cases = generated_cases(12)
    scores = score_cases(cases, make_judge(mode="packed", **cap), CONFIG).case_scores
    judged = scores.filter(pl.col("case_id") != "no-context")
    assert set(judged["status"]) == {"pending"}
    assert all(message in error for error in judged["error"])
    # a call expected to cost more than the cap left is not made: none for 1 token
    assert stub.requests == min(1, cap.get("max_calls", 1)) - ("max_tokens" in cap)


def test_a_token_cap_is_not_overrun_by_the_calls_in_flight(make_judge, stub) -> None:
    """--max-tokens was checked against answered calls alone: with 4 calls in flight a cap
    of a few calls' tokens was overrun by the calls sent while it still looked unspent."""
    cases = generated_cases(24)
    one = make_judge(mode="per-item", concurrency=1, max_calls=1)
    score_cases(cases, one, CONFIG)
    call = one.usage()["prompt_tokens"] + one.usage()["completion_tokens"]
    stub.reset_counts()
    cap = int(2.5 * call)
    capped = make_judge(mode="per-item", concurrency=4, max_tokens=cap)
    scores = score_cases(cases, capped, CONFIG).case_scores
    spent = capped.usage()["prompt_tokens"] + capped.usage()["completion_tokens"]
    assert 1 <= stub.requests <= 3
    assert spent <= cap
    assert "pending" in set(scores["status"])
    # a call that may fit once the calls in flight end waits for them: refused on that guess
    # alone, the cap was taken as reached for good, after 2 calls of the 10 it could pay
    stub.reset_counts()
    roomy = make_judge(
        mode="per-item", concurrency=8, max_tokens=10 * call, max_output_tokens=2_000
    )
    score_cases(cases, roomy, CONFIG)
    assert roomy.usage()["prompt_tokens"] + roomy.usage()["completion_tokens"] <= 10 * call
    assert stub.requests >= 7
    # a call that waited is checked whole again: --max-calls filled meanwhile holds
    stub.reset_counts()
    both = make_judge(
        mode="per-item", concurrency=8, max_tokens=10 * call, max_output_tokens=2_000, max_calls=3
    )
    score_cases(cases, both, CONFIG)
    assert stub.requests == both.usage()["calls"] == 3


def test_a_call_waiting_for_token_room_leaves_at_once_when_the_judge_stops(
    make_judge, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A call that fits --max-tokens only once the calls in flight end waits for them; a stop
    wakes it (with its look-again interval made an hour long, only the stop can)."""
    from flows.judges.endpoint import transport

    monkeypatch.setattr(transport, "ROOM_WAIT_SECONDS", 3_600.0)
    judge = make_judge(mode="per-item", max_tokens=1_000)
    chat = judge._chat
    with chat._lock:
        chat._tokens_in_flight = 900  # a call in flight that never ends
    outcome: list[BaseException] = []

    def reserve() -> None:
        try:
            chat._reserve_call(200)
        except Exception as exc:  # what the waiting call raised, for the assertion below
            outcome.append(exc)

    waiting = threading.Thread(target=reserve, daemon=True)
    waiting.start()
    waiting.join(0.3)
    assert waiting.is_alive()  # waits: 900 in flight + 200 > 1,000, 200 alone fits
    judge.stop()
    waiting.join(60)
    assert not waiting.is_alive()
    assert [type(exc).__name__ for exc in outcome] == ["JudgeTransientError"]


# --- the API key -----------------------------------------------------------------------------


def test_the_api_key_appears_nowhere(make_judge, stub, tmp_path, caplog, capsys) -> None:
    caplog.set_level(logging.DEBUG)
    path = tmp_path / "faith.duckdb"
    con = open_store(path)
    cache = ReplyCache(con)
    judge = make_judge(cache=cache, llm_reason=True)
    stub.fail("500")
    stub.fail("malformed")
    frames = score_cases(generated_cases(10), judge, CONFIG)
    stub.fail("401", times=None)  # the stub echoes the refused key in its error message
    refused = score_cases(seed_cases(), make_judge(cache=cache), CONFIG)
    cache.close()
    judge.close()
    con.close()

    assert judge.fatal_error is None
    assert "stub-model" in repr(judge)
    texts = [
        repr(judge),
        json.dumps(judge.identity.as_dict()),
        json.dumps(judge.usage()),
        *(
            json.dumps(frame.to_dicts(), default=str)
            for frame in (frames.case_scores, frames.claim_verdicts, refused.case_scores)
        ),
        caplog.text,
        *capsys.readouterr(),
    ]
    assert "refused the API key" in refused.case_scores["error"][0]
    assert caplog.records, "logs were captured"
    for text in texts:
        assert KEY not in text
    for file in tmp_path.rglob("*"):
        if file.is_file():
            assert KEY.encode() not in file.read_bytes(), file


def test_a_missing_key_says_which_variable_to_set(monkeypatch) -> None:
    monkeypatch.delenv("FAITH_TEST_KEY", raising=False)
    with pytest.raises(ConfigError, match="FAITH_TEST_KEY, which is not set"):
        openai_judge("m", api_key_env="FAITH_TEST_KEY")


@pytest.mark.parametrize(
    ("settings", "options", "message"),
    [
        ({"mode": "combined"}, {}, "unknown judge mode 'combined'"),
        ({"model": None}, {}, "--judge openai needs --model NAME"),
        ({}, {"policy": CallPolicy(max_retries=-1)}, "max_retries must be an integer >= 0"),
        ({}, {"packing": Packing(size=0)}, "pack_size must be an integer >= 1"),
        ({"kind": "lexical"}, {}, r"OpenAIJudge takes JudgeSettings\(kind='openai'"),
    ],
)
def test_wrong_settings_are_refused_when_built(settings, options, message) -> None:
    # The judge takes its wing's typed settings (issue 21: not 24 loose parameters).
    with pytest.raises(ConfigError, match=message):
        OpenAIJudge(JudgeSettings(**{"kind": "openai", "model": "m", **settings}), **options)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"concurrency": 0}, "concurrency"),
        ({"max_calls": -1}, "max_calls"),
        ({"timeout": 0}, "timeout"),
    ],
)
def test_settings_out_of_bounds_are_refused_before_any_judge(settings, message) -> None:
    with pytest.raises(ValidationError, match=message):
        JudgeSettings(kind="openai", model="m", **settings)


def test_the_wing_pages_example_builds_the_judge_from_its_settings() -> None:
    page = (ROOT / "docs" / "architecture-wing.md").read_text()
    example = next(
        block
        for block in re.findall(r"```python\n(.*?)```", page, re.DOTALL)
        if "OpenAIJudge(settings)" in block
    )
    found: dict[str, object] = {}
    exec(example, found)  # the page's own example, run as a reader would
    built, plain = found["built"], found["plain"]
    try:
        assert isinstance(built, OpenAIJudge)
        assert isinstance(plain, OpenAIJudge)
        assert built.identity == plain.identity
        assert built.identity.model == "gpt-4o-mini"
    finally:
        built.close()
        plain.close()


def test_identity_names_the_mode_and_not_the_endpoint(stub) -> None:
    a = openai_judge("gpt-x", base_url=stub.base_url, mode="packed")
    b = openai_judge("gpt-x", base_url="https://user:secret@proxy.example:8443/v1", mode="packed")
    c = openai_judge("gpt-x", mode="per-item")
    try:
        assert a.identity == b.identity != c.identity
        assert a.identity.kind == "openai"
        assert "secret" not in repr(b)
        assert "proxy.example:8443" in repr(b)
        assert CONFIG.config_id(a.identity) != CONFIG.config_id(c.identity)
    finally:
        for judge in (a, b, c):
            judge.close()


def test_verdicts_one_to_one_in_packed_mode(make_judge, stub) -> None:
    stub.fail("fewer_verdicts", schema=PACKED_VERDICTS)
    judge = make_judge(mode="packed")
    cases = generated_cases(20)
    assert_lexical(score_cases(cases, judge, CONFIG).case_scores, cases)
    questions = cases.filter(
        (pl.col("retrieval_context").list.len() > 0)
        & (pl.col("actual_output").str.strip_chars() != "")
    ).unique(["actual_output", "retrieval_context"])
    # Only the item that lost a verdict was asked again, alone, with the one-item template
    # (issue 27: never a smaller pack renumbered from 1).
    assert stub.by_schema[PACKED_VERDICTS] == -(-questions.height // 8)
    assert stub.by_schema[VERDICTS] == 1


def test_a_later_batch_finds_the_answer_of_an_item_its_pack_escalated(
    make_judge, stub, tmp_path
) -> None:
    # One run's batches share a judge and its cache; the item whose verdict the pack lost is
    # asked alone once, and a later batch holding the same question asks nothing.
    stub.fail("fewer_verdicts", schema=PACKED_VERDICTS)
    cases = generated_cases(20)
    with open_store(tmp_path / "faith.duckdb") as con, ReplyCache(con) as cache:
        judge = make_judge(mode="packed", cache=cache)
        first = score_cases(cases, judge, CONFIG).case_scores
        assert stub.by_schema[VERDICTS] == 1
        stub.reset_counts()
        again = score_cases(cases, judge, CONFIG).case_scores
    assert stub.requests == 0, dict(stub.by_schema)
    assert again.select(COMPARED).equals(first.select(COMPARED))
    assert_lexical(again, cases)


def test_no_stub_thread_outlives_the_server() -> None:
    before = threading.active_count()
    with StubServer() as server:
        server.delay = 0.01
        judge = openai_judge("stub-model", base_url=server.base_url, mode="per-item", timeout=2)
        assert judge.answer_claims("Order A17 shipped.") == ["Order A17 shipped."]
        judge.close()
        assert server.requests == 1  # a handler thread served it
    assert threading.active_count() == before


def test_one_item_questions(make_judge, stub) -> None:
    judge = make_judge()
    assert judge.answer_claims("Order A17 shipped. It is late.") == [
        "Order A17 shipped.",
        "It is late.",
    ]
    assert judge.answer_verdicts(["Order A17 shipped."], [POLICY[0]]) == [("yes", None)]
    assert judge.answer_reason(0.5, ["X is wrong"]) == "The score is 0.50. X is wrong."
    stub.fail("500", times=None)
    with pytest.raises(JudgeTransientError, match="HTTP 500"):
        judge.answer_truths("Order A17 shipped.", None)


def test_big_items_are_packed_by_size(make_judge, stub) -> None:
    judge = make_judge(mode="packed", pack_size=8, pack_chars=100)
    texts = [f"Passage {i} is about order Q{i}. " * 3 for i in range(6)]  # ~90 chars each
    items = pl.DataFrame({"key": pl.Series(range(6), dtype=pl.UInt64), "text": texts})
    answer = judge.truths(items, None)
    assert answer["error"].null_count() == 6
    assert stub.by_schema[PACKED_TRUTHS] == 6
