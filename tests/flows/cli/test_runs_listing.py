"""`faith runs` tells a dry run from a real one and says why a run warned or failed: a dry run
was once listed as `completed` at a pass rate of 0.0, and `runs.warning`/`runs.error` were
nowhere in the listing."""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl
import pytest

import flows.store.db
from flows.cli.commands import main
from flows.store.db import connect, migrations, open_store, sql
from tests.support.builders import ANSWERS, case_row, cases, many_cases, write

PASSING = ANSWERS[0]  # supported: 1.0
FAILING = "Your order was lost at sea and we refund you 500 euros."  # contradicted: 0.0
LONG = "pass-rate drop (config faith-0123456789abcdef, segment 2.4.0\nerror: FAKE) " + "x" * 200


def listing(db: Path, capsys: pytest.CaptureFixture[str]) -> list[dict[str, str]]:
    """`faith runs` piped (plain aligned text) as one dict a run, by the header's columns."""
    capsys.readouterr()
    assert main(["runs", "--db", str(db)]) == 0
    _title, header, *rows = capsys.readouterr().out.splitlines()
    starts = [(m.group(), m.start()) for m in re.finditer(r"\S+", header)]
    ends = [start for _, start in starts[1:]] + [None]
    return [
        {name: row[start:end].strip() for (name, start), end in zip(starts, ends, strict=True)}
        for row in rows
    ]


def test_a_dry_run_is_marked_and_has_no_pass_rate(tmp_path: Path, capsys) -> None:
    db = tmp_path / "f.duckdb"
    first = write(many_cases(6), tmp_path / "first" / "a.parquet")
    both = write(many_cases(12), tmp_path / "both" / "a.parquet")
    assert main(["score", str(first), "--db", str(db), "--prefect", "no"]) == 0
    assert main(["score", str(both), "--db", str(db), "--prefect", "no", "--dry-run"]) == 0

    dry, real = listing(db, capsys)
    assert (dry["status"], dry["dry_run"], dry["new"]) == ("dry run", "True", "6")
    assert dry["pass_rate"] == dry["invalid_share"] == ""
    assert (real["status"], real["dry_run"]) == ("completed", "False")
    assert float(real["pass_rate"]) > 0


def test_the_note_says_why_a_run_failed_or_warned_on_one_line(tmp_path: Path, capsys) -> None:
    db = tmp_path / "f.duckdb"
    source = write(many_cases(3), tmp_path / "a.parquet")
    assert main(["score", str(source), "--db", str(db), "--prefect", "no"]) == 0
    con = connect(db)
    try:
        con.execute("UPDATE runs SET warning = $w", {"w": LONG})
        con.execute(
            "INSERT INTO runs (run_id, flow, config_id, config, source, status, started_at, "
            "error, warning) VALUES ('zz-failed', 'score', 'c', '{}', 'logs', 'failed', "
            "now() + INTERVAL 1 HOUR, 'disk full:\r\n  batch 3 rolled back', 'not shown')"
        )
    finally:
        con.close()

    failed, warned = listing(db, capsys)
    assert failed["note"] == "disk full: batch 3 rolled back"  # the error before the warning
    assert warned["note"].startswith("pass-rate drop (config faith-0123456789abcdef, segment")
    assert "2.4.0 error: FAKE)" in warned["note"]
    assert len(warned["note"]) == 80
    assert warned["note"].endswith("x…")


def test_the_run_line_and_the_listing_say_the_same_pass_rate(tmp_path: Path, capsys) -> None:
    """37 of 80 cases passing is 0.4625, a tie at 0.1 %: `faith runs` said 0.463 and the run
    line 46.2% (Python's format rounds 46.25 half to even). Both round the share once, half
    up, as `faith runs` does."""
    db = tmp_path / "f.duckdb"
    rows = [case_row(f"c{i:02d}", PASSING if i < 37 else FAILING) for i in range(80)]
    source = write(cases(rows), tmp_path / "a.parquet")
    assert main(["score", str(source), "--db", str(db), "--prefect", "no"]) == 0
    run_line = capsys.readouterr().out

    (run,) = listing(db, capsys)
    assert (run["new"], run["pass_rate"]) == ("80", "0.463")
    assert "pass rate 46.3%, invalid 0.0%" in run_line


def test_the_listing_rounds_every_share_as_the_run_line_does(tmp_path: Path) -> None:
    """recent_runs.sql's shares against summary.percent for every count of up to 120 cases:
    round() of the double 17 / 80 (0.21249999...) said 0.212 where the run line said 21.3%
    (a review, 2026-12-06); both now round the counts' share once, half up, in integers."""
    from flows.run.summary import percent
    from flows.store.db import open_store, sql

    con = open_store(tmp_path / "f.duckdb")
    try:
        con.execute(
            "INSERT INTO runs (run_id, flow, config_id, config, source, status, started_at, "
            "rows_newly_scored, rows_passed, rows_invalid) "
            "SELECT 'r' || w || '-' || p, 'score', 'c', '{}', 's', 'completed', now(), w, p, "
            "p % 3 FROM range(1, 121) AS a(w), range(0, 121) AS b(p) WHERE p <= w"
        )
        rows = con.sql(sql("recent_runs"), params={"limit": 10_000}).fetchall()
        columns = con.sql(sql("recent_runs"), params={"limit": 1}).columns
        named = [dict(zip(columns, row, strict=True)) for row in rows]
    finally:
        con.close()
    assert len(named) == sum(w + 1 for w in range(1, 121))
    for run in named:
        new, invalid = int(run["new"]), int(run["invalid"])
        passed = int(run["run_id"].split("-")[1])
        assert percent(passed, new) == f"{run['pass_rate'] * 100:.1f}%", run["run_id"]
        assert percent(invalid, new + invalid) == f"{run['invalid_share'] * 100:.1f}%"


@pytest.mark.parametrize("command", ["runs", "report", "compare"])
def test_an_empty_file_is_no_database_to_read(tmp_path: Path, capsys, command: str) -> None:
    """A 0-byte file (touch, mktemp) holds no database: `faith score` makes one there, and the
    commands that read one said DuckDB's `IO Error: ... not a valid DuckDB database file!`."""
    db = tmp_path / "f.duckdb"
    db.touch()
    capsys.readouterr()
    argv = [command, "--db", str(db)]
    if command == "compare":
        argv += ["--a-config", "faith-a", "--b-config", "faith-b"]
    assert main(argv) == 5
    assert capsys.readouterr().err.strip() == (
        f"error: {db}: no such database; run `faith score` first"
    )
    assert db.stat().st_size == 0


@pytest.mark.parametrize("command", ["runs", "report", "compare", "batches"])
@pytest.mark.parametrize("name", ["day1.parquet", "day1.csv", "day1.jsonl"])
def test_a_log_file_given_as_db_is_no_database_to_read(
    tmp_path: Path, capsys, command: str, name: str
) -> None:
    """`--db logs/day1.parquet` (the source where the database goes): DuckDB opens a Parquet,
    CSV or JSON file as an in-memory database of views over it, which it cannot open
    read-only, so the commands that read ended `CatalogException: ... in-memory database in
    read-only mode!`, exit 1 (a bug), where a file of anything else is exit 5."""
    log, logged = tmp_path / name, many_cases(3)
    if name.endswith(".parquet"):
        write(logged, log)
    elif name.endswith(".csv"):  # CSV holds no list: the passages as one text
        logged.with_columns(retrieval_context=pl.lit(ANSWERS[0])).write_csv(log)
    else:
        logged.write_ndjson(log)
    before = log.read_bytes()
    capsys.readouterr()
    argv = [command, "--db", str(log)]
    if command == "compare":
        argv += ["--a-config", "faith-a", "--b-config", "faith-b"]
    assert main(argv) == 5
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: {log} is not a faithpipe database but a data file"), err
    assert log.read_bytes() == before


OLD_RUN = """
INSERT INTO runs (run_id, flow, config_id, config, source, status, started_at, rows_in,
                  rows_scored, rows_newly_scored, rows_already_scored, rows_invalid, rows_pending,
                  rows_quarantined, rows_passed, judge_calls, seconds_total)
VALUES ('20261101T020000-00000001', 'nightly', 'faith-0123456789abcdef', '{}', 'logs/',
        'completed', TIMESTAMP '2026-11-01 02:00', 4, 4, 4, 0, 0, 0, 0, 3, 0, 1.5)
"""


def test_a_database_made_before_run_costs_is_listed_without_them(
    tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database an older faithpipe made (before migration 009's cost_usd and dry_run) and
    only read since is listed, its costs blank: `faith runs` was a Binder Error, exit 1."""
    db = tmp_path / "old.duckdb"
    with monkeypatch.context() as old:
        old.setattr(flows.store.db, "migrations", lambda: [m for m in migrations() if m[0] <= 7])
        con = open_store(db)
    try:  # a run as the older faithpipe recorded it: no cost column to fill
        con.execute(OLD_RUN)
        assert con.execute(sql("report_has_costs")).fetchall() == [(False,)]
    finally:
        con.close()

    (run,) = listing(db, capsys)
    assert (run["status"], run["new"], run["dry_run"]) == ("completed", "4", "False")
    assert (run["pass_rate"], run["cost_usd"]) == ("0.75", "")


@pytest.mark.parametrize("command", ["runs", "report", "compare", "batches", "cache"])
def test_a_database_a_newer_faithpipe_wrote_is_refused_by_the_commands_that_read(
    tmp_path: Path, capsys, command: str
) -> None:
    """The nightly server's faithpipe was upgraded, an analyst's was not: `faith report` on the
    database said it was 'written by an older faithpipe ... the next `faith score` on it
    upgrades it' (which refuses it, exit 5), then ended with a Binder Error, exit 1; `faith
    runs` listed it with this faithpipe's reading of its tables. Exit 5, as for a writer."""
    db = tmp_path / "f.duckdb"
    source = write(many_cases(3), tmp_path / "a.parquet")
    assert main(["score", str(source), "--db", str(db), "--prefect", "no"]) == 0
    newest = max(version for version, _ in migrations())
    con = connect(db)
    try:  # what a newer faithpipe may have done: a migration, a column renamed, new macros
        con.execute(
            "INSERT INTO schema_migrations (version, name) VALUES (?, ?)",
            [newest + 1, f"{newest + 1:03d}_from_a_newer_faithpipe"],
        )
        con.execute("ALTER TABLE case_scores RENAME COLUMN threshold TO pass_mark")
        con.execute("UPDATE analysis_definitions SET sha256 = 'a newer text'")
    finally:
        con.close()
    before = db.read_bytes()
    argv = [command, "check"] if command == "cache" else [command]
    capsys.readouterr()
    assert main([*argv, "--db", str(db)]) == 5
    assert capsys.readouterr().err.strip() == (
        f"error: database schema version {newest + 1} is newer than this faithpipe "
        f"({newest}); upgrade faithpipe"
    )
    assert db.read_bytes() == before


def test_a_database_without_runs_says_so(tmp_path: Path, capsys) -> None:
    """`faith judge-check --db` (before a first paid night) makes a database with no run in
    it: `faith runs` printed a header of 18 column names and no row."""
    db = tmp_path / "f.duckdb"
    open_store(db).close()
    assert main(["runs", "--db", str(db)]) == 0
    said = capsys.readouterr().out
    assert said == f"no runs in {db} yet: faith score and faith nightly add them\n"
