"""`faith report` at its edges, on real DuckDB files: a segment column that is all null, an
empty database, segment values thousands of characters long."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

import plotly.graph_objects as go
import polars as pl
from rich.console import Console

from flows.report import ReportOptions, render_terminal, report_figures, write_html_report
from flows.report.markup import SHOWN_CHARS
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from flows.store.db import connect, open_store
from tests.flows.store.test_analysis_sql import add_case
from tests.support.builders import many_cases, write


def _report(db: Path, options: ReportOptions) -> tuple[str, dict[str, go.Figure]]:
    """The terminal report's text and the charts."""
    out = io.StringIO()
    con = connect(db, read_only=True)
    try:
        render_terminal(con, options, Console(file=out, width=160))
        return out.getvalue(), report_figures(con, options)
    finally:
        con.close()


def _notes(figure: go.Figure) -> list[str]:
    return [note.text for note in figure.layout.annotations if note.text]


def test_a_segment_column_all_null_is_said_not_left_out_in_silence(tmp_path: Path) -> None:
    """`--segment region` of logs whose region is always null printed no table and no word
    (the column is known, so it was no error either), and the chart was drawn empty."""
    logs = many_cases(12).with_columns(region=pl.lit(None, dtype=pl.Utf8))
    db = tmp_path / "f.duckdb"
    source = write(logs, tmp_path / "logs.parquet")
    run_score(ScoreSettings.model_validate({"source": str(source), "db": str(db)}))
    text, figures = _report(db, ReportOptions(segment="region"))
    assert "No case in this window has a value of region: nothing to slice by." in text
    figure = figures["by_segment"]
    assert not figure.data
    assert _notes(figure) == ["No scored case in this window has a value of region."]


def test_an_empty_database_says_so_in_every_chart(tmp_path: Path) -> None:
    """A database with nothing scored drew three blank plots with no word, and listed the
    metric configs as a table of headers alone."""
    db = tmp_path / "empty.duckdb"
    open_store(db).close()
    _text, figures = _report(db, ReportOptions())
    assert list(figures) == ["pass_rate", "score_distribution", "attribution"]
    for name, figure in figures.items():
        assert _notes(figure) == ["Nothing scored in this window."], name
    con = connect(db, read_only=True)
    try:
        page = write_html_report(con, tmp_path / "r.html").read_text(encoding="utf-8")
    finally:
        con.close()
    assert "<h2>Metric configs</h2>\n<p>No metric config has cases yet.</p>" in page


def test_a_scored_database_draws_no_empty_note(tmp_path: Path) -> None:
    db = tmp_path / "f.duckdb"
    con = open_store(db)
    add_case(con, "c1", yes=1, segments={"app_version": "2.4.1"})
    con.close()
    _text, figures = _report(db, ReportOptions())
    for name, figure in figures.items():
        assert figure.data, name
        assert not [note for note in _notes(figure) if note.startswith(("Nothing", "No "))], name


def test_cases_without_a_logged_day_are_said_not_drawn_blank(tmp_path: Path) -> None:
    db = tmp_path / "f.duckdb"
    con = open_store(db)
    add_case(con, "c1", yes=1)
    con.execute("UPDATE case_scores SET logged_at = NULL")
    con.close()
    _text, figures = _report(db, ReportOptions())
    why = "No scored case in this window has a logged_at day to draw it by."
    assert why in _notes(figures["pass_rate"])
    assert why in _notes(figures["attribution"])
    assert figures["score_distribution"].data  # its scores are drawn all the same


def test_a_long_segment_value_is_cut_in_the_chart_and_two_alike_stay_apart(
    tmp_path: Path,
) -> None:
    """A 5,000-character segment value was drawn whole as a tick label of the chart (and in
    its hover), a label wider than any screen where the terminal cuts it at 120 characters.
    Cut, two values alike in their first characters must still be two bars: plotly draws one
    category per distinct label, and would have stacked them as one."""
    db = tmp_path / "f.duckdb"
    con = open_store(db)
    first, second = "x" * 5_000, "x" * 4_000 + "y" * 1_000
    for i in range(3):
        add_case(con, f"a-{i}", yes=1, segments={"app_version": first})
        add_case(con, f"b-{i}", no=1, segments={"app_version": second})
        add_case(con, f"c-{i}", yes=1, segments={"app_version": "2.4.1"})
    con.close()
    _text, figures = _report(db, ReportOptions())
    (bars,) = figures["by_segment"].data
    assert all(len(label) < 100 for label in bars.x), [len(label) for label in bars.x]
    short, whole, alike = bars.x
    assert short == "2.4.1 (n=3: too few)"
    assert whole == "x" * 40 + "… (5,000 characters) (n=3: too few)"
    assert alike == "x" * 40 + "… (5,000 characters) #2 (n=3: too few)"
    assert list(bars.y) == [1.0, 1.0, 0.0]  # each value its own bar, its own rate


def test_long_logged_text_is_cut_in_the_html_report(
    tmp_path: Path,
) -> None:
    """A dozen failing cases read from 1 MB passages made an 11 MB report: each top claim
    shows the passages it was read against, and each failing case its answer, whole."""
    filler = "The parcel left the depot and reached the customer on time. " * 17_000
    rows = [
        {
            "case_id": f"long-{i}",
            "input": "When are refunds paid?",
            "actual_output": f"Refunds are paid within {i + 50} days.",
            "retrieval_context": [f"Refunds are paid within {i + 1} days. " + filler],
            "logged_at": dt.datetime(2026, 10, 1),
        }
        for i in range(12)
    ]
    db = tmp_path / "f.duckdb"
    source = write(pl.DataFrame(rows), tmp_path / "logs.parquet")
    run_score(ScoreSettings.model_validate({"source": str(source), "db": str(db)}))
    con = connect(db, read_only=True)
    try:
        page = write_html_report(con, tmp_path / "report.html").read_text(encoding="utf-8")
    finally:
        con.close()
    assert len(page.encode()) < 6_000_000  # plotly.js is ~4.7 MB of it; 11 MB before
    assert f"({len(rows[0]['retrieval_context'][0]) - SHOWN_CHARS:,} more characters)" in page


def test_a_strict_config_keeps_its_pass_mark_in_the_score_chart_at_another_threshold(
    tmp_path: Path,
) -> None:
    """`faith report --threshold 0.3` recomputes every config at 0.3 but a strict one, which
    keeps 1 (as the macros do); the score distribution drew 0.3 as the strict config's
    threshold all the same, a pass mark its pass rates were not read at."""
    source = write(many_cases(12), tmp_path / "logs.parquet")
    db = tmp_path / "f.duckdb"
    for strict in (False, True):
        settings = {"source": str(source), "db": str(db), "strict_mode": strict}
        run_score(ScoreSettings.model_validate(settings))
    _text, figures = _report(db, ReportOptions(threshold=0.3))
    drawn = sorted(note.text for note in figures["score_distribution"].layout.annotations)
    assert drawn == ["threshold 0.3", "threshold 1"]
