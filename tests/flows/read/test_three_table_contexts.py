"""The three-table form's contexts table: a case's passages are its distinct passage rows in
position order, so an overlapping export (yesterday's rows again in tonight's file) scores the
same cases as before, and passages at one position are in one order every night."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import duckdb
import polars as pl

from flows.read.source import count_rows, resolve_source
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.builders import CONTEXT, write

ANSWER = "Order A17 shipped on 3 March."


def export(folder: Path, name: str, ids: list[str]) -> None:
    """One night's export of the three tables, each table a file in its folder."""
    n = len(ids)
    logged_at = [dt.datetime(2026, 10, 1)] * n
    questions = pl.DataFrame({"case_id": ids, "input": ["Where is A17?"] * n})
    questions = questions.with_columns(logged_at=pl.Series(logged_at))
    outputs = pl.DataFrame({"case_id": ids, "actual_output": [ANSWER] * n})
    contexts = pl.DataFrame(
        {
            "case_id": [case for case in ids for _ in CONTEXT],
            "position": list(range(len(CONTEXT))) * n,
            "text": CONTEXT * n,
        }
    )
    for table, frame in (("questions", questions), ("outputs", outputs), ("contexts", contexts)):
        write(frame, folder / table / f"{name}.parquet")


def score(source: Path, db: Path) -> dict:
    return run_score(ScoreSettings(source=str(source), db=str(db)))


def stored_hashes(db: Path) -> dict[str, str]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return dict(con.sql("SELECT case_id, content_hash FROM case_scores").fetchall())
    finally:
        con.close()


def test_an_overlapping_export_scores_yesterdays_cases_no_second_time(tmp_path: Path) -> None:
    """Tonight's export holds yesterday's cases again: their passage rows read twice made each
    passage two ([A, A, B, B]), another content, so every one of them was scored again."""
    logs, db = tmp_path / "logs", tmp_path / "faith.duckdb"
    export(logs, "night-1", ["a", "b"])
    score(logs, db)
    yesterday = stored_hashes(db)
    export(logs, "night-2", ["a", "b", "c"])
    run = score(logs, db)
    assert (run["rows_newly_scored"], run["rows_replaced"]) == (1, 0)
    assert {case: stored_hashes(db)[case] for case in yesterday} == yesterday


def test_passages_at_one_position_are_in_one_order_whatever_the_row_order(tmp_path: Path) -> None:
    """Two passages logged at one position were listed in the order DuckDB met them, so the
    same case read from rows in another order was another content, and scored again."""
    for order, name in ((1, "ab"), (-1, "ba")):
        folder = tmp_path / name
        export(folder, "night-1", ["a"])
        contexts = pl.DataFrame({"case_id": ["a", "a"], "position": [0, 0], "text": CONTEXT})
        write(contexts[::order], folder / "contexts" / "night-1.parquet")
        score(folder, tmp_path / f"{name}.duckdb")
    assert stored_hashes(tmp_path / "ab.duckdb") == stored_hashes(tmp_path / "ba.duckdb")


def test_positions_logged_as_text_are_in_their_numbers_order(tmp_path: Path) -> None:
    """An export that typed `position` as text ("0" … "11") listed passage 10 before passage 2,
    as text sorts: the case was another content than the same passages numbered."""
    passages = [f"Order A17 left depot {n}." for n in range(12)]
    for kind, positions in (("numbers", list(range(12))), ("text", [str(n) for n in range(12)])):
        export(tmp_path / kind, "night-1", ["a"])
        contexts = pl.DataFrame({"case_id": ["a"] * 12, "position": positions, "text": passages})
        write(contexts, tmp_path / kind / "contexts" / "night-1.parquet")
        score(tmp_path / kind, tmp_path / f"{kind}.duckdb")
    assert stored_hashes(tmp_path / "text.duckdb") == stored_hashes(tmp_path / "numbers.duckdb")


def test_passages_that_are_no_text_are_quarantined_as_in_one_table(tmp_path: Path) -> None:
    """A contexts table whose `text` is typed a number stopped the run with DuckDB's `Binder
    Error: Cannot mix values of type BIGINT[] and VARCHAR[]` (exit 3); a cases table of such
    passages (`[5]`, and `[]` typed alike) quarantines its rows, and so do the three tables."""
    export(tmp_path / "logs", "night-1", ["a", "b"])
    contexts = pl.DataFrame({"case_id": ["a"], "position": [0], "text": [5]})
    write(contexts, tmp_path / "logs" / "contexts" / "night-1.parquet")
    settings = ScoreSettings(
        source=str(tmp_path / "logs"), db=str(tmp_path / "faith.duckdb"), max_quarantine_share=1
    )
    run = run_score(settings)
    assert (run["rows_in"], run["rows_quarantined"]) == (2, 2)
    con = duckdb.connect(str(tmp_path / "faith.duckdb"), read_only=True)
    try:
        checks = con.sql('SELECT case_id, "check", value FROM quarantine ORDER BY 1').fetchall()
    finally:
        con.close()
    assert checks == [
        ("a", "retrieval_context_not_a_list_of_strings", "[5]"),
        ("b", "retrieval_context_not_a_list_of_strings", "[]"),
    ]


def test_the_rows_a_run_says_it_will_read_are_the_rows_it_reads(tmp_path: Path) -> None:
    """Outputs holding a case's answer twice (an overlapping export) join it twice: the run
    read 3 rows having said 2 (`batch 1: 3/2 rows`), its progress past the whole."""
    export(tmp_path / "logs", "night-1", ["a", "b"])
    answers = pl.DataFrame({"case_id": ["a", "b"], "actual_output": [ANSWER] * 2})
    write(answers.head(1), tmp_path / "logs" / "outputs" / "night-2.parquet")
    said = count_rows(resolve_source(str(tmp_path / "logs")))
    run = score(tmp_path / "logs", tmp_path / "faith.duckdb")
    assert said == run["rows_in"] == 3
