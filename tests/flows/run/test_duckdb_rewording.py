"""A stop that lands while DuckDB is inside Python (reading or counting a registered Arrow
object, as a batch's `incoming` is) comes back from DuckDB as its own InvalidInputException:
`as_stop` still reads it as the stop it stands for (the stop trials met it at SIGINT)."""

from __future__ import annotations

from collections.abc import Iterator

import duckdb
import pyarrow as pa
import pytest

from flows.run import stop_signals
from flows.run.stop_signals import Terminated, as_stop, exit_code_of

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
