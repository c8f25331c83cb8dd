"""`faith batches --refresh` against a real Batch API stub on 127.0.0.1, with batches that
another endpoint holds: a refresh given the wrong --base-url (or none: OpenAI's) says where
the batches it left wait, instead of a bare 'refreshed the state of 0 of 0'."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from flows.cli import main
from flows.judges.settings import JudgeSettings
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.openai_batch_stub import BatchStub

SAMPLE = Path(__file__).resolve().parents[3] / "data" / "sample" / "cases.parquet"


def test_a_refresh_at_another_endpoint_names_where_the_waiting_batches_are(
    stub: BatchStub, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "cases.parquet"
    pl.read_parquet(SAMPLE).head(6).write_parquet(source)
    db = tmp_path / "f.duckdb"
    stub.then("hold", "hold")
    judge = JudgeSettings(kind="openai", model="stub-model", base_url=stub.base_url, mode="batch")
    run = run_score(ScoreSettings(source=str(source), db=str(db), judge=judge))
    assert run["rows_pending"] == 6
    capsys.readouterr()

    # The user forgets that the night ran against a proxy: nothing of it is at this endpoint.
    elsewhere = "http://127.0.0.1:9/v1"
    assert main(["batches", "--db", str(db), "--refresh", "--base-url", elsewhere]) == 0
    captured = capsys.readouterr()
    assert "refreshed the state of 0 of 0 unfinished batches at 127.0.0.1:9" in captured.out
    endpoint = stub.base_url.split("//", 1)[1].split("/", 1)[0]
    warning = [line for line in captured.err.splitlines() if "other endpoints" in line]
    assert len(warning) == 1, captured.err
    assert f"2 at {endpoint}" in warning[0]
    assert "--base-url" in warning[0]
    assert sum(stub.requests.values()) == 2 + 2  # the night's uploads and creates only

    # At the right endpoint, nothing is said of other endpoints.
    assert main(["batches", "--db", str(db), "--refresh", "--base-url", stub.base_url]) == 0
    captured = capsys.readouterr()
    assert f"refreshed the state of 2 of 2 unfinished batches at {endpoint}" in captured.out
    assert "other endpoints" not in captured.err
