"""The LLM judge on the Dask engine asks each distinct passage, answer and question once
across the whole cluster, as the local engine does: partitions that run at once no longer
ask the items they share once each. Counted at a real HTTP stub on 127.0.0.1, on one real
2-process cluster under the Prefect test harness."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from flows.engines.dask_run import run_on_dask
from flows.run.pipeline import run_score
from tests.support.dask_cluster import KEY, llm_settings, local_cluster, write_llm_source
from tests.support.db_reading import query
from tests.support.openai_stub import serving

CASE_COSTS = (
    "SELECT case_id, judge_calls, prompt_tokens, completion_tokens FROM case_scores "
    "ORDER BY case_id"
)
RUN_COSTS = (
    "SELECT judge_calls, judge_failed, prompt_tokens, completion_tokens, cost_usd FROM runs "
    "ORDER BY started_at LIMIT 1"
)


@pytest.fixture(scope="module")
def scheduler(prefect_harness: None) -> Iterator[str]:
    with local_cluster() as client:
        yield client.scheduler.address  # type: ignore[attr-defined]


def test_partitions_sharing_passages_ask_each_distinct_item_once_as_a_local_run(
    scheduler: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    # the shared items asked a few at a time: a question's passages, asked in an earlier
    # slice, are found stored, and each call is still charged once
    monkeypatch.setattr("flows.engines.shared_items.ASKED_AT_ONCE", 5)
    caplog.set_level(logging.INFO, logger="faithpipe")
    source = write_llm_source(tmp_path / "cases.parquet")  # four partitions sharing passages
    local_db, dask_db = tmp_path / "local.duckdb", tmp_path / "dask.duckdb"
    with serving(api_key=KEY) as stub:
        dask = llm_settings(source, dask_db, scheduler, stub.base_url)
        local = dask.model_copy(update={"engine": "local", "scheduler": None, "db": str(local_db)})
        run_score(local)
        asked_locally = stub.requests
        stub.reset_counts()
        run = run_on_dask(dask)
        asked_on_dask = stub.requests
        again = run_on_dask(dask)  # everything scored: nothing shared is left to ask
        assert stub.requests == asked_on_dask

    distinct = query(dask_db, "SELECT count(*) FROM judge_cache")[0][0]
    assert run["status"] == again["status"] == "completed"
    assert again["rows_already_scored"] == run["rows_scored"]
    assert asked_on_dask == distinct == asked_locally  # each distinct item asked once
    # ... and counted once, on the case that asked it first, as the local engine charges it
    assert query(dask_db, RUN_COSTS) == query(local_db, RUN_COSTS)
    assert query(dask_db, CASE_COSTS) == query(local_db, CASE_COSTS)
    [(charged,)] = query(dask_db, "SELECT sum(judge_calls) FROM case_scores")
    assert charged == pytest.approx(run["judge_calls"])
    # the step asking them says how far it got, a slice at a time
    assert "asked 5 of the " in caplog.text, caplog.text
