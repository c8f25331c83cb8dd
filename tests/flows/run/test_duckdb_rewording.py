"""A stop that lands while DuckDB is inside Python (reading or counting a registered Arrow
object, as a batch's `incoming` is) comes back from DuckDB as its own InvalidInputException:
`as_stop` still reads it as the stop it stands for (the stop trials met it at SIGINT). So it
does any error raised while a stop was being handled (Prefect's own, met in its stop trial)."""

from __future__ import annotations

from collections.abc import Iterator

import duckdb
import pyarrow as pa
import pytest

from flows.run import stop_signals
from flows.run.stop_signals import Terminated, as_stop, exit_code_of, stopping_signal

SCHEMA = pa.schema([("x", pa.int64())])


def _error_of_a_scan_stopped_by(stop: KeyboardInterrupt) -> duckdb.Error:
    """What DuckDB raises when reading a registered stream meets `stop` in Python."""

    def batches() -> Iterator[pa.RecordBatch]:
        yield pa.record_batch([pa.array([1, 2])], schema=SCHEMA)
        raise stop

    con = duckdb.connect()
    try:
        con.register("incoming", pa.RecordBatchReader.from_batches(SCHEMA, batches()))
        with pytest.raises(duckdb.Error) as raised:
            con.execute("SELECT count(*) FROM incoming").fetchall()
    finally:
        con.close()
    return raised.value


@pytest.mark.parametrize(
    ("signal_name", "stop", "code"),
    [("SIGINT", KeyboardInterrupt(), 130), ("SIGTERM", Terminated("SIGTERM"), 143)],
)
def test_a_stop_inside_a_duckdb_scan_is_that_stop(
    monkeypatch: pytest.MonkeyPatch, signal_name: str, stop: KeyboardInterrupt, code: int
) -> None:
    monkeypatch.setitem(stop_signals._received, "last", signal_name)
    error = _error_of_a_scan_stopped_by(stop)
    assert not isinstance(error, KeyboardInterrupt)  # DuckDB's own error, the stop in its text
    found = as_stop(error)
    assert found is not None
    assert exit_code_of(found) == code


@pytest.mark.parametrize(
    ("signal_name", "wording", "code"),
    [
        # met in the stop trials
        ("SIGINT", "counting the rows of the object registered as 'incoming' failed: "
         "KeyboardInterrupt: ", 130),
        # met in the Prefect stop trial: Prefect's handler raised while DuckDB read a frame's
        # schema (the wrapped handler records the signal, as ours do)
        ("SIGTERM", "reading the schema of the object registered as 'incoming' failed: "
         "TerminationSignal: ", 143),
    ],
)  # fmt: skip
def test_the_wordings_the_stop_trials_met_are_stops(
    monkeypatch: pytest.MonkeyPatch, signal_name: str, wording: str, code: int
) -> None:
    monkeypatch.setitem(stop_signals._received, "last", signal_name)
    found = as_stop(duckdb.InvalidInputException(f"Invalid Input Error: {wording}"))
    assert found is not None
    assert exit_code_of(found) == code


def test_the_same_words_from_elsewhere_are_no_stop() -> None:
    text = "counting the rows of the object registered as 'incoming' failed: KeyboardInterrupt"
    assert as_stop(ValueError(text)) is None  # a message quoting a log line, not DuckDB's
    assert as_stop(duckdb.InvalidInputException("registered as 'x' failed: bad value")) is None


def test_an_error_prefect_raises_while_handling_its_termination_signal_is_that_stop() -> None:
    """Prefect's task engine, hit by SIGTERM before its task run exists, fails in its own crash
    handler (`ValueError: Task run is not set`): the run ended by SIGTERM, exit 143."""
    import signal

    from prefect import task
    from prefect.exceptions import TerminationSignal
    from prefect.task_engine import SyncTaskRunEngine

    engine = SyncTaskRunEngine(task=task(lambda: None))

    def crash_handled_by(engine: SyncTaskRunEngine) -> None:
        try:
            raise TerminationSignal(signal.SIGTERM)
        except TerminationSignal as exc:
            engine.handle_crash(exc)

    with pytest.raises(ValueError, match="Task run is not set") as raised:
        crash_handled_by(engine)
    found = as_stop(raised.value)
    assert found is not None
    assert exit_code_of(found) == 143
    assert stopping_signal(raised.value) == "SIGTERM"


@pytest.mark.parametrize(
    ("stop", "code"), [(KeyboardInterrupt(), 130), (Terminated("SIGTERM"), 143)]
)
def test_an_error_in_a_stops_clean_up_is_that_stop(stop: KeyboardInterrupt, code: int) -> None:
    def clean_up_failing_under(stop: KeyboardInterrupt) -> None:
        try:
            raise stop
        except KeyboardInterrupt:
            raise OSError("the file was already closed")  # noqa: B904

    with pytest.raises(OSError, match="already closed") as raised:
        clean_up_failing_under(stop)
    found = as_stop(raised.value)
    assert found is not None
    assert found is not stop  # a copy: raised `from` the error, it makes no cycle
    assert exit_code_of(found) == code
    assert as_stop(OSError("the file was already closed")) is None  # no stop behind it
