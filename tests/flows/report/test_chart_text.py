"""User text in the HTML report's charts (plotly's JSON) and their headings: bidirectional
controls (U+202A-U+202E, U+2066-U+2069) are shown as escapes, never obeyed, so a segment
column's name or a judge model's name cannot draw a label, a legend or a heading backwards."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

from rich.console import Console

from flows.report import ReportOptions, render_terminal, write_html_report
from flows.store.db import connect, open_store
from tests.flows.store.test_analysis_sql import add_case

BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")
RLO, RLI = "\u202e", "\u2067"
SEGMENT = f"app{RLO}version"  # a segment column's name, as the logs spelled it
MODEL = f"gpt-4o{RLO}-mini"  # a judge model's name, as --model was typed


def _database(path: Path) -> Path:
    con = open_store(path)
    for i in range(40):
        add_case(con, f"c-{i}", yes=1, segments={SEGMENT: f"2.4{RLI}.1", "app_version": "2.4.1"})
    con.execute(
        "INSERT INTO runs (run_id, flow, config_id, config, source, status, started_at) "
        "VALUES ('run-1', 'score', 'lex', $config, 'logs', 'completed', now())",
        {"config": json.dumps({"judge": {"kind": "openai", "model": MODEL}})},
    )
    con.close()
    return path


def chart_json(page: str, name: str) -> tuple[list[Any], dict[str, Any]]:
    """The data and layout plotly draws chart `name` from, as the page holds them."""
    at = page.index(f'Plotly.newPlot(                        "chart-{name}",')
    decoder = json.JSONDecoder()
    start = page.index("[", at)
    data, end = decoder.raw_decode(page, start)
    layout, _ = decoder.raw_decode(page, page.index("{", end))
    return data, layout


def strings(value: Any) -> list[str]:
    """Every string in a JSON value, keys too."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (k, *strings(v))]
    if isinstance(value, list):
        return [s for item in value for s in strings(item)]
    return []


def test_bidi_controls_in_chart_labels_and_headings_are_shown_not_obeyed(tmp_path: Path) -> None:
    """The segment column's name reached the chart's axis title and its heading with its
    U+202E, and the judge model's name every legend: '…over the window' read backwards."""
    db = _database(tmp_path / "f.duckdb")
    con = connect(db, read_only=True)
    try:
        page = write_html_report(
            con, tmp_path / "r.html", options=ReportOptions(segment=SEGMENT)
        ).read_text(encoding="utf-8")
    finally:
        con.close()
    names = re.findall(r'id="chart-(\w+)"', page)
    assert names == ["pass_rate", "score_distribution", "by_segment", "attribution"]
    for name in names:
        data, layout = chart_json(page, name)
        obeyed = [s for s in strings([data, layout]) if BIDI.search(s)]
        assert obeyed == [], name
    data, layout = chart_json(page, "by_segment")
    assert data[0]["x"] == ["2.4\\u2067.1"]  # the value's control, shown
    assert data[0]["name"] == "openai:gpt-4o\\u202e-mini, threshold 0.5 [lex]"
    assert layout["xaxis"]["title"]["text"] == "app\\u202eversion"
    headings = re.findall(r"<h3>(.*?)</h3>", page)
    assert "Pass rate by app\\u202eversion over the window (95% Wilson interval)" in headings
    assert not any(BIDI.search(heading) for heading in headings)


def test_a_judge_models_bidi_control_is_shown_in_the_terminal_titles(tmp_path: Path) -> None:
    db = _database(tmp_path / "f.duckdb")
    out = io.StringIO()
    con = connect(db, read_only=True)
    try:
        render_terminal(con, ReportOptions(), Console(file=out, width=160))
    finally:
        con.close()
    assert not BIDI.search(out.getvalue())
    assert "lex (openai:gpt-4o\\u202e-mini, threshold 0.5): latest 7 day(s)" in out.getvalue()


def test_a_long_segment_value_is_whole_in_the_bar_hover_while_its_axis_label_is_cut(
    tmp_path: Path,
) -> None:
    """The hover showed the axis label, cut at 40 characters: the whole of a long value was
    nowhere on the page. The hover shows it whole (escaped, its controls shown), in lines."""
    from flows.printable import printable

    value = "route=/api/v2/orders?<b>x</b>&y=1" + "-tail" * 20 + f"{RLO}end"
    db = tmp_path / "f.duckdb"
    con = open_store(db)
    for i in range(40):
        add_case(con, f"c-{i}", yes=1, segments={"path": value})
    con.close()
    con = connect(db, read_only=True)
    try:
        page = write_html_report(
            con, tmp_path / "r.html", options=ReportOptions(segment="path")
        ).read_text(encoding="utf-8")
    finally:
        con.close()
    data, _ = chart_json(page, "by_segment")
    assert "…" in data[0]["x"][0]  # the axis label stays cut
    assert data[0]["hovertemplate"].startswith("%{customdata[2]}: ")
    passed, scored, hover = data[0]["customdata"][0]
    assert (passed, scored) == (40, 40)
    whole = printable(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    assert hover.replace("<br>", "") == whole
    assert "\\u202eend" in hover
    assert not BIDI.search(hover)
