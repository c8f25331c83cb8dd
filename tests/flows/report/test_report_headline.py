"""The report leads with the answer: a headline of the latest day against the days before it
(with the alert badge of the nightly rule), then the latest `faith compare` result."""

from __future__ import annotations

import shutil
from datetime import date, timedelta
from pathlib import Path

import pytest

from flows.report import ReportOptions, write_html_report
from flows.report.compare import Sides, compare, store_comparison
from flows.store.db import connect, open_store
from tests.flows.store.test_analysis_sql import add_case

FIRST = date(2026, 10, 1)


@pytest.fixture(scope="module")
def ten_days(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Ten days of 40 cases of config lex (2 failing a day), written once (400 inserts, ~1.3
    CPU-s): each test that needs them adds its last day to a copy."""
    db = tmp_path_factory.mktemp("ten_days") / "f.duckdb"
    con = open_store(db)
    try:
        for d in range(10):
            for i in range(40):
                day = FIRST + timedelta(d)
                add_case(con, f"d{d}-{i}", day=day, yes=int(i >= 2), no=int(i < 2))
    finally:
        con.close()
    return db


def history(ten_days: Path, path: Path, *, last_day_failing: int) -> Path:
    """A copy of the ten days, then a day failing as told."""
    shutil.copy(ten_days, path)
    con = open_store(path)
    for i in range(40):
        failing = i < last_day_failing
        add_case(con, f"last-{i}", day=FIRST + timedelta(10), yes=int(not failing), no=int(failing))
    con.close()
    return path


def page(db: Path, tmp_path: Path) -> str:
    con = connect(db, read_only=True)
    try:
        return write_html_report(con, tmp_path / "r.html", options=ReportOptions()).read_text()
    finally:
        con.close()


@pytest.fixture(scope="module")
def quiet(tmp_path_factory: pytest.TempPathFactory, ten_days: Path) -> tuple[Path, str, dict]:
    """A quiet last day (3 failing) with a stored comparison: its database, its page and the
    comparison, built once for the tests that read them."""
    folder = tmp_path_factory.mktemp("quiet")
    db = history(ten_days, folder / "f.duckdb", last_day_failing=3)
    con = open_store(db)
    try:
        sides = Sides(a_since=FIRST, a_until=FIRST + timedelta(4), b_since=FIRST + timedelta(5))
        result = compare(con, sides, reps=50)
        store_comparison(con, result, at=FIRST + timedelta(11))
    finally:
        con.close()
    return db, page(db, folder), result


def test_a_drop_leads_the_page_with_an_alert_badge(ten_days: Path, tmp_path: Path) -> None:
    text = page(history(ten_days, tmp_path / "f.duckdb", last_day_failing=20), tmp_path)
    headline = text.index("class=headline")
    assert headline < text.index('class="chart"') < text.index("<h2>Latest periods")
    line = text[headline : text.index("</p>", headline)]
    assert "ALERT" in line
    assert "Latest day 2026-10-11: 50.0% pass" in line
    assert "-45.0 points against the previous 14 days&#x27; 95.0% of 400" in line


def test_a_quiet_day_is_within_range_and_the_latest_comparison_shows(
    quiet: tuple[Path, str, dict],
) -> None:
    _, text, result = quiet
    assert "within range" in text
    assert "ALERT" not in text
    assert "<h2>Latest comparison</h2>" in text
    assert result["verdict"].split(",")[0] in text.replace("<bdi>", "").replace("</bdi>", "")
    assert "unpaired (different cases on each side)" in text


def test_the_charts_fit_the_data_and_draw_the_threshold(quiet: tuple[Path, str, dict]) -> None:
    from flows.report import report_figures

    db = quiet[0]
    con = connect(db, read_only=True)
    try:
        figures = report_figures(con, ReportOptions())
    finally:
        con.close()
    low, high = figures["pass_rate"].layout.yaxis.range
    assert 0.85 < low < 0.925  # the rates move between 92.5% and 95%, not from 0
    assert 0.95 < high <= 1.005
    histogram = figures["score_distribution"]
    assert histogram.layout.yaxis.type == "log"
    (line,) = histogram.layout.shapes
    assert line.x0 == line.x1 == 0.5  # the configs' threshold


def test_the_page_inlines_the_basic_bundle_of_plotlys_own_version(
    quiet: tuple[Path, str, dict],
) -> None:
    from plotly.offline import get_plotlyjs_version

    text = quiet[1]
    assert f"plotly.js (basic - minified) v{get_plotlyjs_version()}" in text
    assert len(text.encode()) < 2_000_000  # the full bundle made every page 4.9 MB


def test_a_thin_segment_is_drawn_as_such(tmp_path: Path) -> None:
    from flows.report import report_figures

    db = tmp_path / "f.duckdb"
    con = open_store(db)
    for i in range(40):
        add_case(con, f"big-{i}", yes=1, segments={"app_version": "2.4.0"})
    for i in range(3):
        add_case(con, f"thin-{i}", yes=1, segments={"app_version": "2.4.1"})
    con.close()
    con = connect(db, read_only=True)
    try:
        (bars,) = report_figures(con, ReportOptions())["by_segment"].data
    finally:
        con.close()
    assert list(bars.x) == ["2.4.0", "2.4.1 (n=3: too few)"]
    assert list(bars.marker.opacity) == [1.0, 0.3]


def test_a_segment_value_is_drawn_as_text_not_as_plotlys_markup(tmp_path: Path) -> None:
    """plotly reads `<a href>` and `<b>` in a label as markup: a logged value could put a
    link on the page. Entities make plotly draw it as typed."""
    from flows.report import report_figures

    db = tmp_path / "f.duckdb"
    con = open_store(db)
    value = '<a href="https://evil.example">R&D</a>'
    for i in range(40):
        add_case(con, f"c-{i}", yes=1, segments={"app_version": value})
    con.close()
    con = connect(db, read_only=True)
    try:
        figure = report_figures(con, ReportOptions())["by_segment"]
    finally:
        con.close()
    (bars,) = figure.data
    assert list(bars.x) == ['&lt;a href="https://evil.example"&gt;R&amp;D&lt;/a&gt;']
    assert "<" not in bars.name


def test_a_config_label_and_a_segment_name_show_as_typed_once(tmp_path: Path) -> None:
    """The attribution chart's subplot titles (config labels: a calibration's name is the
    user's) went to plotly as markup, a link on the page; the segment chart's heading, escaped
    for plotly and then for the page, read 'R&amp;D &lt;team&gt;'."""
    from flows.report import report_figures

    db = tmp_path / "f.duckdb"
    con = open_store(db)
    label = '<a href="https://evil.example/">cal</a>'
    for i in range(40):
        add_case(con, f"c-{i}", config=label, yes=1, segments={"R&D <team>": "a"})
    con.close()
    con = connect(db, read_only=True)
    try:
        titles = [note.text for note in report_figures(con, ReportOptions())["attribution"]
                  .layout.annotations]  # fmt: skip
        html_page = write_html_report(
            con, tmp_path / "r.html", options=ReportOptions(segment="R&D <team>")
        ).read_text()
    finally:
        con.close()
    assert titles
    assert all("<" not in title for title in titles), titles
    assert "<h3>Pass rate by R&amp;D &lt;team&gt; over the window" in html_page


def test_failing_cases_show_what_the_context_lacks_else_the_evidence(
    tmp_path: Path,
) -> None:
    from tests.flows.store.test_analysis_sql import add_verdicts

    db = tmp_path / "f.duckdb"
    con = open_store(db)
    add_case(con, "bad", no=1)
    add_verdicts(con, "bad", [("Refunds take 9 days.", "no")])
    con.execute("UPDATE claim_verdicts SET evidence = 'Refunds are paid within 5 working days.'")
    con.close()
    before = page(db, tmp_path)
    assert "<h2>Latest failing cases</h2>" in before
    assert "evidence: Refunds are paid within 5 working days." in before
    con = open_store(db)
    has_column = con.execute(
        "SELECT count(*) FROM duckdb_columns() WHERE table_name = 'claim_verdicts' "
        "AND column_name = 'context_lacks'"
    ).fetchall()[0][0]
    if not has_column:  # a database before the judges' migration 012
        con.execute("ALTER TABLE claim_verdicts ADD COLUMN context_lacks VARCHAR[]")
    con.execute("UPDATE claim_verdicts SET context_lacks = ['9 days']")
    con.close()
    after = page(db, tmp_path)
    assert "the context lacks: 9 days" in after


def test_failing_cases_of_a_score_list_the_least_supported_first(tmp_path: Path) -> None:
    """As worst_cases: of two answers scoring 0 on the same day, the one whose `no` claim the
    context holds least comes first, whatever their ids."""
    from tests.flows.store.test_analysis_sql import add_verdicts

    db = tmp_path / "f.duckdb"
    con = open_store(db)
    for case_id, claim, support in (
        ("a-near", "Refunds take 9 working days.", 0.5),
        ("b-invented", "Batteries are covered for life.", 0.05),
    ):
        add_case(con, case_id, no=1)
        add_verdicts(con, case_id, [(claim, "no")])
        con.execute(
            "UPDATE claim_verdicts SET support = $s WHERE case_id = $c",
            {"s": support, "c": case_id},
        )
    con.close()
    text = page(db, tmp_path)
    assert text.index("Batteries are covered for life.") < text.index(
        "Refunds take 9 working days."
    )


def test_the_terminal_report_at_80_columns_cuts_nothing(quiet: tuple[Path, str, dict]) -> None:
    import io

    from rich.console import Console

    from flows.report import render_terminal

    db = quiet[0]
    out = io.StringIO()
    con = connect(db, read_only=True)
    try:
        render_terminal(con, ReportOptions(), Console(file=out, width=80))
    finally:
        con.close()
    text = out.getvalue()
    assert "…" not in text
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "2026-10-11" in text
    assert "pending %" in text  # the last column, in the second part


def test_one_case_logged_at_year_1_leaves_the_chart_small_and_its_ticks_dated(
    tmp_path: Path,
) -> None:
    """0001-01-01 (.NET's DateTime.MinValue) filled 740,000 empty days into the pass-rate
    chart: a 31 MB page built in 28 s, ticks 250 years apart reading 'Jan 1'."""
    from flows.report import report_figures

    db = tmp_path / "f.duckdb"
    con = open_store(db)
    add_case(con, "placeholder", yes=1, day=date(1, 1, 1))
    for i in range(3):
        add_case(con, f"c-{i}", yes=1, day=date(2026, 10, 1 + i))
    con.close()
    con = connect(db, read_only=True)
    try:
        figure = report_figures(con, ReportOptions())["pass_rate"]
    finally:
        con.close()
    assert max(len(trace.x) for trace in figure.data) < 20
    assert figure.layout.xaxis.tickformat == "%b %-d, %Y"


def test_the_window_is_the_periods_just_before_the_latest_not_any_earlier_ones(
    ten_days: Path, tmp_path: Path
) -> None:
    """The headline pools the 14 days before the latest day, as the nightly rule does: days
    logged months earlier, across a gap, are no window ('the previous 14 days' 95.0%' was their
    rate, and the badge said ALERT where no nightly would fire)."""
    db = tmp_path / "f.duckdb"
    shutil.copy(ten_days, db)
    con = open_store(db)
    # the ten days, logged 200 days before the latest one
    con.execute("UPDATE case_scores SET logged_at = logged_at - INTERVAL 200 DAY")
    for i in range(40):
        add_case(con, f"last-{i}", day=FIRST, yes=int(i >= 20), no=int(i < 20))
    con.close()
    text = page(db, tmp_path)
    headline = text.index("class=headline")
    line = text[headline : text.index("</p>", headline)]
    assert "Latest day 2026-10-01: 50.0% pass" in line
    assert "points against" not in line  # nothing was logged in the 14 days before it
    assert "ALERT" not in line


def test_a_right_to_left_override_in_logged_text_reorders_only_itself(tmp_path: Path) -> None:
    """A case id, answer or claim carrying U+202E (RIGHT-TO-LEFT OVERRIDE) with no end once
    drew the rest of its line backwards: 'score 0.00' read '00.0 erocs'. Each is set apart
    (`<bdi>`), so the override ends with it."""
    from tests.flows.store.test_analysis_sql import add_verdicts

    rlo = "\u202e"
    db = tmp_path / "f.duckdb"
    con = open_store(db)
    add_case(con, f"case{rlo}1", no=1, answer=f"Refunds take{rlo} 9 days.")
    add_verdicts(con, f"case{rlo}1", [(f"Refunds take{rlo} 9 days.", "no")])
    con.close()
    text = page(db, tmp_path)
    assert f"<li><bdi>case{rlo}1</bdi> (2026-03-02, score 0.00, config " in text
    assert f"<bdi>Refunds take{rlo} 9 days.</bdi><ul><li><b>no</b> <bdi>Refunds" in text


def test_a_right_to_left_override_in_a_compared_segment_value_stays_in_its_label(
    tmp_path: Path,
) -> None:
    """The latest comparison's verdict opens with side B's segment value, logged text: with an
    unterminated U+202E, '2.4.1 passes 40.0 points less, 95% CI [...]' read backwards. The
    label is set apart (`<bdi>`) there too, as in the line below it."""
    rlo = "\u202e"
    db = tmp_path / "f.duckdb"
    con = open_store(db)
    try:
        for i in range(40):
            add_case(con, f"a-{i}", yes=1, segments={"app_version": "2.4.0"})
            failing = i < 16
            add_case(
                con,
                f"b-{i}",
                yes=int(not failing),
                no=int(failing),
                segments={"app_version": f"2.4.1{rlo}"},
            )
        sides = Sides(segment="app_version", a="2.4.0", b=f"2.4.1{rlo}")
        store_comparison(con, compare(con, sides, reps=50), at=FIRST)
    finally:
        con.close()
    text = page(db, tmp_path)
    assert f"<p class=headline><bdi>2.4.1{rlo}</bdi> passes 40.0 points less" in text


def test_a_latest_day_with_only_invalid_cases_is_the_headline_not_skipped(
    ten_days: Path, tmp_path: Path
) -> None:
    """Last night every case came back invalid (the judge broke): the headline showed the night
    before as the latest day, 'within range', and hid the one failure a nightly reader needs.
    The latest day with any case logged leads, saying it scored none and why."""
    db = tmp_path / "f.duckdb"
    shutil.copy(ten_days, db)
    con = open_store(db)
    for i in range(40):
        add_case(con, f"last-{i}", day=FIRST + timedelta(10), status="invalid")
    add_case(con, "last-pending", day=FIRST + timedelta(10), status="pending")
    con.close()
    text = page(db, tmp_path)
    headline = text.index("class=headline")
    line = text[headline : text.index("</p>", headline)]
    assert "Latest day 2026-10-11: pass rate n/a, 0 scored of 41: 40 invalid, 1 pending" in line
    assert "the previous 14 days&#x27; 95.0% of 400" in line
    assert "NOTHING SCORED" in line
    assert "within range" not in line
    assert "2026-10-10" not in line


def test_a_latest_day_mostly_invalid_says_how_many_its_rate_leaves_out(
    ten_days: Path, tmp_path: Path
) -> None:
    """Last night the judge broke on 35 of 42 cases: the headline read '100.0% pass [56.6%,
    100.0%] of 5 cases ... within range', the 37 cases it never judged said nowhere on the
    line a reader stops at. They are said beside the count the rate is of."""
    db = tmp_path / "f.duckdb"
    shutil.copy(ten_days, db)
    con = open_store(db)
    for i in range(5):
        add_case(con, f"last-{i}", day=FIRST + timedelta(10), yes=1)
    for i in range(35):
        add_case(con, f"last-invalid-{i}", day=FIRST + timedelta(10), status="invalid")
    for i in range(2):
        add_case(con, f"last-pending-{i}", day=FIRST + timedelta(10), status="pending")
    con.close()
    text = page(db, tmp_path)
    headline = text.index("class=headline")
    line = text[headline : text.index("</p>", headline)]
    assert (
        "Latest day 2026-10-11: 100.0% pass [56.6%, 100.0%] of 5 cases (35 invalid, 2 pending: "
        "not in the rate), +5.0 points against the previous 14 days&#x27; 95.0% of 400"
    ) in line


def test_a_window_with_no_case_logged_says_so(tmp_path: Path) -> None:
    db = tmp_path / "f.duckdb"
    open_store(db).close()
    assert "<p class=headline>No case logged in this window.</p>" in page(db, tmp_path)


def test_a_comparison_recomputed_at_another_threshold_says_so(tmp_path: Path) -> None:
    """`faith compare --threshold 0.9 --penalize-ambiguous` keeps rates recomputed so, and the
    page showed them under 'config ..., threshold 0.5' alone: 60.0% of 40 read as the rate at
    0.5, where every case of side A passes. The settings the sides were read at are said."""
    db = tmp_path / "f.duckdb"
    con = open_store(db)
    try:
        for i in range(40):  # scores 1.0 on side A, 0.5 (yes and idk) on 60% of side B
            add_case(con, f"a-{i}", yes=1, segments={"app_version": "2.4.0"})
            add_case(con, f"b-{i}", yes=1, idk=int(i < 16), segments={"app_version": "2.4.1"})
        sides = Sides(
            segment="app_version", a="2.4.0", b="2.4.1", threshold=0.9, penalize_ambiguous=True
        )
        store_comparison(con, compare(con, sides, reps=50), at=FIRST)
    finally:
        con.close()
    text = page(db, tmp_path)
    section = text[text.index("<h2>Latest comparison</h2>") : text.index("<h2>Latest periods")]
    assert "B <bdi>2.4.1</bdi>: 60.0% of 40" in section
    assert "read at threshold 0.9, penalize ambiguous on" in section
