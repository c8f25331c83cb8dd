"""How a run is asked to stop: SIGINT is Python's KeyboardInterrupt, SIGTERM becomes
`Terminated`, and while a run is already stopping, further signals are noted, not raised."""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import re
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from types import FrameType
from typing import Any

log = logging.getLogger("faithpipe")

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
# Deferred as the stop signals are while a run stops: the run deadline's alarm (deadline.py).
_DEFERRED = (*STOP_SIGNALS, signal.SIGALRM)


class Terminated(KeyboardInterrupt):
    """SIGTERM (a scheduler or `kill` asked the run to stop): handled like Ctrl-C, exit 143."""

    exit_code = 143


class RunDeadline(Terminated):
    """`--run-timeout` passed: the run stops as on SIGTERM and the process exits 14. Its
    text names the deadline (`the run deadline, --run-timeout 600 s`)."""

    exit_code = 14


def signal_name(stop: KeyboardInterrupt) -> str:
    """The signal that asked for the stop: SIGTERM, or SIGINT (Ctrl-C)."""
    return str(stop) or "SIGINT"


# The last stop signal received: DuckDB turns whatever a signal handler raises during a
# query into a bare `RuntimeError('Query interrupted')`, losing which signal it was.
_received: dict[str, str] = {}
# DuckDB's message for that, its only trace (no error class of its own, no cause).
_DUCKDB_INTERRUPTED = "Query interrupted"
# Its second rewording: a stop raised while DuckDB is inside Python, counting or reading a
# registered Arrow object (a batch's `incoming`), comes back as an InvalidInputException whose
# text names the exception: "counting the rows of the object registered as 'incoming' failed:
# KeyboardInterrupt:" (seen in the stop trials), "reading the stream registered as ... Python
# exception: ... KeyboardInterrupt"; inside a Prefect flow run, Prefect's TerminationSignal
# ("reading the schema of the object registered as 'incoming' failed: TerminationSignal:").
_DUCKDB_CALLBACK_STOPPED = re.compile(
    r"registered as .* failed: .*\b(?:KeyboardInterrupt|Terminat(?:ed|ionSignal)|RunDeadline)\b",
    re.S,
)


def as_stop(exc: BaseException) -> KeyboardInterrupt | None:
    """The stop an exception stands for, if it is one: a KeyboardInterrupt (or `Terminated`)
    itself, one of DuckDB's rewordings of one raised while a query ran, or any exception
    raised while a stop was being handled."""
    if isinstance(exc, KeyboardInterrupt):
        return exc
    handled = _stop_being_handled(exc)
    if handled is not None:
        return handled
    reworded = isinstance(exc, RuntimeError) and str(exc) == _DUCKDB_INTERRUPTED
    from_duckdb = type(exc).__module__.lstrip("_") == "duckdb"  # not a message quoting text
    if reworded or (from_duckdb and _DUCKDB_CALLBACK_STOPPED.search(str(exc))):
        last = _received.get("last")
        if last == "SIGALRM":
            return RunDeadline(_received.get("deadline", "the run deadline"))
        return Terminated("SIGTERM") if last == "SIGTERM" else KeyboardInterrupt()
    return None


# How far back an exception's context is read for the stop it was raised under.
_CONTEXT_DEPTH = 8


def _stop_being_handled(exc: BaseException) -> KeyboardInterrupt | None:
    """The stop in whose handling `exc` was raised, if any. Prefect's task engine, hit by its
    TerminationSignal before a task run exists, raised `ValueError: Task run is not set` from
    its own crash handler (seen in the Prefect stop trial): exit 1 and a `failed` run row
    where the signal asked for 143 and `interrupted`."""
    seen = {id(exc)}
    cause = exc.__cause__ or exc.__context__
    for _ in range(_CONTEXT_DEPTH):
        if cause is None or id(cause) in seen:
            return None
        seen.add(id(cause))
        if isinstance(cause, KeyboardInterrupt):  # a copy: raised `from exc`, no cycle
            return type(cause)(*cause.args)
        number = getattr(cause, "signal", None)
        if not isinstance(cause, Exception) and isinstance(number, int):  # TerminationSignal
            return Terminated("SIGTERM") if number == signal.SIGTERM else KeyboardInterrupt()
        cause = cause.__cause__ or cause.__context__
    return None


def stopping_signal(exc: BaseException) -> str | None:
    """The signal behind an exception that ended a run, if one did. Inside a Prefect flow run,
    Prefect's own SIGTERM handler raises its TerminationSignal, which carries `.signal`."""
    stop = as_stop(exc)
    if stop is not None:
        return signal_name(stop)
    number = getattr(exc, "signal", None)
    return signal.Signals(number).name if isinstance(number, int) else None


def exit_code_of(stop: KeyboardInterrupt) -> int:
    """130 for SIGINT, 143 for SIGTERM: the shell's 128 + signal number."""
    return int(getattr(stop, "exit_code", 130))


def _raise_stop_now(signum: int, frame: FrameType | None) -> None:
    raise Terminated("SIGTERM") if signum == signal.SIGTERM else KeyboardInterrupt


# A stop raised in Python code that polars' Rust called (a frame's `dtypes` builds Python
# dtype objects) is a Rust panic, not an exception: `PanicException: called
# Result::unwrap() on an Err value: PyErr { type: <class '...Terminated'> ...`, a multi-line
# panic message on stderr and exit 1 (seen in a stop trial at load 6). While any polars frame
# is on the stack the stop waits, asked again every few ms, until the code is out of polars.
_AGAIN_AFTER_SECONDS = 0.005
_again_pending: set[int] = set()  # the signals a timer will send again


def _inside_polars(frame: FrameType | None) -> bool:
    polars = sys.modules.get("polars")
    home = os.path.dirname(getattr(polars, "__file__", None) or "") if polars else ""
    while frame is not None and home:
        if frame.f_code.co_filename.startswith(home + os.sep):
            return True
        frame = frame.f_back
    return False


def _deliver_again(signum: int) -> None:
    """Send `signum` to this process again shortly (one timer a signal): its handler then
    runs where the main thread is by then."""
    if signum in _again_pending:
        return

    def send() -> None:
        _again_pending.discard(signum)
        os.kill(os.getpid(), signum)

    timer = threading.Timer(_AGAIN_AFTER_SECONDS, send)
    timer.daemon = True
    _again_pending.add(signum)
    try:
        timer.start()
    except BaseException:
        # A stop landed while the timer started: one that never ran sends nothing, and left
        # pending it would have every later resend of this signal skipped.
        if not timer.is_alive():
            _again_pending.discard(signum)
        raise


def deferred_inside_polars(
    handler: Callable[[int, FrameType | None], object],
) -> Callable[[int, FrameType | None], None]:
    """`handler` with the signal recorded (for when DuckDB rewords what it raises) and sent
    again while polars' code is on the stack: faithpipe's own stop and deadline handlers, and
    Prefect's SIGTERM handler, which raises inside a flow run (orchestration/)."""

    def deferring(signum: int, frame: FrameType | None) -> None:
        _received["last"] = signal.Signals(signum).name
        if _inside_polars(frame):
            _deliver_again(signum)
            return
        handler(signum, frame)

    deferring.__wrapped__ = handler  # type: ignore[attr-defined]
    return deferring


_raise_stop = deferred_inside_polars(_raise_stop_now)


def install_stop_handlers() -> None:
    """Entry points only: SIGTERM raises `Terminated` in the main thread, so a run stops as
    cleanly as on Ctrl-C (Python's default for SIGTERM ends the process on the spot); both
    are recorded, for when DuckDB rewords them. A signal ignored by the parent stays ignored.
    A stop raised where Python ignores exceptions is sent again (_stop_not_lost)."""
    if threading.current_thread() is not threading.main_thread():
        return
    for sig in STOP_SIGNALS:
        if signal.getsignal(sig) is not signal.SIG_IGN:
            signal.signal(sig, _raise_stop)
    if sys.unraisablehook is not _stop_not_lost:
        _hooks["unraisable"] = sys.unraisablehook
        sys.unraisablehook = _stop_not_lost


_hooks: dict[str, Callable[[Any], object]] = {}


def _stop_not_lost(unraisable: Any) -> None:
    """A stop raised while a finalizer ran (`__del__`, a weakref callback: pydantic's
    SecretStr at start-up) is printed as 'Exception ignored in ...' and lost: the run went on
    as if never asked to stop. Its signal is sent again, to land in code that can raise; any
    other unraisable error goes to the hook before this one."""
    stop = unraisable.exc_value
    while isinstance(stop, KeyboardInterrupt):
        try:
            _deliver_again(_signal_of(stop))
            return
        except KeyboardInterrupt as again:
            # The signal sent again landed here, before the timer's start returned (a loaded
            # machine: the 5 ms passed first); raised out of this hook it would be lost too.
            stop = again
    _hooks.get("unraisable", sys.__unraisablehook__)(unraisable)


def _signal_of(stop: KeyboardInterrupt) -> int:
    """The signal whose handler raised `stop`."""
    if isinstance(stop, RunDeadline):
        return signal.SIGALRM
    return signal.SIGTERM if isinstance(stop, Terminated) else signal.SIGINT


def deadline_handler(seconds: float) -> Callable[[int, FrameType | None], None]:
    """The SIGALRM handler of a run deadline of `seconds`: raises RunDeadline, recorded for
    when DuckDB rewords it."""
    text = f"the run deadline, --run-timeout {seconds:g} s"

    def raise_deadline(signum: int, frame: FrameType | None) -> None:
        _received["deadline"] = text
        raise RunDeadline(text)

    return deferred_inside_polars(raise_deadline)


def _note_signal(signum: int, frame: FrameType | None) -> None:
    log.warning("%s: already stopping; exiting within seconds", signal.Signals(signum).name)


def note_further_stops() -> None:
    """The command is over and the process exits: a stop signal is noted, not raised."""
    if threading.current_thread() is threading.main_thread():
        for sig in STOP_SIGNALS:
            if signal.getsignal(sig) is not signal.SIG_IGN:
                signal.signal(sig, _note_signal)


def completion_held() -> AbstractContextManager[None]:
    """While a run that was not stopping marks itself completed, a stop signal or its
    deadline's alarm waits, then is raised: noted and dropped as during a stop's clean-up
    (signals_deferred), a SIGTERM that came then was lost, and the process went on (a
    nightly into its judge check) after saying it was exiting."""
    # the alarm only when a deadline handles it: a stray one held would end the process
    alarm = (signal.SIGALRM,) if callable(signal.getsignal(signal.SIGALRM)) else ()
    return stops_held((*STOP_SIGNALS, *alarm))


@contextmanager
def signals_deferred() -> Iterator[None]:
    """While a run stops, a second Ctrl-C or SIGTERM cannot cut its clean-up short (which
    has its own deadline). Outside the main thread signals never arrive here: nothing to do."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, _note_signal) for sig in _DEFERRED}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


@contextmanager
def stops_held(signals: tuple[int, ...] = STOP_SIGNALS) -> Iterator[None]:
    """While native libraries load (DuckDB, polars, Arrow: ~1 s), a stop signal is held and
    raised right after: a KeyboardInterrupt raised inside an extension's initialisation
    aborted the process (DuckDB: `Critical nanobind error: enum_create`) instead of one line
    and exit 130. The first signal held is then sent again, to the handler that was in place
    (faithpipe's, Prefect's inside a flow run, Python's own), also when the block raised: the
    stop was dropped with the failure, and a caller going on after it went on past its stop.
    The stop is raised over the failure then, which is its context."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    released = False

    def hold(signum: int, frame: FrameType | None) -> None:
        if released:  # the restore is under way: straight to this signal's own handler
            signal.signal(signum, previous[signal.Signals(signum)])
            signal.raise_signal(signum)
            return
        held.append(signum)

    previous = {
        sig: signal.signal(sig, hold)
        for sig in signals
        if signal.getsignal(sig) is not signal.SIG_IGN
    }
    try:
        yield
    finally:
        # A stop raised by a handler already restored must not leave the other as `hold`.
        released = True
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if held:
            signal.raise_signal(held[0])  # its handler runs before this returns


# How long the flow's last logs may take to reach Prefect's server at exit.
LOG_SEND_SECONDS = 2.0


def exit_after_hooks(code: int) -> None:
    """End the process now: Prefect's queued logs are sent, its exit hooks run (Prefect's
    server, Dask's clusters, logging), then it exits without tearing the interpreter down,
    which took 4-9 s after a stopped Dask run (native thread pools; every connection and file
    of the run is closed by then)."""
    send_prefect_logs(LOG_SEND_SECONDS)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed or broken pipe
            stream.flush()
    os._exit(code)


def send_prefect_logs(timeout: float) -> None:
    """Send the logs Prefect still holds to its server, for `timeout` seconds at most.

    Prefect posts a flow's logs in batches (every 2 s) from a worker that a normal interpreter
    exit drains through threading's exit hooks, before atexit stops a temporary server;
    os._exit skips that drain, and the one left (the loop thread's, in atexit) ran after the
    temporary server had stopped: a short run's logs were lost, and every run on such a server
    ended in "--- Error logging to API ---"."""
    handlers = sys.modules.get("prefect.logging.handlers")
    if handlers is None:  # Prefect never loaded: nothing queued
        return
    with contextlib.suppress(Exception):  # a server gone is Prefect's to report, not a failure
        handlers.APILogWorker.drain_all(timeout=timeout)
