"""A stop while the native libraries load is held and raised right after (flows.cli.main):
raised inside DuckDB's initialisation it aborted the process instead of exiting 130. And a
stop that lands in Python code polars' Rust called waits until the code is out of polars:
raised there it was a Rust panic; another library's handler (Prefect's) is made to wait too."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable

import polars as pl
import pytest

from flows.run.stop_signals import (
    RunDeadline,
    Terminated,
    deadline_handler,
    deferred_inside_polars,
    stops_held,
)


def let_handlers_run() -> None:
    """A call into C and back: Python runs pending signal handlers there."""
    signal.pthread_sigmask(signal.SIG_BLOCK, [])


def send(sig: signal.Signals) -> None:
    os.kill(os.getpid(), sig)
    let_handlers_run()


def held_while_sending(done: list[str], *signals: signal.Signals) -> None:
    """Send `signals` to this process inside `stops_held`, noting in `done` each one sent."""
    with stops_held():
        for sig in signals:
            send(sig)
            done.append(sig.name)


def failing_while_held(sig: signal.Signals) -> None:
    """Send `sig` to this process inside `stops_held`, then fail (a disk failing)."""
    with stops_held():
        send(sig)
        raise OSError("the disk failed")


@pytest.mark.parametrize(
    ("sig", "stop"), [(signal.SIGINT, KeyboardInterrupt), (signal.SIGTERM, Terminated)]
)
def test_a_stop_while_held_is_raised_once_the_block_has_run(
    entry_point_handlers: None, sig: signal.Signals, stop: type[KeyboardInterrupt]
) -> None:
    done: list[str] = []
    with pytest.raises(stop) as raised:
        held_while_sending(done, sig, sig)
    assert done == [sig.name, sig.name]  # the block ran to its end; the stop came after
    assert raised.type is stop  # SIGINT is a plain Ctrl-C, not a Terminated


def test_the_first_of_two_stops_is_the_one_raised(entry_point_handlers: None) -> None:
    with pytest.raises(Terminated):
        held_while_sending([], signal.SIGTERM, signal.SIGINT)


def test_a_stop_held_while_the_block_fails_is_raised_over_the_failure(
    entry_point_handlers: None,
) -> None:
    """It was dropped with the failure: a caller going on after the failure went on past
    the stop. The failure is the stop's context (its traceback with -v)."""
    with pytest.raises(Terminated) as raised:
        failing_while_held(signal.SIGTERM)
    assert isinstance(raised.value.__context__, OSError)


def test_without_a_stop_nothing_is_raised_and_the_handlers_come_back(
    entry_point_handlers: None,
) -> None:
    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    done: list[str] = []
    held_while_sending(done)
    assert done == []
    assert {sig: signal.getsignal(sig) for sig in handlers} == handlers
    with pytest.raises(KeyboardInterrupt):  # the stop handlers act again, on the spot
        send(signal.SIGINT)


# A frame whose `dtypes` builds 2,000 Python dtype objects from Rust: a stop raised inside one
# was a Rust panic (PanicException, exit 1), within ~0.2 s of a 0.5 ms timer.
WIDE = pl.DataFrame({f"c{i}": pl.Series([], dtype=pl.Datetime("us", "UTC")) for i in range(2000)})


def read_dtypes(start: Callable[[], None], seconds: float = 10.0) -> None:
    """`start()` the stop's timer, then read WIDE's dtypes again and again for `seconds` (the
    test's bound: the stop ends it)."""
    deadline = time.monotonic() + seconds
    start()
    while time.monotonic() < deadline:
        WIDE.dtypes  # noqa: B018 - the read is the point


def read_dtypes_until_stopped(stop: type[KeyboardInterrupt], start: Callable[[], None]) -> None:
    """`stop` comes out of the reads, not a PanicException (which fails the test)."""
    with pytest.raises(stop):
        read_dtypes(start)


def test_a_deadline_landing_inside_polars_is_raised_after_it_not_a_panic() -> None:
    before = signal.signal(signal.SIGALRM, deadline_handler(1.0))
    try:
        for _ in range(20):  # twenty stops, each landing wherever the reads are
            read_dtypes_until_stopped(
                RunDeadline, lambda: signal.setitimer(signal.ITIMER_REAL, 0.0005)
            )
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


@pytest.mark.parametrize(
    ("sig", "stop"), [(signal.SIGINT, KeyboardInterrupt), (signal.SIGTERM, Terminated)]
)
def test_a_signal_landing_inside_polars_is_raised_after_it_not_a_panic(
    entry_point_handlers: None, sig: signal.Signals, stop: type[KeyboardInterrupt]
) -> None:
    for _ in range(10):
        sender = threading.Timer(0.001, os.kill, (os.getpid(), sig))
        read_dtypes_until_stopped(stop, sender.start)
        sender.join(timeout=10)  # it fired within the reads: a hang guard


def test_a_held_stop_goes_to_the_handler_that_was_in_place() -> None:
    """Inside a Prefect flow run the handler in place is Prefect's: the held signal is its
    to act on, not turned into faithpipe's own stop."""
    seen: list[int] = []
    before = signal.signal(signal.SIGTERM, lambda signum, frame: seen.append(signum))
    try:
        done: list[str] = []
        held_while_sending(done, signal.SIGTERM)
        assert done == ["SIGTERM"]
        assert seen == [signal.SIGTERM]  # handed on once, after the block
    finally:
        signal.signal(signal.SIGTERM, before)


class Foreign(BaseException):
    """What another library's signal handler raises (Prefect's: TerminationSignal)."""


def raise_foreign(signum: int, frame: object) -> None:
    raise Foreign(signum)


def test_another_librarys_handler_waits_while_polars_is_on_the_stack() -> None:
    handler = deferred_inside_polars(raise_foreign)
    assert handler.__wrapped__ is raise_foreign  # type: ignore[attr-defined]
    before = signal.signal(signal.SIGTERM, handler)
    try:
        for _ in range(10):
            sender = threading.Timer(0.001, os.kill, (os.getpid(), signal.SIGTERM))
            with pytest.raises(Foreign):
                read_dtypes(sender.start)
            sender.join(timeout=10)
    finally:
        signal.signal(signal.SIGTERM, before)


def test_a_stop_raised_while_the_handlers_come_back_leaves_none_holding(
    entry_point_handlers: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A SIGINT acted on by its restored handler must not leave SIGTERM's as the hold,
    where a later SIGTERM would be swallowed for good."""
    restore = signal.signal

    def restore_then_ctrl_c(sig: int, handler: object) -> object:
        before = restore(sig, handler)  # type: ignore[arg-type]
        if sig == signal.SIGINT:  # SIGINT's handler is back, SIGTERM's is not yet
            send(signal.SIGINT)
        return before

    with pytest.raises(KeyboardInterrupt), stops_held():
        monkeypatch.setattr(signal, "signal", restore_then_ctrl_c)
    monkeypatch.setattr(signal, "signal", restore)
    with pytest.raises(Terminated):  # SIGTERM is faithpipe's stop again, not held
        send(signal.SIGTERM)


# A stop that lands while a finalizer runs: Python prints "Exception ignored in ..." and goes
# on (a start-up trial lost its Ctrl-C inside pydantic's SecretStr so).
STOP_IN_A_FINALIZER = """
import os, signal, sys, time
from flows.run.stop_signals import install_stop_handlers

install_stop_handlers()


class Finalized:
    def __del__(self):
        os.kill(os.getpid(), signal.SIGNUM)
        for _ in range(100_000):  # the handler runs here, inside __del__
            pass


try:
    Finalized()  # collected at once
    end = time.monotonic() + 20
    while time.monotonic() < end:
        time.sleep(0.01)
    print("not stopped")
except KeyboardInterrupt as stop:
    print("stopped", type(stop).__name__)
"""


# As STOP_IN_A_FINALIZER, on a machine so loaded that the signal sent again lands before the
# timer that sends it has finished starting: inside the hook that arranged it.
RESENT_WHILE_ARRANGED = STOP_IN_A_FINALIZER.replace(
    "install_stop_handlers()\n",
    """install_stop_handlers()
import threading
real_start = threading.Timer.start
late = []


def start_and_fall_behind(self):
    real_start(self)
    if not late:  # the first resend only: the main thread is back after the timer has fired
        late.append(True)
        self.finished.wait(10)
        for _ in range(100_000):  # the handler runs here
            pass


threading.Timer.start = start_and_fall_behind
""",
)


@pytest.mark.parametrize(
    ("signum", "raised"), [("SIGINT", "KeyboardInterrupt"), ("SIGTERM", "Terminated")]
)
@pytest.mark.parametrize(
    "script",
    [STOP_IN_A_FINALIZER, RESENT_WHILE_ARRANGED],
    ids=["in a finalizer", "sent again while arranged"],
)
def test_a_stop_that_lands_in_a_finalizer_is_sent_again_not_lost(
    script: str, signum: str, raised: str
) -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", script.replace("SIGNUM", signum)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.stdout.strip() == f"stopped {raised}", done.stderr
    assert "Exception ignored" not in done.stderr  # the one line stays the only one


def test_a_resend_whose_timer_never_started_is_not_left_pending(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A stop landing while a resend's timer starts, before it runs: left marked as arranged,
    every later resend of that signal was skipped, so each later stop deferred was lost."""
    from flows.run import stop_signals

    def stopped_before_running(self: threading.Timer) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(threading.Timer, "start", stopped_before_running)
    with pytest.raises(KeyboardInterrupt):
        stop_signals._deliver_again(signal.SIGUSR2)
    assert signal.SIGUSR2 not in stop_signals._again_pending
