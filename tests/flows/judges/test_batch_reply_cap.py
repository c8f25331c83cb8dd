"""Batch mode reads no answer past `--max-reply-bytes`: a Batch API whose state answer, or
result file, never ends is given up at the cap (a result file: the cap for each request line
of its batch), and the batch is left for the next run. Before, the whole body was read into
memory until the call's deadline: at 60 s, gigabytes, and a run under a memory limit ended
with exit 1.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from tests.support.builders import many_cases, write
from tests.support.cli_run import faith_here
from tests.support.openai_batch_stub import BatchStub

ROWS = 20
CAP = 1024 * 1024  # --max-reply-bytes 1M


@pytest.fixture(autouse=True)
def key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-batch-cap-key")


def score(capsys: pytest.CaptureFixture[str], source: Path, db: Path, stub: BatchStub):
    return faith_here(
        capsys, "score", str(source), "--db", str(db), "--prefect", "no", "--judge", "openai",
        "--model", "stub-model", "--judge-mode", "batch", "--base-url", stub.base_url,
        "--max-reply-bytes", "1M",
    )  # fmt: skip


def waiting_batches(db: Path) -> int:
    con = duckdb.connect(str(db), read_only=True)
    try:
        (count,) = con.execute(
            "SELECT count(*) FROM judge_batches WHERE collected_at IS NULL"
        ).fetchone()
    finally:
        con.close()
    return count


@pytest.mark.timeout(120)
@pytest.mark.parametrize("route", ["batch_status", "file_content"])
def test_an_endless_batch_answer_is_given_up_at_the_cap_and_the_batch_kept(
    route: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write(many_cases(ROWS), tmp_path / "cases.parquet")
    db = tmp_path / "cap.duckdb"
    with BatchStub() as stub:
        first = score(capsys, source, db, stub)  # submits the truths and claims batches
        assert first.returncode == 0, first.stderr
        submitted = waiting_batches(db)
        assert submitted > 0

        stub.endless.add(route)
        second = score(capsys, source, db, stub)
    # One line says why, the run completes with its cases pending, the batches are kept for
    # the next run, and of the endless bodies no more than a few caps went out each.
    assert second.returncode == 0, second.stderr
    assert "Traceback" not in second.stderr
    assert "the answer is larger than 1,048,576 bytes (--max-reply-bytes)" in second.stderr
    assert "20 pending" in second.stdout
    assert waiting_batches(db) == submitted
    asked = stub.requests[route]
    assert 0 < asked <= 2 * submitted  # given up at once: never asked again within the run
    lines = 2  # the stub's batches hold one request line each (a result file's cap: 1M a line)
    assert stub.endless_sent < asked * (lines * CAP + 16 * CAP)
