"""`faith report` on a small hand-made database: terminal tables, the offline HTML file."""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import socket
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
from rich.console import Console

from faith_udfs import ConfigError
from flows.cli import main
from flows.cli.report_command import add_report_arguments
from flows.errors import DatabaseError
from flows.report import (
    ReportOptions,
    render_terminal,
    report_figures,
    write_html_report,
)
from flows.store.db import connect, open_store
from tests.conftest import run_python
from tests.flows.store.test_analysis_sql import add_case, add_truths, add_verdicts, populate
from tests.flows.store.test_migrations import old_database

XSS = "<script>alert('x')</script>"
EXTERNAL = re.compile(
    r"<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)\s*=\s*[\"']?(?:https?:)?//", re.I
)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("report") / "faith.duckdb"
    con = open_store(path)
    populate(con)
    # user text that must reach the page as text, never as markup
    add_case(con, "x1", config="xss", segments={"app_version": XSS}, passage_ids=[9], no=1)
    add_verdicts(con, "x1", [(f"Order {XSS} was cancelled.", "no")], config="xss")
    add_truths(con, 9, [f"Passage {XSS} says otherwise."], config="xss")
    con.execute(
        "INSERT INTO runs (run_id, flow, config_id, config, source, status, started_at) "
        "VALUES ('run-1', 'score', 'lex', $config, 'logs', 'completed', now())",
        {"config": json.dumps({"judge": {"kind": "lexical", "model": "lexical-v1"}})},
    )
    con.close()
    return path


@pytest.fixture
def con(db: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    connection = connect(db, read_only=True)
    yield connection
    connection.close()


def terminal(con: duckdb.DuckDBPyConnection, options: ReportOptions) -> str:
    out = io.StringIO()
    render_terminal(con, options, Console(file=out, width=160))
    return " ".join(out.getvalue().split())  # one line, single spaces: easy to match


def run_report(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    add_report_arguments(parser)
    args = parser.parse_args(argv)
    return args.command(args)


def test_terminal_shows_latest_periods_with_interval_and_split(
    con: duckdb.DuckDBPyConnection,
) -> None:
    text = terminal(con, ReportOptions())
    # period, cases, scored, pass rate [interval], mean score, then contradicted, unsupported,
    # no claims, invalid
    assert "2026-03-02 7 5 80.0% [37.6%–96.4%] 0.767 1 0 1 1" in text
    assert "2026-03-10 20 20 20.0% [8.1%–41.6%] 0.200 16 0 0 0" in text
    assert "lex (lexical-v1, threshold 0.5): latest 7 day(s)" in text  # the model names its kind
    assert "strict (judge unknown, threshold 1, strict): latest 7 day(s)" in text


def test_terminal_limits_periods_and_recomputes(con: duckdb.DuckDBPyConnection) -> None:
    text = terminal(con, ReportOptions(periods=1, threshold=0.6, penalize_ambiguous=True))
    assert "2026-03-02 7 5" not in text  # only lex's latest day is left
    assert "2026-03-17 20 20 25.0% [11.2%–46.9%] 0.250 15 0 0 0" in text
    text = terminal(con, ReportOptions(threshold=0.6, penalize_ambiguous=True))
    assert "2026-03-02 7 5 40.0% [11.8%–76.9%] 0.600 2 1 1 1" in text
    assert text.startswith(
        "Recomputed from the stored verdict counts: threshold 0.6, penalize_ambiguous True."
    )


def test_terminal_segment_table(con: duckdb.DuckDBPyConnection) -> None:
    text = terminal(con, ReportOptions(segment="app_version"))
    assert "lex: pass rate by app_version" in text
    assert "1.1 4 3 66.7% [20.8%–93.9%] 0.778" in text
    assert "llm: pass rate by app_version" not in text  # llm's cases carry no app_version
    assert XSS in text  # the terminal prints user text as text, not as rich markup


def test_unknown_segment_is_a_clear_error(con: duckdb.DuckDBPyConnection) -> None:
    with pytest.raises(ConfigError, match=r"no segment column 'channel'.*app_version, model"):
        terminal(con, ReportOptions(segment="channel"))


def test_report_command_prints_and_writes_html(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "out" / "report.html"
    assert run_report(["--db", str(db), "--since", "2026-03-10", "--html", str(page)]) == 0
    out = capsys.readouterr().out
    assert "2026-03-17" in out
    assert "2026-03-02" not in out
    assert f"HTML report: {page}" in out
    assert page.stat().st_size > 1_000_000  # plotly.js is inlined


def test_a_reader_that_goes_away_ends_the_report_with_141_and_the_file_written(
    db: Path, tmp_path: Path
) -> None:
    """`faith report --html r.html | head`: rich ended the process with SystemExit(1), the
    code of a bug, with no line, before the file was written."""
    page = tmp_path / "report.html"
    child = subprocess.Popen(
        [sys.executable, "-m", "flows.cli", "report", "--db", str(db), "--html", str(page)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stdout is not None
    child.stdout.close()  # the reader is gone before the first line
    _, err = child.communicate(timeout=120)
    assert child.returncode == 141, err
    assert err == b""
    assert page.stat().st_size > 1_000_000


def test_a_named_pipe_no_program_reads_is_refused_not_waited_on(db: Path, tmp_path: Path) -> None:
    """`--html` naming a FIFO nobody reads: opening it waited for a reader for ever (a night's
    report hung); it is a usage error, exit 2 and one line, and the pipe stays as it was."""
    fifo = tmp_path / "report.pipe"
    os.mkfifo(fifo)
    done = run_python("-m", "flows.cli", "report", "--db", str(db), "--html", str(fifo))
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"error: cannot write the HTML report to {fifo}: it is a named pipe no program is "
        "reading; start its reader first, or give --html a file"
    ]
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_a_named_pipe_that_is_read_gets_the_page(db: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "report.pipe"
    os.mkfifo(fifo)
    fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader from here on
    read: list[bytes] = []
    reader = threading.Thread(target=lambda: read.append(_drained(fd)), daemon=True)
    reader.start()
    try:
        assert run_report(["--db", str(db), "--html", str(fifo)]) == 0
        reader.join(timeout=120)
    finally:
        os.close(fd)
    assert read[0].lstrip().lower().startswith(b"<!doctype html>")
    assert len(read[0]) > 1_000_000  # plotly.js is inlined: the whole page went through


def test_a_pipe_whose_reader_leaves_mid_page_is_one_line_not_a_silent_141(
    db: Path, tmp_path: Path
) -> None:
    """`head -c 1000 < report.pipe`: the page's write failed with EPIPE, which the handler of
    stdout's reader took for its own (exit 141, nothing said, the terminal report lost)."""
    fifo = tmp_path / "report.pipe"
    os.mkfifo(fifo)
    fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    reader = threading.Thread(target=lambda: _drained(fd, stop_after=1000), daemon=True)
    reader.start()
    try:
        done = run_python("-m", "flows.cli", "report", "--db", str(db), "--html", str(fifo))
    finally:
        reader.join(timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"error: cannot write the HTML report to {fifo}: its reader went away before the page "
        "was written; keep the reader open until the report ends, or give --html a file"
    ]


def test_a_socket_is_not_called_a_named_pipe(db: Path, tmp_path: Path) -> None:
    path = tmp_path / "report.sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    try:
        with pytest.raises(ConfigError, match="it is a socket or a device; give --html a file"):
            run_report(["--db", str(db), "--html", str(path)])
    finally:
        server.close()


def _drained(fd: int, patience: float = 120.0, stop_after: int | None = None) -> bytes:
    """Everything written to the FIFO open at `fd` until its writer closes it (or, with
    `stop_after`, that many bytes, then the reader closes it: `head -c`). Before a writer
    opens it a read says end of file at once: waited out, for `patience` seconds at most."""
    os.set_blocking(fd, True)
    chunks: list[bytes] = []
    deadline = time.monotonic() + patience
    while time.monotonic() < deadline:
        chunk = os.read(fd, 1 << 20 if stop_after is None else stop_after)
        if chunk:
            chunks.append(chunk)
            if stop_after is not None:
                os.close(fd)  # the reader goes away mid-page
                break
        elif chunks:
            break  # the writer closed it
        else:
            time.sleep(0.01)
    return b"".join(chunks)


SAMPLE = str(Path(__file__).resolve().parents[3] / "data" / "sample" / "cases.parquet")


@pytest.mark.parametrize(
    ("argv", "says"),
    [  # each was exit 1 (DuckDB's LIMIT, its BIGINT, Python's dates) or a quiet wrong answer
        (["runs", "--limit", "-1"], "--limit: must be a whole number from 1 to 1,000,000"),
        (["runs", "--limit", "9223372036854775808"], "--limit: must be a whole number"),
        (["batches", "--limit", "-1"], "--limit: must be a whole number from 1 to 1,000,000"),
        (["batches", "--price-input", "-5"], "--price-input: must be a price in USD, 0 or more"),
        (["report", "--periods", "99999999999999999999"], "--periods: must be a whole number"),
        (["report", "--max-invalid-share", "nan"], "--max-invalid-share: must be a number from"),
        # argparse's float took nan, which pydantic then said should be at most 1
        (["score", SAMPLE, "--threshold", "nan"], "--threshold: must be a number from 0 to 1"),
        (["report", "--threshold", "2"], "--threshold: must be a number from 0 to 1, got 2"),
    ],
)
def test_read_commands_refuse_numbers_out_of_range_as_usage_errors(
    db: Path, capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    with pytest.raises(SystemExit) as refused:
        main([*argv, "--db", str(db)])
    assert refused.value.code == 2
    assert says in capsys.readouterr().err


@pytest.mark.parametrize(
    "command",
    [["report"], ["runs"], ["batches"], ["score", SAMPLE], ["nightly", SAMPLE]],
    ids=["report", "runs", "batches", "score", "nightly"],
)
def test_an_empty_db_is_no_database(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """`--db "$UNSET"`: Path('') is the working folder: the readers failed with exit 1, and
    score and nightly with 'IO Error: ... Is a directory'."""
    runs = ["--prefect", "no"] if len(command) > 1 else []
    assert main([*command, "--db", "", *runs]) == 5
    assert "--db is empty: name the database file" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--segment", "nonexistent"], "no segment column 'nonexistent' in this database"),
        (["--since", "2026-03-10", "--until", "2026-03-02"], "is after --until 2026-03-02"),
    ],
)
def test_a_report_that_cannot_be_made_prints_nothing_before_its_error(
    db: Path, capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    """A wrong --segment failed only after the period and cost tables had printed."""
    assert main(["report", "--db", str(db), *argv]) == 2
    shown = capsys.readouterr()
    assert shown.out == ""
    assert says in shown.err


def test_html_is_self_contained_with_the_charts_data(
    con: duckdb.DuckDBPyConnection, tmp_path: Path
) -> None:
    options = ReportOptions()
    path = write_html_report(con, tmp_path / "nested" / "report.html", options=options)
    page = path.read_text(encoding="utf-8")
    assert not EXTERNAL.findall(page)
    assert "cdn.plot.ly/plotly" not in page.split("</head>")[1]
    figures = report_figures(con, options)
    assert list(figures) == ["pass_rate", "score_distribution", "by_segment", "attribution"]
    # the legend names the config by its settings, its id beside them (issue 25)
    lex = next(t for t in figures["pass_rate"].data if t.name == "lexical-v1, threshold 0.5 [lex]")
    points = {x: y for x, y in zip(lex.x, lex.y, strict=True) if y is not None}
    assert points == {"2026-03-02": 0.8, "2026-03-03": 1.0, "2026-03-10": 0.2, "2026-03-17": 0.25}
    assert len(lex.x) == 16  # every day from 2 to 17 March: the line breaks at days without data
    # the same numbers are in the page, in plotly's JSON
    assert json.dumps(list(lex.y), separators=(",", ":")) in page
    assert json.dumps(list(lex.y)[:3], separators=(",", ":")) == "[0.8,1.0,null]"
    for name in figures:
        assert f'id="chart-{name}"' in page
    assert "Order A17 was cancelled." in page  # the top contradicted claims table
    assert "<li>Order A17 shipped on 3 March by courier.</li>" in page


def test_user_text_is_escaped(con: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    page = write_html_report(con, tmp_path / "report.html").read_text(encoding="utf-8")
    assert "<script>alert" not in page
    assert "Order &lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; was cancelled." in page
    assert (
        "<li>Passage &lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; says otherwise.</li>" in page
    )


def test_a_long_segment_value_leaves_the_figures_whole_at_80_columns(tmp_path: Path) -> None:
    """A 5,000-character app_version, repeated as the key of every part of a split table,
    squeezed the counts and rates beside it to 'c…', '100.0% [8…'."""
    path = tmp_path / "long.duckdb"
    con = open_store(path)
    for i in range(3):
        add_case(con, f"long-{i}", yes=1, segments={"app_version": "x" * 5_000})
        add_case(con, f"short-{i}", yes=1, segments={"app_version": "2.4.0"})
    con.close()
    out = io.StringIO()
    con = connect(path, read_only=True)
    try:
        render_terminal(con, ReportOptions(), Console(file=out, width=80))
    finally:
        con.close()
    segment_lines = " ".join(out.getvalue().split("pass rate by app_version")[1].split())
    assert "… (5,000 characters)" in segment_lines
    assert segment_lines.count("100.0% [43.9%–100.0%]") == 2  # both rows' rates whole


def test_empty_database(tmp_path: Path) -> None:
    path = tmp_path / "empty.duckdb"
    open_store(path).close()
    con = connect(path, read_only=True)
    try:
        assert terminal(con, ReportOptions()) == "No cases in this window."
        page = write_html_report(con, tmp_path / "e.html").read_text()
        assert "<h1>faithpipe report</h1>" in page
        # the page says it as the terminal does (it was a table of headers alone)
        assert "<h2>Latest periods</h2>\n<p>No cases in this window.</p>" in page
    finally:
        con.close()


def test_database_without_the_analysis_migration(tmp_path: Path) -> None:
    path = tmp_path / "old.duckdb"
    con = open_store(path)
    con.execute("DROP MACRO TABLE pass_rates")
    con.close()
    con = connect(path, read_only=True)
    try:
        with pytest.raises(DatabaseError, match="predates the analysis views"):
            terminal(con, ReportOptions())
    finally:
        con.close()


def test_html_of_a_database_made_before_claim_evidence_is_written_read_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database made before migration 005 (no claim_verdicts.evidence) and only read since,
    as the report reads: `faith report --html` ended with exit 1 (BinderException on
    `v.evidence`) where the terminal report of the same database printed."""
    path = tmp_path / "old.duckdb"
    con = old_database(path, monkeypatch, 4)
    add_case(con, "c3", no=1, passage_ids=[1])
    add_verdicts(con, "c3", [("Order A17 was cancelled.", "no")])
    con.close()
    con = connect(path, read_only=True)
    try:
        page = write_html_report(con, tmp_path / "old.html").read_text()
    finally:
        con.close()
    assert "<h2>Latest failing cases</h2>" in page
    assert "Order A17 was cancelled." in page


def test_out_of_range_threshold(con: duckdb.DuckDBPyConnection) -> None:
    with pytest.raises(ConfigError, match="--threshold must be between 0 and 1"):
        terminal(con, ReportOptions(threshold=2.0))


def test_report_shows_judge_agreement_over_time_when_nightly_checks_exist(tmp_path: Path) -> None:
    from flows.nightly.nightly_run import run_nightly
    from flows.report import ReportOptions, report_figures
    from flows.run.settings import ScoreSettings
    from flows.store.db import connect
    from tests.support.builders import many_cases, write

    db = tmp_path / "f.duckdb"
    source = write(many_cases(6), tmp_path / "a.parquet")
    run_nightly(ScoreSettings(source=str(source), db=str(db), flow="nightly"))
    con = connect(db, read_only=True)
    try:
        figures = report_figures(con, ReportOptions())
    finally:
        con.close()
    chart = figures["judge_agreement"]
    assert len(chart.data) == 1
    assert 0.9 <= chart.data[0].y[0] <= 1.0
