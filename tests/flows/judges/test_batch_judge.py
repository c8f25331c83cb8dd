"""BatchJudge built from Python (issue 21, item 3): it takes the wing's JudgeSettings and a
BatchLimits, refuses at start what `faith score --judge-mode batch` refuses, and its limits
and the settings' wait reach what a real Batch API server on 127.0.0.1 sees
(tests/support/openai_batch_stub.py). Bounds are the server's counters, never the clock."""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest

from faith_udfs.errors import ConfigError
from flows.judges import BatchJudge, JudgeSettings, build_judge
from flows.judges.batch.requests import BatchLimits
from flows.store.batch_jobs import BatchJobs, JudgeOf, utc_now
from flows.store.db import open_store
from flows.store.reply_cache import ReplyCache
from tests.support.llm_judge import batch_judge
from tests.support.openai_batch_stub import BatchStub, serving_batches

KEY = "sk-batch-python-5d2e8a"
PASSAGES = 20  # packs of 8, 8 and 4 (PACK_SIZE): three request lines


@pytest.fixture
def stub(monkeypatch: pytest.MonkeyPatch) -> Iterator[BatchStub]:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    with serving_batches(api_key=KEY) as server:
        yield server


@pytest.fixture
def con(tmp_path: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    con = open_store(tmp_path / "batch.duckdb")
    yield con
    con.close()


def passages(count: int) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "key": [f"p{i}" for i in range(count)],
            "text": [f"Shop {i} opens at {i % 12 + 1} am and sells shoes." for i in range(count)],
        }
    )


def refusal(con: duckdb.DuckDBPyConnection, settings: JudgeSettings, **judge: Any) -> str:
    """The one-line refusal of a BatchJudge built from `settings`."""
    jobs, cache = BatchJobs(con), ReplyCache(con)
    try:
        with pytest.raises(ConfigError) as refused:
            BatchJudge(settings, jobs=jobs, cache=judge.pop("cache", cache), **judge)
    finally:
        cache.close()
        jobs.close()
    return str(refused.value)


@pytest.mark.parametrize(
    ("settings", "judge", "message"),
    [
        ({"kind": "lexical"}, {}, "BatchJudge takes JudgeSettings(kind='openai', mode='batch'"),
        ({"model": "m", "mode": "per-item"}, {}, "not kind 'openai' mode 'per-item'"),
        ({"model": " "}, {}, "--judge openai needs --model NAME"),
        ({"model": "m"}, {"cache": None}, "needs the run's database"),
        ({"model": "m", "api_key_env": "FAITH_TEST_UNSET_KEY"}, {}, "FAITH_TEST_UNSET_KEY"),
    ],
)
def test_what_the_cli_refuses_a_python_caller_is_refused_at_start(
    con: duckdb.DuckDBPyConnection,
    stub: BatchStub,
    settings: dict[str, Any],
    judge: dict[str, Any],
    message: str,
) -> None:
    kind = settings.pop("kind", "openai")
    text = refusal(con, JudgeSettings(kind=kind, base_url=stub.base_url, **settings), **judge)
    assert message in text
    assert "\n" not in text
    assert sum(stub.requests.values()) == 0  # refused before any request


@pytest.mark.parametrize("limits", [{"max_requests": 0}, {"max_bytes": -1}, {"max_bytes": True}])
def test_batch_limits_outside_their_bounds_are_refused(limits: dict[str, Any]) -> None:
    with pytest.raises(ConfigError, match="must be an integer >= 1"):
        BatchLimits(**limits)


@pytest.mark.parametrize(("limits", "batches"), [({}, 1), ({"max_requests": 1}, 3)])
def test_its_limits_cut_what_it_asks_into_batches(
    con: duckdb.DuckDBPyConnection, stub: BatchStub, limits: dict[str, int], batches: int
) -> None:
    judge = batch_judge("stub-model", con, base_url=stub.base_url, timeout=5.0, **limits)
    try:
        truths = judge.truths(passages(PASSAGES), limit=None)
    finally:
        judge.close()
    assert stub.requests["batch_create"] == batches
    assert stub.lines_submitted == 3
    # No wait: every passage waits for its batch, and says which batch asks it.
    assert truths.height == PASSAGES == truths["pending"].sum()
    assert truths["error"].str.starts_with("BatchPending: asked in batch ").all()


def test_the_settings_wait_collects_its_batches_in_the_same_call(
    con: duckdb.DuckDBPyConnection, stub: BatchStub
) -> None:
    judge = batch_judge("stub-model", con, base_url=stub.base_url, timeout=5.0, batch_wait=60)
    try:
        truths = judge.truths(passages(PASSAGES), limit=None)
        built = build_judge(
            JudgeSettings(kind="openai", model="stub-model", mode="batch", base_url=stub.base_url),
            con,
        )
        try:
            assert isinstance(built, BatchJudge)
            assert built.identity == judge.identity  # one metric config, one cache
        finally:
            built.close()
    finally:
        judge.close()
    assert stub.requests["batch_create"] == 1
    assert truths.height == PASSAGES
    assert truths["pending"].sum() == 0
    assert truths["error"].null_count() == PASSAGES
    assert truths["truths"].list.len().min() > 0


def test_the_wing_page_shows_the_signature_the_judge_has() -> None:
    page = (Path(__file__).resolve().parents[3] / "docs" / "architecture-wing.md").read_text()
    (block,) = [
        b for b in re.findall(r"```python\n(.*?)```", page, re.DOTALL) if "BatchJudge(" in b
    ]
    shown = re.findall(r"^    (\w+):", block, re.MULTILINE)
    assert shown == list(inspect.signature(BatchJudge).parameters)


def asked_with_reused_file_id(
    con: duckdb.DuckDBPyConnection, stub: BatchStub, **limits: int
) -> pl.DataFrame:
    """Truths of PASSAGES asked of a server answering every upload with the id file-1."""
    stub.file_id = "file-1"
    judge = batch_judge("stub-model", con, base_url=stub.base_url, timeout=5.0, **limits)
    try:
        return judge.truths(passages(PASSAGES), limit=None)
    finally:
        judge.close()


def test_an_upload_given_the_file_id_of_a_refused_batch_is_one_clear_error(
    con: duckdb.DuckDBPyConnection, stub: BatchStub
) -> None:
    """A batch whose create was refused stays recorded as `submitting:<file id>`: a server
    giving that id to a later upload (its counter reset by a restart) crashed the run with
    exit 1 and DuckDB's `Duplicate key "batch_id: submitting:file-1"`. Now: exit 6's error,
    nothing created, the earlier row as it was, the cases left for the next run."""
    other = JudgeOf("elsewhere:8000", "other-model", "{}")  # the placeholder is one key for all
    jobs = BatchJobs(con)
    jobs.record(batch_id="submitting:file-1", input_file_id="file-1", judge=other,
                state="refused", requests=1, items=[], submitted_at=utc_now())  # fmt: skip
    jobs.close()
    truths = asked_with_reused_file_id(con, stub)
    assert stub.requests["batch_create"] == 0  # nothing paid
    rows = con.execute("SELECT batch_id, state FROM judge_batches").fetchall()
    assert rows == [("submitting:file-1", "refused")]
    (error,) = truths["error"].unique().to_list()
    assert "gave the id file-1 of an earlier upload (batch submitting:file-1)" in error
    assert "\n" not in error


def test_a_server_giving_two_uploads_one_file_id_creates_no_second_batch(
    con: duckdb.DuckDBPyConnection, stub: BatchStub
) -> None:
    """Three request lines, one a batch, all uploads answered file-1: the first batch recorded
    has it, so the second and third are not created (an unclear create of one would be
    settled by finding the batch of file-1: the first's); the first's batch stays whole."""
    truths = asked_with_reused_file_id(con, stub, max_requests=1)
    assert stub.requests["batch_create"] == 1
    rows = con.execute("SELECT batch_id, input_file_id, requests FROM judge_batches").fetchall()
    assert rows == [("batch-stub0001", "file-1", 1)]
    assert truths["error"].str.starts_with("BatchPending: asked in batch batch-stub0001").sum() == 8
    refused = truths.filter(pl.col("error").str.contains("gave the id file-1 of an earlier"))
    assert refused.height == PASSAGES - 8  # the second and third request lines' items
