"""Every output table of a real run, read back from DuckDB, fits its Pandera model exactly."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pandera.polars as pa
import polars as pl
import pytest

from flows.judges.settings import JudgeSettings
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from schemas import OUTPUT_MODELS, CaseScores
from tests.support.builders import case_row, cases, many_cases, write
from tests.support.openai_stub import StubServer


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("run")
    rows = [
        *many_cases(30).to_dicts(),
        case_row("bad", input=" "),
        case_row("empty", retrieval_context=[]),
    ]
    write(cases(rows), folder / "cases.parquet")
    db = folder / "f.duckdb"
    run_score(ScoreSettings(source=str(folder / "cases.parquet"), db=str(db)))
    # A second config, scored by the LLM judge on a local stub, fills judge_cache too.
    key = "sk-output-schemas-test"
    with pytest.MonkeyPatch.context() as env, StubServer(api_key=key) as stub:
        env.setenv("OPENAI_API_KEY", key)
        judge = JudgeSettings(kind="openai", model="stub-model", base_url=stub.base_url)
        run_score(ScoreSettings(source=str(folder / "cases.parquet"), db=str(db), judge=judge))
    return db


# legacy_passage_keys has rows only in databases from before migration 007: test_rekey.py;
# the batch tables only after batch mode: tests/flows/judges/test_batch_mode.py; calibrations
# after `faith calibrate`: tests/flows/run/test_calibrate.py; the judge checks after
# `faith nightly`: below.
ROWS_ELSEWHERE = {
    "legacy_passage_keys",
    "judge_batches",
    "judge_batch_items",
    "calibrations",
    "judge_checks",
    "judge_check_verdicts",
}


@pytest.mark.parametrize("table", sorted(set(OUTPUT_MODELS) - ROWS_ELSEWHERE))
def test_each_output_table_fits_its_model(database: Path, table: str) -> None:
    con = duckdb.connect(str(database), read_only=True)
    try:
        frame = con.sql(f"SELECT * FROM {table}").pl()  # table names are ours
    finally:
        con.close()
    assert frame.height > 0  # a model checked against no rows checks only the types
    OUTPUT_MODELS[table].validate(frame, lazy=True)


def test_the_models_catch_a_broken_row(database: Path) -> None:
    con = duckdb.connect(str(database), read_only=True)
    try:
        scores = con.sql("SELECT * FROM case_scores").pl()
    finally:
        con.close()
    broken = scores.with_columns(
        score=pl.when(pl.col("case_id") == "c00001").then(1.5).otherwise(pl.col("score"))
    )
    with pytest.raises(pa.errors.SchemaErrors, match="in_range"):
        CaseScores.validate(broken, lazy=True)
    with pytest.raises(pa.errors.SchemaErrors, match="unique"):
        CaseScores.validate(pl.concat([scores, scores.head(1)]), lazy=True)


@pytest.mark.parametrize("table", sorted(OUTPUT_MODELS))
def test_each_table_has_its_models_columns_and_types(tmp_path: Path, table: str) -> None:
    """The migrations' DDL and the Pandera model agree: same columns, same order, same types."""
    from flows.store.db import open_store

    con = open_store(tmp_path / "f.duckdb")
    try:
        stored = con.sql(f"SELECT * FROM {table} LIMIT 0").pl().schema  # table names are ours
    finally:
        con.close()
    modelled = {
        name: column.dtype.type for name, column in OUTPUT_MODELS[table].to_schema().columns.items()
    }
    assert list(stored.items()) == list(modelled.items())


def test_the_judge_check_tables_of_a_night_fit_their_models(tmp_path: Path) -> None:
    """judge_checks and judge_check_verdicts, tables docs/nightly.md documents, had no model:
    nothing held their DDL to the docs. The lexical judge disagrees on two items of the
    bundled golden set and finds claims in its chit-chat (expected NULL): every kind of item."""
    from flows.nightly import run_nightly

    source = write(cases([case_row("c1")]), tmp_path / "cases.parquet")
    db = tmp_path / "f.duckdb"
    lexical = JudgeSettings(kind="lexical")
    run_nightly(ScoreSettings(source=str(source), db=str(db), judge=lexical))
    con = duckdb.connect(str(db), read_only=True)
    try:
        for table in ("judge_checks", "judge_check_verdicts"):
            frame = con.sql(f"SELECT * FROM {table}").pl()  # table names are ours
            assert frame.height > 0
            OUTPUT_MODELS[table].validate(frame, lazy=True)
        kinds = "SELECT DISTINCT expected IS NULL, agreed FROM judge_check_verdicts ORDER BY ALL"
        assert con.sql(kinds).fetchall() == [(False, False), (False, True), (True, True)]
    finally:
        con.close()
