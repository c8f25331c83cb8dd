"""`faith report`'s segment tables and chart on a segment of many values (a per-user column):
the top ones by cases or by failing cases, a line saying how many were left out, and
`--segment-top all` for every one; on real DuckDB files."""

from __future__ import annotations

import io
from pathlib import Path

import duckdb
import pytest
from rich.console import Console

from flows.cli.commands import main
from flows.report import ReportOptions, render_terminal, report_figures
from flows.store.db import connect, open_store
from tests.flows.store.test_analysis_sql import add_case

USERS = 10_000


def _many_users(path: Path, users: int = USERS) -> Path:
    """`users` values of `user_id`, one passing case each; then the last ten users
    ('user-9990'.. 'user-9999' of 10,000) get a second case (the most cases), and users
    'user-0001'..'user-0003' a failing one (the most failing cases)."""
    con = open_store(path)
    add_case(con, "seed", yes=1, segments={"user_id": "user-0000"})
    con.execute(
        "INSERT INTO case_scores SELECT c.* REPLACE ("
        "  'u' || t.i AS case_id, 'hash-u' || t.i AS content_hash,"
        "  json_object('user_id', printf('user-%04d', t.i)) AS segments"
        ") FROM case_scores AS c, range(1, $n) AS t(i) WHERE c.case_id = 'seed'",
        {"n": users},
    )
    for i in range(users - 10, users):
        add_case(con, f"again-{i}", yes=1, segments={"user_id": f"user-{i:04d}"})
    for i in (1, 2, 3):
        add_case(con, f"fail-{i}", no=1, segments={"user_id": f"user-{i:04d}"})
    con.close()
    return path


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _many_users(tmp_path_factory.mktemp("segments") / "users.duckdb")


@pytest.fixture
def con(db: Path) -> duckdb.DuckDBPyConnection:
    connection = connect(db, read_only=True)
    yield connection  # type: ignore[misc]
    connection.close()


def _segment_part(con: duckdb.DuckDBPyConnection, options: ReportOptions) -> list[str]:
    out = io.StringIO()
    render_terminal(con, options, Console(file=out, width=160))
    part = out.getvalue().split("pass rate by user_id")[1]
    return [line.strip() for line in part.splitlines() if line.strip()]


def test_a_segment_of_10000_values_lists_the_top_30_and_says_how_many_were_left_out(
    con: duckdb.DuckDBPyConnection,
) -> None:
    """Every one of 10,000 user ids was a row: a screenful of 10,000 lines, the rest lost."""
    lines = _segment_part(con, ReportOptions(segment="user_id"))
    rows = [line for line in lines if line.startswith("user-")]
    assert len(rows) == 30
    # the most cases first: the 13 users with two cases, ties by value; then users of one
    twice = ["user-0001", "user-0002", "user-0003", *(f"user-{i:04d}" for i in range(9_990, USERS))]
    assert [row.split()[0] for row in rows[:13]] == twice
    assert {row.split()[1] for row in rows[:13]} == {"2"}
    assert [row.split()[0] for row in rows[13:15]] == ["user-0000", "user-0004"]
    assert lines[-1] == (
        "9,970 more user_id values (9,970 cases) not listed: these are the 30 with the most "
        "cases; --segment-top all lists every one"
    )


def test_segment_rank_failures_lists_the_values_with_most_failing_cases(
    con: duckdb.DuckDBPyConnection,
) -> None:
    lines = _segment_part(
        con, ReportOptions(segment="user_id", segment_top=3, segment_rank="failures")
    )
    rows = [line.split() for line in lines if line.startswith("user-")]
    # user, cases, scored, pass rate, [interval], score, failed
    assert [(row[0], row[-1]) for row in rows] == [
        ("user-0001", "1"),
        ("user-0002", "1"),
        ("user-0003", "1"),
    ]
    assert lines[-1].startswith("9,997 more user_id values (10,007 cases) not listed: these are")
    assert "the 3 with the most failing cases" in lines[-1]


def test_segment_top_all_lists_every_value(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 45 values, past the default 30: every one listed (rendering 10,000 rows in a terminal
    # table takes rich 6 s, which the suite need not pay to show the same thing)
    db = _many_users(tmp_path / "users.duckdb", users=45)
    assert main(["report", "--db", str(db), "--segment", "user_id"]) == 0
    assert "15 more user_id values" in capsys.readouterr().out
    assert main(["report", "--db", str(db), "--segment", "user_id", "--segment-top", "all"]) == 0
    out = capsys.readouterr().out
    assert sum(1 for line in out.splitlines() if line.strip().startswith("user-")) == 45
    assert "not listed" not in out


def test_a_segment_of_few_values_is_listed_whole_with_no_note(tmp_path: Path) -> None:
    path = tmp_path / "few.duckdb"
    con = open_store(path)
    for i, version in enumerate(("2.4.0", "2.4.1", "2.4.1")):
        add_case(con, f"c{i}", yes=1, segments={"app_version": version})
    con.close()
    con = connect(path, read_only=True)
    try:
        out = io.StringIO()
        render_terminal(con, ReportOptions(), Console(file=out, width=160))
    finally:
        con.close()
    rows = [
        line.split()[0]
        for line in out.getvalue().split("pass rate by app_version")[1].splitlines()
        if line.strip().startswith("2.4")
    ]
    assert rows == ["2.4.1", "2.4.0"]  # the most cases first
    assert "not listed" not in out.getvalue()


@pytest.mark.parametrize("top", ["0", "x", "-3"])
def test_a_wrong_segment_top_is_a_usage_error(
    db: Path, capsys: pytest.CaptureFixture[str], top: str
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["report", "--db", str(db), f"--segment-top={top}"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert f"--segment-top: must be a whole number from 1 to 1,000,000, got {top}; or all" in err


def test_the_chart_draws_the_same_ranking_and_says_it_is_cut(
    con: duckdb.DuckDBPyConnection,
) -> None:
    options = ReportOptions(segment="user_id", segment_rank="failures")
    figure = report_figures(con, options)["by_segment"]
    (bars,) = figure.data
    assert len(bars.x) == 30
    drawn = {label.split(" ")[0] for label in bars.x}
    assert {"user-0001", "user-0002", "user-0003"} <= drawn
    assert figure.layout.title.text.endswith("; the top 30 of 10,000 values by failures")
    few = report_figures(con, ReportOptions(segment="user_id", segment_top=5))["by_segment"]
    # the top 5 by cases (ties by value), drawn in the order of their values
    assert [label.split(" ")[0] for label in few.data[0].x] == [
        "user-0001",
        "user-0002",
        "user-0003",
        "user-9990",
        "user-9991",
    ]


def test_the_manuals_segment_top_example_is_what_the_report_prints(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/report.md's `--segment-top 3 --segment-rank failures` example showed rows (u1024,
    0.0%, 12,006 cases left out) no test made: its table and its note are this database's."""
    page = (Path(__file__).resolve().parents[3] / "docs" / "report.md").read_text()
    block = page.split("### Segments of many values")[1].split("```console\n")[1].split("```")[0]
    command, _, *shown = block.splitlines()
    assert command.startswith("$ faith report --db faith.duckdb ")
    args = command.removeprefix("$ faith report --db faith.duckdb ").split()
    assert main(["report", "--db", str(db), *args]) == 0
    printed = " ".join(capsys.readouterr().out.split())
    # the table's title names the config (a label here), and its rule is as wide as the screen
    lines = [" ".join(line.split()) for line in shown[1:] if line.strip().strip("─")]
    assert len(lines) == 5
    missing = [line for line in lines if line not in printed]
    assert missing == []


def test_the_chart_ranks_values_with_no_scored_case_as_the_table_does(tmp_path: Path) -> None:
    """The chart dropped values with no scored case before ranking, the table did not: with
    --segment-top 2 the table listed 2.4.1 (3 cases, all invalid) and 2.4.2, the chart 2.4.2
    and 2.4.0. Both rank the same values now; 2.4.1 is drawn with no bar."""
    path = tmp_path / "unscored.duckdb"
    con = open_store(path)
    add_case(con, "a", yes=1, segments={"app_version": "2.4.0"})
    for i in range(3):
        add_case(con, f"b{i}", status="invalid", segments={"app_version": "2.4.1"})
    for i in range(2):
        add_case(con, f"c{i}", yes=1, segments={"app_version": "2.4.2"})
    con.close()
    con = connect(path, read_only=True)
    try:
        options = ReportOptions(segment="app_version", segment_top=2)
        out = io.StringIO()
        render_terminal(con, options, Console(file=out, width=160))
        figure = report_figures(con, options)["by_segment"]
    finally:
        con.close()
    part = out.getvalue().split("pass rate by app_version")[1]
    listed = [line.split()[0] for line in part.splitlines() if line.strip().startswith("2.4")]
    assert listed == ["2.4.1", "2.4.2"]
    (bars,) = figure.data
    assert list(bars.x) == ["2.4.1 (none scored)", "2.4.2 (n=2: too few)"]
    assert list(bars.y) == [None, 1.0]
    assert figure.layout.title.text.endswith("; the top 2 of 3 values by cases")
