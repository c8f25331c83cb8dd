"""An endpoint that fails the same way call after call ends the run in seconds (issue 22, 3).

`faith score` against a refused port, a host name that does not resolve, TLS spoken to a
plain-HTTP server, a black hole (accepts, never answers), a proxy answering every call with a
200 that is no chat completion and a server answering every call 429 with
`Retry-After: 86400`: the circuit breaker opens after `--breaker-failures` failures
of one kind in a row, no further call is made, the run exits 6 with one line, and every row
is accounted for, the judged ones `pending`. Bounds are what the servers saw (requests,
connections), never the clock.

The refused port runs `faith` in a process of its own with a hard timeout (the exit code and
the line as the shell gets them); the other trials call the same entry point in this process
(`main(argv)`: its exit code, its stderr), which spares each a start of the interpreter.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from tests.support.black_hole import CUT_SHORT, NOT_HTTP, BlackHole, CutShort, free_port
from tests.support.builders import case_row, cases, write
from tests.support.cli_run import Done, faith_here
from tests.support.db_reading import query
from tests.support.llm_judge import shorten_backoff
from tests.support.openai_stub import StubServer, serving

FAITH = Path(sys.executable).with_name("faith")
KEY = "sk-breaker-test-key"
ROWS, CONCURRENCY, BREAKER = 200, 4, 5
# At most this many requests reach a failing endpoint: the breaker's count, and the calls
# already in flight when it opened; timeouts and 5xx count past the calls in flight too.
MOST_REQUESTS = BREAKER + CONCURRENCY
MOST_TIMEOUTS = BREAKER + 2 * CONCURRENCY


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """The key, and test-sized waits between attempts in this process: the breaker counts
    failures; the product's waits between them (0.5 s doubling) only space them out."""
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    shorten_backoff(monkeypatch)


@pytest.fixture
def source(tmp_path: Path) -> Path:
    """ROWS cases with distinct answers and passages: without a breaker, 25+ packs of calls,
    each tried five times."""
    return write(
        cases(
            [
                case_row(
                    f"c{i:04d}",
                    f"Order B{i} shipped on day {i}.",
                    retrieval_context=[f"Order B{i} shipped on day {i}.", f"Ticket {i} is open."],
                )
                for i in range(ROWS)
            ]
        ),
        tmp_path / "cases.parquet",
    )


def score_argv(source: Path, db: Path, base_url: str, *options: str) -> list[str]:
    return ["score", str(source), "--db", str(db), "--prefect", "no",
            "--judge", "openai", "--model", "stub-model", "--base-url", base_url,
            "--concurrency", str(CONCURRENCY), "--breaker-failures", str(BREAKER),
            *options]  # fmt: skip


def faith_score(
    capsys: pytest.CaptureFixture[str], source: Path, db: Path, base_url: str, *options: str
) -> Done:
    return faith_here(capsys, *score_argv(source, db, base_url, *options))


def run_row(db: Path) -> dict:
    con = duckdb.connect(str(db), read_only=True)
    try:
        frame = con.sql(
            "SELECT status, error, rows_in, rows_scored, rows_invalid, rows_pending, "
            "rows_quarantined, judge_calls FROM runs"
        ).pl()
        statuses = con.sql("SELECT DISTINCT status FROM case_scores").fetchall()
    finally:
        con.close()
    assert frame.height == 1
    row = frame.row(0, named=True)
    parts = ("rows_scored", "rows_invalid", "rows_pending", "rows_quarantined")
    assert row["rows_in"] == ROWS == sum(row[part] for part in parts), row
    return {**row, "case_statuses": {status for (status,) in statuses}}


def assert_ended_by_the_breaker(
    done: Done, db: Path, what: str | tuple[str, ...], most: int = MOST_REQUESTS
) -> None:
    """`what`: what the error line says of the endpoint (one of them, when a tuple)."""
    whats = (what,) if isinstance(what, str) else what
    assert done.returncode == 6, done.stderr
    (error,) = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert any(each in error for each in whats), done.stderr
    assert "in a row" in error
    row = run_row(db)
    assert row["status"] == "failed"
    assert any(each in row["error"] for each in whats)
    assert row["rows_pending"] == ROWS, row
    assert row["case_statuses"] == {"pending"}
    assert row["judge_calls"] <= most


@pytest.mark.slow  # faith in a process of its own (~10 s under load)
def test_a_refused_port_opens_the_breaker(source: Path, tmp_path: Path) -> None:
    db = tmp_path / "refused.duckdb"
    argv = [str(FAITH), *score_argv(source, db, f"http://127.0.0.1:{free_port()}/v1")]
    env = {**os.environ, "OPENAI_API_KEY": KEY}
    ran = subprocess.run(argv, capture_output=True, text=True, timeout=300, env=env, check=False)
    assert_ended_by_the_breaker(Done.of(ran), db, "refused the connection")


def test_a_host_that_does_not_resolve_is_exit_6(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "dns.duckdb"
    done = faith_score(capsys, source, db, "http://faithpipe-no-such-host.invalid/v1")
    assert_ended_by_the_breaker(done, db, "does not resolve")


def test_tls_spoken_to_a_plain_http_server_is_exit_6(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "tls.duckdb"
    with serving() as stub:
        done = faith_score(capsys, source, db, f"https://127.0.0.1:{stub.port}/v1")
    assert stub.requests == 0  # no request ever got through
    assert_ended_by_the_breaker(done, db, "TLS handshake")


@pytest.mark.parametrize(
    ("answer", "what"),
    [
        # the close lands as a cut answer or, while the request is still being sent, a reset:
        # counted as one kind in a row, named as the one that opened the breaker
        (CUT_SHORT, ("closed the connection before its answer was complete", "reset the")),
        (NOT_HTTP, ("answered with something that is not HTTP",)),
    ],
)
def test_a_server_that_hangs_up_mid_answer_is_told_apart_from_one_never_reached(
    source: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    answer: bytes,
    what: tuple[str, ...],
) -> None:
    """Both said "could not be connected to": an operator looked for a firewall when the
    server had died mid-answer, or another service held the port. A mix of closes and resets
    kept the breaker shut past its count (12 requests where 9 are the most)."""
    db = tmp_path / "cut.duckdb"
    with CutShort(answer) as server:
        done = faith_score(capsys, source, db, server.base_url)
    assert_ended_by_the_breaker(done, db, what)
    assert server.connections <= MOST_REQUESTS


@pytest.mark.parametrize("answer", ["html", "empty", "wrong_shape"])
def test_a_proxy_answering_every_call_with_no_chat_completion_opens_the_breaker(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], answer: str
) -> None:
    """A 200 holding a proxy's HTML page (an empty body, JSON of another shape) for every
    call: each call was tried five times and every case ended invalid (200 rows: 285 requests,
    exit 8), as if the judge had failed; the endpoint is what fails, as with a 5xx."""
    db = tmp_path / "proxy.duckdb"
    with serving() as stub:
        stub.fail(answer, times=None)
        done = faith_score(capsys, source, db, stub.base_url)
    assert_ended_by_the_breaker(done, db, "answered with something that is not a chat completion")
    assert stub.requests <= MOST_REQUESTS


@pytest.mark.parametrize("status", [b"307 Temporary Redirect", b"301 Moved Permanently"])
def test_a_redirect_to_another_origin_is_not_followed(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], status: bytes
) -> None:
    """A gateway answering 307 to another host: followed, the prompts (logged conversations)
    went to a server the run was never told of (a 301 turned them into a GET whose error
    read as a wrong model). Not followed: exit 6 at the first call, naming the redirect; the
    other server gets nothing."""
    db = tmp_path / "redirect.duckdb"
    with serving() as elsewhere:
        answer = (
            b"HTTP/1.1 " + status + b"\r\nLocation: " + elsewhere.base_url.encode()
            + b"/chat/completions\r\nContent-Length: 0\r\n\r\n"
        )  # fmt: skip
        with CutShort(answer) as gateway:
            done = faith_score(capsys, source, db, gateway.base_url)
    assert elsewhere.requests == 0
    assert done.returncode == 6, done.stderr
    assert f"redirected the call to {elsewhere.base_url.removesuffix('/v1')}, another host" in (
        done.stderr
    )
    row = run_row(db)
    assert row["rows_pending"] == ROWS
    assert gateway.connections <= CONCURRENCY  # opened at the first: it will not pass


def test_a_key_echoed_into_a_redirects_host_is_named_nowhere(
    source: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A gateway that echoes the key into the host of its redirect: the target was named as
    urlsplit gives it, lower-cased, so the scrub (which looks for the key as sent) let it into
    the error line, `runs.error` and every case's error."""
    key = "FaithKey7Qx2Lm9Rt4Vw8Zy3"
    monkeypatch.setenv("OPENAI_API_KEY", key)
    db = tmp_path / "echoed.duckdb"
    answer = (
        b"HTTP/1.1 307 Temporary Redirect\r\nLocation: http://" + key.encode()
        + b".collect.example:81/v1/chat/completions\r\nContent-Length: 0\r\n\r\n"
    )  # fmt: skip
    with CutShort(answer) as gateway:
        done = faith_score(capsys, source, db, gateway.base_url)
    assert done.returncode == 6, done.stderr
    assert ".collect.example:81, another host" in done.stderr
    stored = query(db, "SELECT error FROM runs UNION ALL SELECT error FROM case_scores")
    for text in [done.stderr, done.stdout, *(error or "" for (error,) in stored)]:
        assert key.lower() not in text.lower(), text


def test_a_redirect_loop_within_the_origin_is_named_as_one(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A server that redirects every call to its own path again (a misrouted gateway): the
    client gives up after 20 redirects, each call. The breaker's line said the endpoint
    `could not be connected to`, and the user looked at the network; it was reached 21 times
    a call, and sent the call back each time."""
    db = tmp_path / "loop.duckdb"
    answer = (
        b"HTTP/1.1 307 Temporary Redirect\r\nLocation: /v1/chat/completions\r\n"
        b"Content-Length: 0\r\nConnection: close\r\n\r\n"
    )
    with CutShort(answer) as gateway:
        done = faith_score(capsys, source, db, gateway.base_url)
    assert_ended_by_the_breaker(done, db, "redirected every call back to itself")
    assert "could not be connected to" not in done.stderr


def test_a_black_hole_opens_the_breaker_after_a_few_deadlines(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "hole.duckdb"
    with BlackHole() as hole:
        done = faith_score(capsys, source, db, hole.base_url, "--timeout", "0.3")
    assert_ended_by_the_breaker(
        done, db, "did not answer within the call deadline", most=MOST_TIMEOUTS
    )
    assert hole.connections <= MOST_TIMEOUTS


def test_408_to_every_call_opens_the_breaker(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A server or proxy timing out every request (HTTP 408) counted for no kind: every call
    was tried five times and given up, its cases invalid, and a night of millions of rows
    asked it until its deadline. It now counts as a timeout does (past the calls in
    flight), and the line says what was answered."""
    db = tmp_path / "408.duckdb"
    with serving() as stub:
        stub.fail("408", times=None)
        done = faith_score(capsys, source, db, stub.base_url)
        requests = stub.requests
    assert_ended_by_the_breaker(done, db, "answered HTTP 408 (request timeout", MOST_TIMEOUTS)
    assert requests <= MOST_TIMEOUTS


def test_409_to_every_call_opens_the_breaker(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """409 (conflict) is retried as the openai client retries it, and counted for no kind:
    forever, every call was tried five times, its cases invalid, to the run's end."""
    db = tmp_path / "409.duckdb"
    with serving() as stub:
        stub.fail("409", times=None)
        done = faith_score(capsys, source, db, stub.base_url)
        requests = stub.requests
    assert_ended_by_the_breaker(done, db, "answered HTTP 409 (conflict)")
    assert requests <= MOST_REQUESTS


def test_a_passing_408_is_asked_again(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A call's first four attempts answered 408, then answers: retried as before (not a
    breaker opened at once), every case scored."""
    db = tmp_path / "408-once.duckdb"
    with serving() as stub:
        stub.fail("408", times=4)
        done = faith_score(capsys, source, db, stub.base_url, "--concurrency", "1")
    assert done.returncode == 0, done.stderr
    row = run_row(db)
    assert (row["status"], row["rows_scored"]) == ("completed", ROWS)


@pytest.fixture
def throttling() -> Iterator[StubServer]:
    """Every call answered 429 with Retry-After: 86400 (a day)."""
    with serving(retry_after=86400.0) as stub:
        stub.fail("429", times=None)
        yield stub


def test_a_retry_after_of_a_day_is_not_waited_for(
    throttling: StubServer, source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "429.duckdb"
    done = faith_score(capsys, source, db, throttling.base_url)
    assert_ended_by_the_breaker(done, db, "asked to wait longer than the run can")
    assert throttling.requests <= MOST_REQUESTS


def test_a_long_retry_after_leaves_the_case_pending_without_waiting(
    throttling: StubServer, source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Below the breaker's count, a call told to wait a day ends at once, its cases pending."""
    throttling.heal()
    throttling.fail("429", times=1)
    db = tmp_path / "once.duckdb"
    done = faith_score(
        capsys, source, db, throttling.base_url, "--concurrency", "1", "--max-calls", "3"
    )
    assert done.returncode == 0, done.stderr
    con = duckdb.connect(str(db), read_only=True)
    try:
        (waited,) = con.execute(
            "SELECT count(*) FROM case_scores WHERE status = 'pending' "
            "AND error LIKE '%Retry-After%not waited for%'"
        ).fetchone()
    finally:
        con.close()
    assert waited > 0
    assert throttling.faults_served["429"] == 1


def test_calls_given_up_on_429s_in_a_row_open_the_breaker(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A 429 at every retry with a short Retry-After was waited for and asked again for
    ever, each call giving up after five tries: 200 cases took 58 requests in 4 minutes with
    none done, and a night of millions sat until its deadline (exit 14). N calls given up on
    429s in a row now end the run (exit 6), every row accounted for."""
    with serving() as stub:  # Retry-After: 0.02 s, a wait the run can give
        stub.fail("429", times=None)
        db = tmp_path / "rate.duckdb"
        done = faith_score(capsys, source, db, stub.base_url, "--concurrency", "1")
        requests = stub.requests
    assert done.returncode == 6, done.stderr
    (error,) = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert (
        f"answered HTTP 429 (rate limited) to every retry of a call, {BREAKER} calls in a row: "
        "lower --concurrency, or set --rpm and --tpm to the account's limits; no further calls"
    ) in error
    row = run_row(db)  # rows in = scored + invalid + pending + quarantined
    assert (row["status"], row["rows_scored"]) == ("failed", 0)
    assert row["rows_pending"] > 0
    assert requests <= BREAKER * 5  # five calls, each tried five times (its four retries)


@pytest.mark.parametrize("command", ["judge-check", "nightly"])
def test_the_judge_check_of_an_unreachable_endpoint_is_exit_6(
    command: str, source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`faith judge-check`, and the check `faith nightly` starts with: exit 6, not 9
    (unusable), and nothing scored."""
    db = tmp_path / "check.duckdb"
    argv = [command, "--db", str(db), "--model", "stub-model",
            "--base-url", "http://faithpipe-no-such-host.invalid/v1"]  # fmt: skip
    if command == "nightly":
        argv += [str(source), "--judge", "openai", "--prefect", "no"]
    done = faith_here(capsys, *argv)
    assert done.returncode == 6, done.stderr
    assert "does not resolve" in done.stderr.splitlines()[-1]
    # a check has no cases: it said "the cases left stay pending", a run's words
    assert "pending" not in done.stderr
    assert "fix the endpoint (or --base-url) and run again" in done.stderr.splitlines()[-1]
    con = duckdb.connect(str(db), read_only=True)
    try:
        assert con.execute("SELECT count(*) FROM case_scores").fetchone() == (0,)
    finally:
        con.close()


@pytest.mark.parametrize("mode", ["packed", "batch"])
@pytest.mark.parametrize("fault", ["500", "408"])
def test_a_nightly_check_of_an_endpoint_failing_every_call_is_exit_6(
    fault: str, mode: str, source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """5xx (or 408) to every call of the nightly check, its mode given: the check's four calls
    in flight gave the breaker slack past its 2 (6 in a row), the calls gave up first, and the
    night ended 9, "the judge cannot be used", as if the model could not judge."""
    db = tmp_path / "check.duckdb"
    with serving() as stub:
        stub.fail(fault, times=None)
        done = faith_here(capsys, "nightly", str(source), "--db", str(db), "--prefect", "no",
                          "--judge", "openai", "--model", "stub-model", "--judge-mode", mode,
                          "--base-url", stub.base_url)  # fmt: skip
    assert done.returncode == 6, done.stderr
    assert "2 times in a row" in done.stderr.splitlines()[-1]
    assert "nothing was scored" in done.stderr.splitlines()[-1]


def test_a_packed_check_of_an_endpoint_refusing_every_request_names_the_refusal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """400 to every request, packed or alone (a proxy refusing the body): the packed check
    said "this model cannot answer packed prompts (try --judge-mode per-item)", a remedy that
    fails the same way, because the packs had been asked again alone. No item passed alone:
    the line names the refusal."""
    with serving() as stub:
        stub.fail("400", times=None)
        done = faith_here(capsys, "judge-check", "--db", str(tmp_path / "check.duckdb"),
                          "--model", "stub-model", "--judge-mode", "packed",
                          "--base-url", stub.base_url)  # fmt: skip
    assert done.returncode == 9, done.stderr
    last = done.stderr.splitlines()[-1]
    assert "3 of 3 examples could not be judged" in last
    assert "HTTP 400 from the endpoint" in last
    assert "try --judge-mode per-item" not in last


def test_closes_and_resets_in_a_row_count_as_one_kind() -> None:
    """A dying server's failures, closes and resets mixed, open the breaker at its count."""
    from flows.judges.endpoint.breaker import CircuitBreaker

    breaker = CircuitBreaker(BREAKER, "127.0.0.1:9")
    kinds = ["closed", "reset", "closed", "reset"]
    assert [breaker.failure(kind) for kind in kinds] == [None] * 4
    opened = breaker.failure("reset")
    assert opened is not None
    assert "reset the connection 5 times in a row" in str(opened)
    fresh = CircuitBreaker(BREAKER, "127.0.0.1:9")
    assert [fresh.failure(kind) for kind in ["closed", "refused", "closed"]] == [None] * 3


@pytest.mark.parametrize("command", ["score", "judge-check"])
def test_a_spent_quota_refuses_every_call_as_a_bad_key_does(
    command: str, source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """OpenAI's 429 `insufficient_quota` (the account's credit spent) ends with no wait or
    retry: it was retried as a throttle, call after call, and the night ended 8 with every
    case invalid (the judge check 9, "use a larger model"). Now it is exit 6 naming the
    quota, with the calls in flight when it came, as a refused key is."""
    db = tmp_path / "f.duckdb"
    with serving() as stub:
        stub.fail("quota", times=None)
        if command == "score":
            done = faith_score(capsys, source, db, stub.base_url)
        else:
            argv = ["judge-check", "--model", "stub-model", "--base-url", stub.base_url]
            done = faith_here(capsys, *argv, "--db", str(db))
        requests = stub.requests
    assert done.returncode == 6, done.stderr
    assert done.stderr.splitlines()[-1].endswith(
        "the quota of the account whose key was read from $OPENAI_API_KEY is used up (HTTP "
        "429 insufficient_quota); check its plan and billing"
    )
    assert requests <= CONCURRENCY  # the first refusal ends every other call
    if command == "score":
        assert run_row(db)["rows_invalid"] + run_row(db)["rows_pending"] == ROWS
