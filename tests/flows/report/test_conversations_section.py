"""The report's conversations section (issue 23): the worst conversations, each with its
first failing turn in context, in the terminal and in the HTML file."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

import polars as pl
from rich.console import Console

from flows.report import ReportOptions, render_terminal, write_html_report
from flows.report.conversations import worst_conversations
from flows.store.db import connect
from tests.flows.run.test_conversation_nights import _run, conversation, night

# A conversation id as a log may hold it: a clear-screen sequence and a line break.
MARKED = "c2\x1b[2J\nerror: forged"


def test_the_worst_conversations_show_their_first_failing_turn(tmp_path: Path) -> None:
    db = tmp_path / "faith.duckdb"
    marked = [{**row, "conversation_id": MARKED} for row in conversation("c2", 4)]
    _run(night(tmp_path / "logs.parquet", conversation("c1", 2), marked), db)
    con = connect(db, read_only=True)
    try:
        worst = worst_conversations(con)
        out = io.StringIO()
        render_terminal(con, ReportOptions(), Console(file=out, width=200))
        page = write_html_report(con, tmp_path / "report.html").read_text()
    finally:
        con.close()
    # Turn 2 of each answers "within 9 days": contradicted by the passage.
    assert sorted(worst["conversation_id"].to_list()) == ["c1", MARKED]
    assert set(worst["first_failing_turn"].to_list()) == {2}
    assert "\x1b" not in out.getvalue()  # shown, not obeyed (it was printed raw)
    assert "\nerror: forged" not in out.getvalue()
    text = " ".join(out.getvalue().split())
    assert "c2\\x1b[2J\\nerror: forged" in text
    assert "Worst conversations" in text
    assert "user: Question 1 about order A17?" in text
    assert "assistant: Refunds are paid within 9 days." in text
    assert "Refunds are paid within 9 days. [no]" in text
    assert "<h2>Worst conversations</h2>" in page
    assert "<bdi>Refunds are paid within 9 days.</bdi> [no]" in page


def test_a_cases_tables_conversation_names_its_failing_case_not_none(tmp_path: Path) -> None:
    """A cases table with a `conversation_id` segment and no `turn`: the section names the
    failing case, where it printed `turn None`."""
    frame = pl.DataFrame(
        [
            {
                "case_id": case_id,
                "input": "Where is order A17?",
                "actual_output": answer,
                "retrieval_context": ["Order A17 shipped on 3 March."],
                "logged_at": "2026-11-01T09:00:00Z",
                "conversation_id": "conv-x",
            }
            for case_id, answer in [("k1", "Order A17 shipped on 9 May."), ("k2", "Hello.")]
        ]
    )
    frame.write_parquet(tmp_path / "cases.parquet")
    db = tmp_path / "faith.duckdb"
    _run(tmp_path / "cases.parquet", db)
    con = connect(db, read_only=True)
    try:
        out = io.StringIO()
        render_terminal(con, ReportOptions(), Console(file=out, width=200))
        page = write_html_report(con, tmp_path / "report.html").read_text()
    finally:
        con.close()
    text = " ".join(out.getvalue().split())
    assert "conv-x, turn case k1:" in text
    assert "None" not in text
    assert "<td>case k1</td>" in page


def test_the_worst_conversations_are_the_windows_at_the_reports_settings(tmp_path: Path) -> None:
    """`faith report --since D` and `--threshold T` narrow this section as every other: it
    listed conversations logged before the window (under "No cases in this window.") and
    failed turns that pass at the report's threshold."""
    db = tmp_path / "faith.duckdb"
    # c1 is logged on 2026-11-02, c2 on 2026-11-03; the turn 2 of each is contradicted.
    _run(night(tmp_path / "logs.parquet", conversation("c1", 2), conversation("c2", 4)), db)
    window = ReportOptions(since=dt.date(2026, 11, 3))
    lenient = ReportOptions(threshold=0.0)
    con = connect(db, read_only=True)
    try:
        everything = worst_conversations(con)
        in_window = worst_conversations(con, window)
        at_zero = worst_conversations(con, lenient)
        out = io.StringIO()
        render_terminal(con, ReportOptions(since=dt.date(2026, 12, 1)), Console(file=out))
        page = write_html_report(con, tmp_path / "report.html", options=window).read_text()
    finally:
        con.close()
    assert sorted(everything["conversation_id"].to_list()) == ["c1", "c2"]
    assert in_window["conversation_id"].to_list() == ["c2"]
    assert at_zero.is_empty()  # every turn passes at threshold 0: no failing conversation
    text = " ".join(out.getvalue().split())
    assert "No cases in this window." in text
    assert "Worst conversations" not in text
    section = page[page.index("<h2>Worst conversations</h2>") :]
    assert "<td><bdi>c2</bdi> (" in section
    assert "<td><bdi>c1</bdi> (" not in section


def test_a_right_to_left_override_in_a_conversation_reorders_only_itself(tmp_path: Path) -> None:
    """A conversation id or a claim carrying U+202E (an RTL override) drew the rest of its line
    backwards on the page: the config's label after the id, the verdict after the claim. Each
    is set apart in `<bdi>`, as the failing cases' ids and claims are (docs/report.md)."""
    db = tmp_path / "faith.duckdb"
    rlo = "\u202e"
    marked = [{**row, "conversation_id": f"c1{rlo}"} for row in conversation("c1", 2)]
    _run(night(tmp_path / "logs.parquet", marked), db)
    con = connect(db, read_only=True)
    try:
        page = write_html_report(con, tmp_path / "report.html").read_text()
    finally:
        con.close()
    section = page[page.index("<h2>Worst conversations</h2>") :]
    assert f"<td><bdi>c1{rlo}</bdi> (grounded-v13, threshold 0.5 [" in section
    assert "<li><bdi>Refunds are paid within 9 days.</bdi> [no]</li>" in section


def test_a_huge_turn_is_cut_in_the_terminal_as_on_the_page(tmp_path: Path) -> None:
    """A failing turn whose answer pastes a whole document (300,000 characters) printed all of
    it, and its claim, to the terminal (600 KB, 4,000 lines of a nightly log): the question,
    the answer and each claim are cut at 2,000 characters there too, saying how much was left
    out, as every section of the HTML page cuts them."""
    db = tmp_path / "faith.duckdb"
    pasted = "Refunds are paid within 9 days. " + "x" * 300_000 + "."
    _run(night(tmp_path / "logs.parquet", conversation("c1", 2, edited={2: pasted})), db)
    con = connect(db, read_only=True)
    try:
        out = io.StringIO()
        # its claims: "within 9 days" contradicted, the pasted one not found (0.5): failing at 0.9
        render_terminal(con, ReportOptions(threshold=0.9), Console(file=out, width=100))
    finally:
        con.close()
    printed = out.getvalue()
    text = " ".join(printed.split())
    assert "c1, turn 2: user: Question 1 about order A17? assistant: Refunds are paid" in text
    assert "… (298,033 more characters)" in text  # the answer
    assert "… (298,001 more characters) [idk]" in text  # its pasted claim
    assert len(printed) < 20_000
