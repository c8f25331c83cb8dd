"""How a run is asked to stop: SIGINT is Python's KeyboardInterrupt, SIGTERM becomes
`Terminated`, and while a run is already stopping, further signals are noted, not raised."""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

log = logging.getLogger("faithpipe")

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Terminated(KeyboardInterrupt):
    """SIGTERM (a scheduler or `kill` asked the run to stop): handled like Ctrl-C, exit 143."""

    exit_code = 143


def signal_name(stop: KeyboardInterrupt) -> str:
    """The signal that asked for the stop: SIGTERM, or SIGINT (Ctrl-C)."""
    return str(stop) or "SIGINT"


def stopping_signal(exc: BaseException) -> str | None:
    """The signal behind an exception that ended a run, if one did. Inside a Prefect flow run,
    Prefect's own SIGTERM handler raises its TerminationSignal, which carries `.signal`."""
    if isinstance(exc, KeyboardInterrupt):
        return signal_name(exc)
    number = getattr(exc, "signal", None)
    return signal.Signals(number).name if isinstance(number, int) else None


def exit_code_of(stop: KeyboardInterrupt) -> int:
    """130 for SIGINT, 143 for SIGTERM: the shell's 128 + signal number."""
    return int(getattr(stop, "exit_code", 130))


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    raise Terminated("SIGTERM")


def install_stop_handlers() -> None:
    """Entry points only: SIGTERM raises `Terminated` in the main thread, so a run stops as
    cleanly as on Ctrl-C (Python's default for SIGTERM ends the process on the spot)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _raise_terminated)


def _note_signal(signum: int, frame: FrameType | None) -> None:
    log.warning("%s: already stopping; exiting within seconds", signal.Signals(signum).name)


@contextmanager
def signals_deferred() -> Iterator[None]:
    """While a run stops, a second Ctrl-C or SIGTERM cannot cut its clean-up short (which
    has its own deadline). Outside the main thread signals never arrive here: nothing to do."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, _note_signal) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
