"""Stored keys are specified and version-independent (issue 11): a key computed by hand from
the README's definition equals the stored one, in Python and in DuckDB's own SQL."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

import duckdb
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faith_udfs.keys import text_key, text_keys
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.builders import CONTEXT, many_cases, write
from tests.support.db_reading import query

# Pinned: these must never change, whatever polars, pyarrow or DuckDB version runs.
KNOWN = {
    "Parcels from the Copenhagen warehouse usually arrive in 3 working days.": 13422932040176510646,
    "": 9098107892288553193,
    "Übersetzung – ünïcödé ✓": 9801235110904926611,
}


def test_known_texts_have_their_pinned_keys() -> None:
    for text, key in KNOWN.items():
        assert text_key(text) == key
        by_hand = int.from_bytes(hashlib.md5(text.encode()).digest()[8:], "little")
        assert by_hand == key


@pytest.fixture(scope="module")
def duckdb_sql() -> Iterator[duckdb.DuckDBPyConnection]:
    """One in-memory DuckDB for every example: its start-up says nothing about the key."""
    con = duckdb.connect()
    yield con
    con.close()


@settings(deadline=None, max_examples=60)
@given(texts=st.lists(st.text(max_size=40), max_size=30))
def test_the_key_is_duckdbs_md5_number_lower(
    duckdb_sql: duckdb.DuckDBPyConnection, texts: list[str]
) -> None:
    frame = pl.DataFrame({"text": texts}, schema={"text": pl.String})
    ours = frame.select(text_keys(pl.col("text")))["text"].to_list()
    # Each text on its own, in the order given (one query an example, DuckDB's own function).
    (theirs,) = duckdb_sql.execute(
        "SELECT list_transform($texts::VARCHAR[], lambda t: md5_number_lower(t))", {"texts": texts}
    ).fetchone()
    assert ours == theirs


def test_stored_passage_ids_and_content_hashes_follow_the_readme(tmp_path: Path) -> None:
    source, db = write(many_cases(5), tmp_path / "a.parquet"), tmp_path / "f.duckdb"
    run_score(ScoreSettings(source=str(source), db=str(db)))
    stored = {pid for (pid,) in query(db, "SELECT DISTINCT passage_id FROM truths")}
    assert stored == {text_key(passage) for passage in CONTEXT}
    ((passage_ids,),) = query(db, "SELECT DISTINCT passage_ids FROM case_scores")
    assert passage_ids == [text_key(passage) for passage in CONTEXT]

    case = many_cases(5).row(0, named=True)
    content = {
        "input": case["input"],
        "actual_output": case["actual_output"],
        "retrieval_context": case["retrieval_context"],
    }
    compact = json.dumps(content, separators=(",", ":"), ensure_ascii=False)
    by_hand = hashlib.md5(compact.encode()).hexdigest()
    assert query(
        db, f"SELECT content_hash FROM case_scores WHERE case_id = '{case['case_id']}'"
    ) == [(by_hand,)]


def test_the_config_id_is_recomputed_from_runs_config_as_the_tables_page_says(
    tmp_path: Path,
) -> None:
    """docs/output-tables.md: `runs.config` holds what enters the id and the run's
    `include_reason` and `batch_size`, which do not; the id is `faith-` and 16 hex digits of
    the SHA-256 of the rest (sorted keys). Hashing `runs.config` whole gives another id."""
    source, db = write(many_cases(3), tmp_path / "a.parquet"), tmp_path / "f.duckdb"
    run_score(ScoreSettings(source=str(source), db=str(db), threshold=0.7))
    ((config_id, config),) = query(db, "SELECT config_id, config FROM runs")
    settings = json.loads(config)
    assert settings.pop("include_reason") is True
    assert settings.pop("batch_size") == 150_000
    digest = hashlib.sha256(json.dumps(settings, sort_keys=True).encode()).hexdigest()
    assert config_id == f"faith-{digest[:16]}"
