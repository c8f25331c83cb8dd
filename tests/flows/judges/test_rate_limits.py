"""`--rpm` and `--tpm` (issue 15): never more requests or tokens than allowed in any window.

The window's rules run on a fake clock (no waiting); one run against a real counting server
on 127.0.0.1 (in its own process), with a 0.5 s window, checks what the server saw."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from pathlib import Path

import polars as pl
import pytest

from faith_udfs.errors import JudgeError, JudgeTransientError
from flows.judges.llm_judge import OpenAIJudge
from flows.judges.rate_window import RateWindow, shared_window
from flows.run.pipeline import run_score
from tests.support.counting_server import RemoteServer, busiest_window, serving_elsewhere, totals

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


@pytest.mark.parametrize("seed", range(4))
def test_no_window_of_60_s_holds_more_than_rpm_or_tpm(seed: int) -> None:
    clock = FakeClock()
    window = RateWindow(7, 3_000, clock=clock, wait=clock.wait)
    rng = random.Random(seed)
    sent: list[tuple[float, int]] = []
    for _ in range(120):
        chars = rng.randint(40, 2_000)
        entry = window.admit(chars)
        assert entry is not None
        # Replies cost at most the estimate, as they do once the window has seen one.
        actual = rng.randint(1, entry.tokens)
        window.settle(entry, chars, actual)
        sent.append((entry.at, actual))
        clock.now += rng.choice((0.0, 0.0, 0.5, 3.0, 20.0))
    requests, tokens = busiest(sent, 60.0)
    assert requests <= 7
    assert tokens <= 3_000
    assert clock.now > 60 * 120 / 7 * 0.5  # it did wait: 120 calls at 7 a minute


def test_a_reply_dearer_than_its_estimate_holds_later_calls_back() -> None:
    clock = FakeClock()
    window = RateWindow(None, 1_000, clock=clock, wait=clock.wait)
    first = window.admit(400)  # estimated 200 tokens before any reply
    assert first is not None
    assert first.tokens == 200
    window.settle(first, 400, 950)  # the server counted 950
    second = window.admit(40)
    assert second is not None
    assert second.at >= 60.0  # waited for the first call to leave the window
    assert second.tokens >= 10 * 9.5 * 1.1 - 1  # estimates learned the ratio (950 / 100)


def test_a_call_larger_than_tpm_is_refused_and_a_stop_ends_a_wait() -> None:
    window = RateWindow(1, 100)
    with pytest.raises(JudgeError, match="more than --tpm 100"):
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
    seconds, rpm, tpm = 0.5, 4, 3_000
    judge = OpenAIJudge(
        "counting-model",
        base_url=counting.base_url,
        concurrency=8,
        pack_size=4,
        rpm=rpm,
        tpm=tpm,
        rate_window=seconds,
        track_items=True,
    )
    from flows.run.settings import JudgeSettings, ScoreSettings

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
    assert tpm / 2 < most_tokens <= tpm


def test_judges_of_one_endpoint_and_model_share_their_window() -> None:
    """A nightly run's judge and its judge check's count against the same minute."""
    first = shared_window("http://127.0.0.1:1/v1", "m", 10, None)
    assert shared_window("http://127.0.0.1:1/v1", "m", 10, None) is first
    assert shared_window("http://127.0.0.1:1/v1", "other", 10, None) is not first
