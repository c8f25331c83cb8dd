"""`--rpm` and `--tpm` (issue 15): never more requests or tokens than allowed in any window.

The window's rules run on a fake clock (no waiting); one run against a real counting server
on 127.0.0.1 (in its own process), with a 1 s window (twice the window's 0.5 s margin for
arrival times), checks what the server saw."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from pathlib import Path

import polars as pl
import pytest

from faith_udfs.errors import JudgeError, JudgeTransientError
from flows.cli import main
from flows.judges.endpoint.rate_window import (
    CHARS_PER_TOKEN,
    RateWindow,
    call_bound,
    expected_tokens,
    shared_window,
)
from flows.judges.endpoint.usage import Usage
from flows.run.pipeline import run_score
from tests.support.counting_server import RemoteServer, busiest_window, serving_elsewhere, totals
from tests.support.llm_judge import openai_judge

SAMPLE = Path(__file__).resolve().parents[3] / "data" / "sample" / "cases.parquet"


class FakeClock:
    """Time that passes only when the window waits."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def wait(self, _cond: threading.Condition, seconds: float) -> None:
        self.now += seconds


def busiest(sent: list[tuple[float, int]], seconds: float) -> tuple[int, int]:
    most_requests = most_tokens = 0
    for at, _ in sent:
        inside = [tokens for t, tokens in sent if at <= t < at + seconds]
        most_requests = max(most_requests, len(inside))
        most_tokens = max(most_tokens, sum(inside))
    return most_requests, most_tokens


def prompt(rng: random.Random) -> list[dict[str, str]]:
    """A prompt of English, code or CJK text: 0.25 to 1+ tokens a character."""
    text = rng.choice(("claim ", "x[i]=f(", "\u4e8b\u5b9e"))
    return [{"role": "user", "content": text * rng.randint(5, 300)}]


@pytest.mark.parametrize("seed", range(4))
def test_no_window_of_60_s_holds_more_than_rpm_or_tpm(seed: int) -> None:
    clock = FakeClock()
    window = RateWindow(7, 3_000, clock=clock, wait=clock.wait)
    rng = random.Random(seed)
    sent: list[tuple[float, int]] = []
    dearer = 0
    for _ in range(40):
        # Up to 5 calls in flight before any reply, as with --concurrency 5.
        burst = []
        for _ in range(rng.randint(1, 5)):
            messages = prompt(rng)
            entry = window.admit(call_bound(messages, "{}", 200), None)
            assert entry is not None
            chars = len(messages[0]["content"])
            # What the server counts: up to a token a byte, and up to max_tokens of reply;
            # often more than the 4-characters-a-token rule says.
            actual = rng.randint(1, entry.tokens)
            dearer += actual > chars / CHARS_PER_TOKEN * 2
            burst.append((entry, actual))
        for entry, actual in burst:
            window.settle(entry, actual)
            sent.append((entry.at, actual))
        clock.now += rng.choice((0.0, 0.0, 0.5, 3.0, 20.0))
    requests, tokens = busiest(sent, 60.0)
    assert requests <= 7
    assert tokens <= 3_000
    assert dearer > 10  # replies dearer than the old estimate were in the mix
    assert clock.now > 60 * len(sent) / 7 * 0.5  # it did wait: 7 calls a minute


def test_calls_count_at_their_bound_until_the_reply_says_what_they_cost() -> None:
    # 2,000 characters of code cost ~2,300 tokens at the server: more than 4 characters a
    # token. Sent together before any reply, they must still fit in --tpm.
    clock = FakeClock()
    window = RateWindow(None, 10_000, clock=clock, wait=clock.wait)
    messages = [{"role": "user", "content": "x[i]=f(" * 285}]
    bound = call_bound(messages, "{}", 300)
    first = [window.admit(bound) for _ in range(4)]
    held = window.admit(bound)
    assert [entry.at for entry in first if entry] == [0.0] * 4
    assert held is not None
    assert held.at >= 60.0  # a fifth did not fit beside four unanswered ones
    assert 5 * 2_300 > 10_000 >= 4 * bound


def test_a_call_larger_than_tpm_is_refused_and_a_stop_ends_a_wait() -> None:
    window = RateWindow(1, 100)
    with pytest.raises(JudgeError, match=r"more than --tpm 100.*--max-output-tokens"):
        window.admit(10_000)
    assert window.admit(10) is not None
    stop = threading.Event()
    stop.set()
    with pytest.raises(JudgeTransientError, match="stopped"):
        window.admit(10, stop)


@pytest.fixture
def counting(monkeypatch: pytest.MonkeyPatch) -> Iterator[RemoteServer]:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-local")
    with serving_elsewhere() as server:
        yield server


def test_a_run_stays_within_rpm_and_tpm_at_a_counting_server(
    counting: RemoteServer, tmp_path: Path
) -> None:
    source = tmp_path / "cases.parquet"
    pl.read_parquet(SAMPLE).head(10).write_parquet(source)
    seconds, rpm, tpm = 1.0, 4, 4_000
    judge = openai_judge(
        "counting-model",
        base_url=counting.base_url,
        concurrency=8,
        pack_size=4,
        rpm=rpm,
        tpm=tpm,
        # A --tpm must hold one call's largest reply (JudgeSettings refuses it otherwise).
        max_output_tokens=1_024,
        rate_window=seconds,
        track_items=True,
    )
    from flows.judges.settings import JudgeSettings
    from flows.run.settings import ScoreSettings

    settings = ScoreSettings(
        source=str(source),
        db=str(tmp_path / "f.duckdb"),
        judge=JudgeSettings(kind="openai", model="counting-model"),
    )
    with judge:
        run = run_score(settings, judge=judge)
    served = counting.log()
    requests, _, _ = totals(served)
    assert run["rows_newly_scored"] == 10
    assert requests == run["judge_calls"] >= 2 * rpm  # enough calls to need several windows
    most_requests, most_tokens = busiest_window(served, seconds)
    assert most_requests == rpm  # the limit bound, and held
    assert most_tokens <= tpm
    # --tpm bound too: calls count at their bound until answered, so the calls that --rpm
    # alone would send in two windows took at least three.
    assert served[-1].at - served[0].at > 2 * seconds


def test_judges_of_one_endpoint_and_model_share_their_window() -> None:
    """A nightly run's judge and its judge check's count against the same minute."""
    first = shared_window("http://127.0.0.1:1/v1", "m", 10, None)
    assert shared_window("http://127.0.0.1:1/v1", "m", 10, None) is first
    assert shared_window("http://127.0.0.1:1/v1", "other", 10, None) is not first


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--tpm", "5000"], "its reply may take 8,192 tokens (the default's most)"),
        (["--tpm", "300", "--max-output-tokens", "400"], "raise --tpm well above 400 or lower"),
    ],
)
def test_a_tpm_smaller_than_one_call_is_refused_at_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str], message: str
) -> None:
    db = tmp_path / "f.duckdb"
    command = ["score", str(SAMPLE), "--db", str(db), "--prefect", "no"]
    assert main([*command, "--judge", "openai", "--model", "m", *options]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert message in err[0]
    assert "--max-output-tokens" in err[0]
    assert not db.exists()


def test_max_tokens_expects_a_reply_as_long_as_the_answered_calls_replies() -> None:
    """--max-tokens lets a call go when its expected cost fits: its prompt, and a reply as long
    as the run's replies have been. That average was taken over every call counted, those
    still in flight too: with 8 calls sent and 1 answered, a 400-token reply was expected to
    be 50 tokens long, and a cap of 5,000 tokens was overrun by a sixth (calls let go on that
    guess)."""
    usage = Usage()
    usage.add(calls=8, prompt_tokens=100, completion_tokens=400)  # 1 answered, 7 in flight
    question = [{"role": "user", "content": "x" * 400}]  # 100 tokens at 4 characters a token
    assert expected_tokens(question, 2_000, usage, replies=1) == 100 + 400
    # before any reply: a quarter of the call's max_tokens, as before
    assert expected_tokens(question, 2_000, Usage(), replies=0) == 100 + 500
    # never more than the call's own max_tokens
    assert expected_tokens(question, 300, usage, replies=1) == 100 + 300
