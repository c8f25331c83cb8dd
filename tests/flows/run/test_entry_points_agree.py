"""One rule, every entry point (issue 11): the pipeline, `FaithfulnessMetric.measure` and the
SQL functions give the same score, or none, for the same answer and context. Blank and
invisible-only answers are never scored; text differing only in Unicode form or invisible
characters scores as the clean text."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import duckdb
import polars as pl
import pytest

from faith_udfs import (
    FaithfulnessMetric,
    GroundedJudge,
    LexicalJudge,
    LLMTestCase,
    MetricConfig,
    score_cases,
)
from flows.judges.settings import JudgeSettings
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from flows.store.db import connect
from tests.support.builders import CONTEXT, case_row, cases, write
from tests.support.db_reading import query

CAFE = ["The café on Main Street opens at 9 and ships Order A17 on 3 March."]
EDGES = {
    "empty": ("", CONTEXT),
    "spaces": ("  \t\n ", CONTEXT),
    "zero-width": ("\u200b", CONTEXT),
    "invisible mix": ("\u200b \u2060\ufeff", CONTEXT),
    "drawn as nothing": ("\u2800\u3164 \ufe0f\u0301", CONTEXT),
    "grounded": ("Order A17 shipped on 3 March.", CONTEXT),
    "contradicting": ("Order A17 was cancelled. We are sorry.", CONTEXT),
    "invented": ("Order A17 shipped on 3 March. It arrives tomorrow.", CONTEXT),
    "zero-width in a word": ("Order A17 ship\u200bped on 3 March.", CONTEXT),
    "decomposed": (unicodedata.normalize("NFD", "The café opens at 9."), CAFE),
    "composed": ("The café opens at 9.", CAFE),
}
JUDGES = {"grounded": GroundedJudge, "lexical": LexicalJudge}


def by_pipeline(tmp_path: Path, kind: str) -> dict[str, float | None]:
    rows = [
        case_row(name, answer, retrieval_context=context)
        for name, (answer, context) in EDGES.items()
    ]
    source, db = write(cases(rows), tmp_path / "edges.parquet"), tmp_path / f"{kind}.duckdb"
    settings = ScoreSettings(
        source=str(source),
        db=str(db),
        judge=JudgeSettings(kind=kind),
        max_invalid_share=1,
        max_quarantine_share=None,
    )
    run_score(settings)
    scored = dict(query(db, "SELECT case_id, score FROM case_scores"))
    return {name: scored.get(name) for name in EDGES}  # quarantined: no row, no score


def by_api(kind: str) -> dict[str, float | None]:
    scores = {}
    for name, (answer, context) in EDGES.items():
        metric = FaithfulnessMetric(model=JUDGES[kind]())
        case = LLMTestCase(input="q", actual_output=answer, retrieval_context=context)
        scores[name] = metric.measure(case)
        assert (metric.status == "scored") == (scores[name] is not None)
    return scores


def by_sql(tmp_path: Path, kind: str) -> dict[str, float | None]:
    con = connect(tmp_path / "sql.duckdb")
    try:
        frame = pl.DataFrame(
            {
                "name": list(EDGES),
                "answer": [answer for answer, _ in EDGES.values()],
                "context": [context for _, context in EDGES.values()],
            }
        )
        con.register("edges", frame)
        rows = con.execute(
            f"SELECT name, faith_{kind}_score(answer, context, false) FROM edges"
        ).fetchall()
    finally:
        con.close()
    return dict(rows)


@pytest.mark.parametrize("kind", sorted(JUDGES))
def test_pipeline_api_and_sql_agree_on_edge_answers(tmp_path: Path, kind: str) -> None:
    pipeline, api, sql = by_pipeline(tmp_path, kind), by_api(kind), by_sql(tmp_path, kind)
    assert pipeline == api == sql
    for blank in ("empty", "spaces", "zero-width", "invisible mix", "drawn as nothing"):
        assert pipeline[blank] is None
    assert pipeline["zero-width in a word"] == pipeline["grounded"] == 1.0
    assert pipeline["decomposed"] == pipeline["composed"]
    assert pipeline["contradicting"] == 0.5


ONE_STRING = "Order A17 shipped on 3 March."


def test_one_string_as_the_context_is_refused_at_every_entry_point(tmp_path: Path) -> None:
    """Issue 23: one string is not a list of passages anywhere. The pipeline quarantines it
    (from Parquet, and from CSV where a list is JSON text and the string is not), the
    Python API raises TypeError, the SQL functions refuse to bind it."""
    frame = cases([case_row("one")]).with_columns(retrieval_context=pl.lit(ONE_STRING))
    source, db = write(frame, tmp_path / "one.parquet"), tmp_path / "one.duckdb"
    frame.write_csv(tmp_path / "one.csv")
    for path in (source, tmp_path / "one.csv"):
        run = run_score(ScoreSettings(source=str(path), db=str(db), max_quarantine_share=None))
        assert (run["rows_in"], run["rows_quarantined"], run["rows_scored"]) == (1, 1, 0)
    assert query(db, "SELECT count(*) FROM case_scores") == [(0,)]
    assert query(db, 'SELECT DISTINCT "check", value FROM quarantine') == [
        ("retrieval_context_not_a_list_of_strings", ONE_STRING)
    ]
    with pytest.raises(TypeError, match=r"wrap one passage as \[text\]"):
        LLMTestCase(input="q", actual_output=ONE_STRING, retrieval_context=ONE_STRING)  # type: ignore[arg-type]
    as_frame = pl.DataFrame(
        {"case_id": ["one"], "actual_output": [ONE_STRING], "retrieval_context": [ONE_STRING]}
    )
    with pytest.raises(TypeError, match=r"wrap one passage as \[text\]"):
        score_cases(as_frame, GroundedJudge(), MetricConfig())
    con = connect(tmp_path / "sql.duckdb")
    try:
        for context in (f"'{ONE_STRING}'", f"CAST('{ONE_STRING}' AS VARCHAR)"):
            with pytest.raises(duckdb.Error, match="VARCHAR"):
                con.execute(f"SELECT faith_grounded_score('{ONE_STRING}', {context}, false)")
        listed = con.execute(
            f"SELECT faith_grounded_score('{ONE_STRING}', ['{ONE_STRING}'], false)"
        )
        assert listed.fetchall() == [(1.0,)]
    finally:
        con.close()
