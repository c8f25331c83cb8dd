"""The offline metrics as SQL functions over raw Parquet equal the Python API on the same rows."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import polars as pl
import pytest

from faith_udfs import FaithfulnessMetric, GroundedJudge, LexicalJudge, LLMTestCase
from flows.store.sql_functions import _says_it_exists, metric_functions, register_metric_functions
from tests.conftest import POLICY

CONTEXT = [POLICY[0]]  # "Order A17 shipped on 3 March by courier."
ROWS = [
    # (case_id, answer, contexts, penalize, expected score)
    ("grounded", "Order A17 shipped on 3 March.", CONTEXT, False, 1.0),
    ("wrong", "Order A17 was cancelled. We are sorry.", CONTEXT, False, 0.5),
    ("invented", "Order A17 shipped on 3 March. It arrives tomorrow.", CONTEXT, False, 1.0),
    (
        "invented-penalized",
        "Order A17 shipped on 3 March. It arrives tomorrow.",
        CONTEXT,
        True,
        0.5,
    ),
    (
        "two-passages",
        "Refunds are paid within 5 working days. Order A17 was lost in Berlin.",
        POLICY,
        True,
        0.5,
    ),
    ("blank", "\u200b ", CONTEXT, False, None),  # never scored: NULL, as quarantined in a run
    ("refusal", "Unable to answer based on the passages.", CONTEXT, False, 1.0),
    ("no-context", "Order A17 shipped.", [], False, None),  # invalid: NULL, as in case_scores
]
SCORE = (
    "SELECT case_id, faith_lexical_score(actual_output, retrieval_context, penalize) AS score "
    "FROM read_parquet($path) ORDER BY case_id"
)
# Each offline judge's score function, and the judge it must equal.
SCORERS = {"faith_lexical_score": LexicalJudge, "faith_grounded_score": GroundedJudge}


@pytest.fixture
def logs(tmp_path: Path) -> Path:
    path = tmp_path / "logs" / "cases.parquet"
    path.parent.mkdir()
    pl.DataFrame(
        [row[:4] for row in ROWS],
        schema={
            "case_id": pl.String,
            "actual_output": pl.String,
            "retrieval_context": pl.List(pl.String),
            "penalize": pl.Boolean,
        },
        orient="row",
    ).write_parquet(path)
    return path


@pytest.fixture
def con() -> Iterator[duckdb.DuckDBPyConnection]:
    connection = duckdb.connect()
    register_metric_functions(connection)
    yield connection
    connection.close()


def python_score(
    answer: str, contexts: list[str], penalize: bool, judge: type = LexicalJudge
) -> float | None:
    metric = FaithfulnessMetric(judge(), penalize_ambiguous_claims=penalize)
    return metric.measure(LLMTestCase(input="q", actual_output=answer, retrieval_context=contexts))


@pytest.mark.parametrize("function", SCORERS)
def test_seed_examples_score_in_sql(
    con: duckdb.DuckDBPyConnection, logs: Path, function: str
) -> None:
    query = SCORE.replace("faith_lexical_score", function)
    got = dict(con.execute(query, {"path": str(logs)}).fetchall())
    assert got == {case_id: expected for case_id, *_, expected in ROWS}


@pytest.mark.parametrize("function", SCORERS)
def test_sql_scores_equal_the_python_api(
    con: duckdb.DuckDBPyConnection, logs: Path, function: str
) -> None:
    query = SCORE.replace("faith_lexical_score", function)
    got = dict(con.execute(query, {"path": str(logs)}).fetchall())
    judge = SCORERS[function]
    expected = {case_id: python_score(a, c, p, judge) for case_id, a, c, p, _ in ROWS}
    assert got == expected


def test_claims_and_verdicts_equal_the_python_api(
    con: duckdb.DuckDBPyConnection, logs: Path
) -> None:
    found = con.execute(
        "SELECT case_id, faith_claims(actual_output), "
        "faith_verdicts(actual_output, retrieval_context) "
        "FROM read_parquet($path) ORDER BY case_id",
        {"path": str(logs)},
    ).fetchall()
    by_case = {case_id: (answer, contexts) for case_id, answer, contexts, *_ in ROWS}
    for case_id, claims, verdicts in found:
        answer, contexts = by_case[case_id]
        metric = FaithfulnessMetric(LexicalJudge())
        metric.measure(LLMTestCase(input="q", actual_output=answer, retrieval_context=contexts))
        if metric.status != "scored":
            assert verdicts is None
            continue
        assert claims == metric.claims
        assert verdicts == [
            {"claim": v.claim, "verdict": v.verdict, "reason": v.reason} for v in metric.verdicts
        ]


def test_wrong_answer_verdicts(con: duckdb.DuckDBPyConnection) -> None:
    [(verdicts,)] = con.execute(
        "SELECT faith_verdicts($answer, $contexts)",
        {"answer": "Order A17 was cancelled. We are sorry.", "contexts": CONTEXT},
    ).fetchall()
    assert [(v["verdict"], v["reason"]) for v in verdicts] == [
        ("no", "The context says otherwise about: Order A17 was cancelled."),
        ("idk", "The context does not mention: We are sorry."),
    ]


def test_truths_of_a_passage(con: duckdb.DuckDBPyConnection) -> None:
    assert con.execute("SELECT faith_truths('One fact. Another one! A third?')").fetchall() == [
        (["One fact.", "Another one!", "A third?"],)
    ]


def test_null_in_null_out(con: duckdb.DuckDBPyConnection) -> None:
    found = con.execute(
        "SELECT faith_claims(NULL::VARCHAR), faith_truths(NULL::VARCHAR), "
        "faith_lexical_score(NULL, ['x'], false), faith_lexical_score('x.', NULL, false), "
        "faith_lexical_score('x.', ['x'], NULL), faith_verdicts(NULL, ['x'])"
    ).fetchall()
    assert found == [(None,) * 6]


def test_many_rows_in_one_vector(con: duckdb.DuckDBPyConnection) -> None:
    """DuckDB hands the function whole vectors: each row still gets its own answer."""
    found = con.execute(
        "SELECT s, count(*) FROM ("
        "SELECT faith_lexical_score(CASE WHEN i % 2 = 0 THEN $grounded ELSE $wrong END, "
        "$contexts, i % 3 = 0) AS s FROM range(5000) AS t(i)) GROUP BY s ORDER BY s",
        {"grounded": ROWS[0][1], "wrong": ROWS[1][1], "contexts": CONTEXT},
    ).fetchall()
    # the wrong answer (one no, one idk) scores 0.5, or 0 when penalised (odd multiples of 3)
    assert found == [(0.0, 833), (0.5, 1667), (1.0, 2500)]


def test_registering_twice_is_harmless(con: duckdb.DuckDBPyConnection) -> None:
    register_metric_functions(con)
    assert con.execute("SELECT faith_claims('A. B.')").fetchall() == [(["A.", "B."],)]


def test_a_second_connection_to_the_same_file_in_one_process_has_them_too(
    tmp_path: Path,
) -> None:
    # Connections of one process to one file share its catalog: DuckDB refuses the second
    # registration with another error than on the same connection.
    first = duckdb.connect(str(tmp_path / "f.duckdb"))
    second = duckdb.connect(str(tmp_path / "f.duckdb"))
    try:
        register_metric_functions(first)
        register_metric_functions(second)
        assert second.execute("SELECT faith_claims('A. B.')").fetchall() == [(["A.", "B."],)]
    finally:
        first.close()
        second.close()


def test_both_refusals_of_a_second_registration_are_read_without_a_catalog_look(
    tmp_path: Path,
) -> None:
    # Looking in duckdb_functions() costs ~40 ms a function; DuckDB's words say it already.
    first = duckdb.connect(str(tmp_path / "f.duckdb"))
    second = duckdb.connect(str(tmp_path / "f.duckdb"))
    name, (function, parameters, returns) = next(iter(metric_functions(first).items()))
    try:
        register_metric_functions(first)
        for con in (first, second):  # NotImplementedException, then CatalogException
            with pytest.raises(duckdb.Error) as refused:
                con.create_function(  # type: ignore[call-overload]
                    name, function, parameters, returns, type="arrow", null_handling="special"
                )
            assert _says_it_exists(refused.value, name), refused.value
        assert not _says_it_exists(duckdb.CatalogException("Table x does not exist"), name)
    finally:
        first.close()
        second.close()


def test_faith_claims_of_a_blank_answer_as_docs_metric_md_says(
    con: duckdb.DuckDBPyConnection,
) -> None:
    """docs/metric.md said `faith_claims` gives `[]` for every blank answer; the lexical split
    (the seed's rule, stripping white space only) keeps invisible characters as a sentence."""
    found = con.execute("SELECT faith_claims(' \t\n'), faith_claims('\u200b')").fetchall()
    assert found == [([], ["\u200b"])]
    assert (
        "`faith_claims('\\u200b')` is `['\\u200b']`"
        in (Path(__file__).resolve().parents[3] / "docs" / "metric.md").read_text()
    )
