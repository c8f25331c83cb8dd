"""A source wholly rejected does not look green (issue 22, item 4): past
--max-quarantine-share a run keeps everything, sets `runs.warning`, names its top failing
checks with counts, exits 11, and its Prefect flow run fails; the report shows quarantine
by day and check."""

from __future__ import annotations

import asyncio
import json
from datetime import datetime
from pathlib import Path

import polars as pl
import pytest

from flows.cli.commands import main
from flows.errors import QuarantineShareExceeded
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.builders import many_cases, write
from tests.support.db_reading import query

OPTIONS = ["--prefect", "no", "--judge", "lexical"]
CHECK = "retrieval_context_not_a_list_of_strings"


def drifted(n: int) -> pl.DataFrame:
    """n cases that log retrieval_context as one string, not a list of passages."""
    return many_cases(n).with_columns(retrieval_context=pl.col("retrieval_context").list.join(" "))


def part_drifted(folder: Path, n: int, bad: int) -> Path:
    """A folder of two files: `bad` drifted rows, and n - bad good ones."""
    write(drifted(bad).with_columns(case_id="x" + pl.col("case_id")), folder / "a.parquet")
    write(many_cases(n - bad), folder / "b.parquet")
    return folder


def counted(run: tuple) -> int:
    scored, invalid, pending, quarantined = run
    return scored + invalid + pending + quarantined


def test_a_source_wholly_quarantined_exits_11_naming_the_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write(drifted(1_000), tmp_path / "cases.parquet")
    db = tmp_path / "f.duckdb"
    capsys.readouterr()
    code = main(["score", str(source), "--db", str(db), "--prefect", "no", "--judge", "lexical"])
    stderr = capsys.readouterr().err
    assert code == 11, stderr  # was 0: the run `completed`, nothing said
    errors = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, stderr
    assert "1,000 of 1,000 rows (100.0%) were quarantined" in errors[0]
    assert f"top checks: {CHECK} 1,000" in errors[0]
    ((status, warning, share, rows_in, *counts),) = query(
        db,
        "SELECT status, warning, max_quarantine_share, rows_in, rows_scored, rows_invalid, "
        "rows_pending, rows_quarantined FROM runs",
    )
    assert (status, share, rows_in) == ("completed", 0.1, 1_000)
    assert counted(tuple(counts)) == rows_in
    assert f"{CHECK} 1,000" in warning
    assert query(db, "SELECT count(*) FROM quarantine") == [(1_000,)]  # everything kept


def test_a_share_within_the_limit_succeeds_and_the_run_line_names_the_checks(
    tmp_path: Path, capsys
) -> None:
    source = part_drifted(tmp_path / "logs", 100, 10)
    db = tmp_path / "f.duckdb"
    assert main(["score", str(source), "--db", str(db), "--prefect", "no"]) == 0
    line = capsys.readouterr().out
    assert "100 rows in = 90 scored (90 new) + 0 invalid + 0 pending + 10 quarantined" in line
    assert f"quarantined by check: {CHECK} 10" in line
    assert (
        main(
            [
                "score",
                str(source),
                "--db",
                str(tmp_path / "g.duckdb"),
                "--prefect",
                "no",
                "--max-quarantine-share",
                "0.05",
            ]
        )
        == 11
    )


def test_a_rerun_of_the_same_source_names_the_checks_again(tmp_path: Path) -> None:
    """quarantine.run_id is the first run's: each run counts its own rows by check, and a run
    that read nothing new says again what the source holds."""
    source = write(drifted(50), tmp_path / "cases.parquet")
    settings = ScoreSettings(
        source=str(source), db=str(tmp_path / "f.duckdb"), max_quarantine_share=0.1
    )
    for _ in range(2):
        with pytest.raises(QuarantineShareExceeded, match=f"top checks: {CHECK} 50"):
            run_score(settings)
    assert query(Path(settings.db), "SELECT count(*) FROM quarantine") == [(50,)]


def test_a_growing_folder_is_judged_by_the_rows_new_tonight(tmp_path: Path) -> None:
    """A nightly run reads its whole folder again: an old broken file must not raise every
    night, and a new broken night must not hide among the old rows."""
    logs = tmp_path / "logs"
    write(drifted(20).with_columns(case_id="old" + pl.col("case_id")), logs / "d1.parquet")
    settings = ScoreSettings(source=str(logs), db=str(tmp_path / "f.duckdb"))
    with pytest.raises(QuarantineShareExceeded, match="20 of 20 rows"):
        run_score(settings)
    write(many_cases(100).with_columns(case_id="d2" + pl.col("case_id")), logs / "d2.parquet")
    clean = run_score(settings)  # 0 of the 100 new rows quarantined; the old 20 seen before
    assert (clean["rows_in"], clean["rows_quarantined"], clean["warning"]) == (120, 20, None)
    write(drifted(30).with_columns(case_id="d3" + pl.col("case_id")), logs / "d3.parquet")
    with pytest.raises(QuarantineShareExceeded, match=r"30 of 30 new rows \(100\.0%\)"):
        run_score(settings)  # of all 150 rows it would be 50 (33%): diluted by the history


def test_overlapping_nightly_exports_in_one_folder_are_no_drift(tmp_path: Path) -> None:
    """Each night exports the last two days, so a folder of nights holds every row twice: the
    copies are recorded as `duplicate_case_id_exact_copy` (the first copy scored), and were
    counted as the night's quarantined rows, failing every night from the second with exit 11
    (`100 of 150 new rows`). They are left out of the share, as rows seen before are; a
    night that drifts among its copies still raises, its share of its own new rows."""
    logs = tmp_path / "logs"
    rows = many_cases(150)
    write(rows.head(100), logs / "d1.parquet")
    settings = ScoreSettings(source=str(logs), db=str(tmp_path / "f.duckdb"))
    assert run_score(settings)["rows_newly_scored"] == 100
    write(rows.slice(50, 100), logs / "d2.parquet")  # rows 50-149: 50 of them yesterday's
    second = run_score(settings)
    counts = ("rows_in", "rows_newly_scored", "rows_quarantined", "warning")
    assert tuple(second[key] for key in counts) == (200, 50, 50, None)
    parts = ("rows_scored", "rows_invalid", "rows_pending", "rows_quarantined")
    assert counted(tuple(second[key] for key in parts)) == 200  # nothing lost
    copies = 'SELECT "check", count(*) FROM quarantine GROUP BY 1'
    assert query(Path(settings.db), copies) == [("duplicate_case_id_exact_copy", 50)]
    write(rows.slice(100, 50), logs / "d3.parquet")  # copies of yesterday's rows only
    write(drifted(20).with_columns(case_id="d3" + pl.col("case_id")), logs / "d3b.parquet")
    with pytest.raises(QuarantineShareExceeded) as raised:
        run_score(settings)  # the 50 copies would have diluted it to 20 of 70 (28.6%)
    assert "20 of 20 new rows (100.0%)" in str(raised.value)
    assert f"top checks: {CHECK} 20 (see" in str(raised.value)


def test_a_dry_run_of_overlapping_exports_is_no_drift_either(tmp_path: Path) -> None:
    """A dry run keeps no quarantine rows: its share is of all it read, the copies left out."""
    logs = tmp_path / "logs"
    rows = many_cases(40)
    write(rows.head(30), logs / "d1.parquet")
    write(rows.slice(10, 30), logs / "d2.parquet")
    settings = ScoreSettings(source=str(logs), db=str(tmp_path / "f.duckdb"), dry_run=True)
    run = run_score(settings)
    assert (run["rows_in"], run["rows_quarantined"], run["warning"]) == (60, 20, None)


def test_overlapping_exports_of_a_source_with_a_few_broken_rows_are_no_drift(
    tmp_path: Path,
) -> None:
    """Each night exports the last two days of a source whose rows are 7% broken: yesterday's
    broken rows come again in tonight's file (a new key: another file), and were counted as
    tonight's new quarantined rows, `14 of 107 new rows (13.1%)`, exit 11 every night. They
    were read before as they are: left out, as the good rows' copies are; a night that drifts
    still raises, by its own rows and checks."""
    logs = tmp_path / "logs"

    def day(k: int, broken: int = 7) -> tuple[pl.DataFrame, pl.DataFrame]:
        good = many_cases(100 - broken).with_columns(case_id=f"d{k}-" + pl.col("case_id"))
        return good, drifted(broken).with_columns(case_id=f"d{k}-x" + pl.col("case_id"))

    def export(k: int, days: list[tuple[pl.DataFrame, pl.DataFrame]]) -> None:
        write(pl.concat([good for good, _ in days]), logs / f"n{k}-good.parquet")
        write(pl.concat([bad for _, bad in days]), logs / f"n{k}-bad.parquet")

    export(1, [day(1)])
    settings = ScoreSettings(source=str(logs), db=str(tmp_path / "f.duckdb"))
    assert run_score(settings)["rows_quarantined"] == 7
    export(2, [day(1), day(2)])
    second = run_score(settings)
    assert (second["rows_in"], second["rows_quarantined"], second["warning"]) == (300, 114, None)
    export(3, [day(2), day(3, broken=30)])
    with pytest.raises(QuarantineShareExceeded) as raised:
        run_score(settings)
    assert "30 of 100 new rows (30.0%)" in str(raised.value)
    assert f"top checks: {CHECK} 30 (see" in str(raised.value)


def test_a_new_night_is_named_by_its_own_checks_not_an_old_files(tmp_path: Path) -> None:
    """The share counts tonight's new rows alone, so the checks it names are theirs: an old
    broken file read again named its three checks, and tonight's was not named at all."""
    logs = tmp_path / "logs"
    old = many_cases(60).with_columns(case_id="old" + pl.col("case_id"))
    old = old.with_columns(
        actual_output=pl.when(pl.int_range(60) < 30).then(pl.lit(" ")).otherwise("actual_output"),
        input=pl.when(pl.int_range(60) >= 50).then(pl.lit(" ")).otherwise("input"),
    )
    write(old, logs / "d1.parquet")
    write(drifted(20).with_columns(case_id="str" + pl.col("case_id")), logs / "d1b.parquet")
    settings = ScoreSettings(source=str(logs), db=str(tmp_path / "f.duckdb"))
    with pytest.raises(QuarantineShareExceeded):
        run_score(settings)
    tonight = many_cases(10).with_columns(case_id="d2" + pl.col("case_id"))
    write(tonight.with_columns(logged_at=pl.lit("yesterday")), logs / "d2.parquet")
    with pytest.raises(QuarantineShareExceeded) as raised:
        run_score(settings)
    assert "10 of 10 new rows (100.0%)" in str(raised.value)
    # was: top checks: actual_output_not_blank 30, retrieval_context_not_a_list_of_strings 20,
    # input_not_blank 10 (the old file's), tonight's logged_at_unparseable left out
    assert "top checks: logged_at_unparseable 10 (see" in str(raised.value)


def test_a_json_log_grown_by_a_row_of_another_time_form_keeps_its_old_quarantine(
    tmp_path: Path,
) -> None:
    """read_json typed a column of ISO times TIMESTAMP until a row wrote another form; the
    whole file then read as text, each old quarantined row's row_json (and key) changed, and
    the five were stored again as the night's: '5 of 6 new rows (83.3%)', exit 11."""
    import json

    log = tmp_path / "logs" / "a.jsonl"
    log.parent.mkdir()

    def row(i: int, answer: str, logged_at: str) -> str:
        passages = ["Order A17 shipped on 3 March."]
        fields = {"case_id": f"c{i}", "input": "Where is A17?", "actual_output": answer}
        return json.dumps({**fields, "retrieval_context": passages, "logged_at": logged_at})

    lines = [row(i, " " if i < 5 else "It shipped.", "2026-11-01T12:00:00Z") for i in range(100)]
    log.write_text("\n".join(lines) + "\n")
    settings = ScoreSettings(source=str(log.parent), db=str(tmp_path / "f.duckdb"))
    first = run_score(settings)
    assert (first["rows_in"], first["rows_quarantined"]) == (100, 5)
    with log.open("a") as grown:
        grown.write(row(100, "It shipped.", "2026-11-02 12:00") + "\n")
    second = run_score(settings)  # raised QuarantineShareExceeded: 5 of 6 new rows
    assert (second["rows_in"], second["rows_quarantined"], second["warning"]) == (101, 5, None)
    assert query(Path(settings.db), "SELECT count(*) FROM quarantine") == [(5,)]
    logged = "SELECT case_id, logged_at FROM case_scores WHERE case_id IN ('c5', 'c100')"
    assert sorted(query(Path(settings.db), logged)) == [
        ("c100", datetime(2026, 11, 2, 12, 0)),
        ("c5", datetime(2026, 11, 1, 12, 0)),
    ]


def test_a_share_that_reads_as_the_limit_is_told_from_it(tmp_path: Path) -> None:
    """1 of 3 rows past a limit of 0.333 read `(33.3%) were quarantined, more than
    --max-quarantine-share 0.333`: a share that looked equal to the limit it failed."""
    source = part_drifted(tmp_path / "logs", 3, 1)
    settings = ScoreSettings(
        source=str(source), db=str(tmp_path / "f.duckdb"), max_quarantine_share=0.333
    )
    with pytest.raises(QuarantineShareExceeded) as raised:
        run_score(settings)
    assert (
        "1 of 3 rows (33.33%) were quarantined, more than --max-quarantine-share 0.333 (33.30%);"
        in str(raised.value)
    )


def test_a_python_caller_gets_the_same_alarm_as_the_cli(tmp_path: Path) -> None:
    """ScoreSettings' default is the CLI's 0.1; None turns the alarm off."""
    source = write(drifted(20), tmp_path / "cases.parquet")
    with pytest.raises(QuarantineShareExceeded, match=r"more than --max-quarantine-share 0\.1;"):
        run_score(ScoreSettings(source=str(source), db=str(tmp_path / "a.duckdb")))
    quiet = ScoreSettings(
        source=str(source), db=str(tmp_path / "b.duckdb"), max_quarantine_share=None
    )
    assert run_score(quiet)["rows_quarantined"] == 20


def test_the_report_shows_quarantine_by_day_and_check(tmp_path: Path, capsys) -> None:
    source = write(drifted(20), tmp_path / "cases.parquet")
    db = tmp_path / "f.duckdb"
    with pytest.raises(QuarantineShareExceeded):
        run_score(ScoreSettings(source=str(source), db=str(db), max_quarantine_share=0.1))
    assert main(["report", "--db", str(db)]) == 0
    shown = capsys.readouterr().out
    assert "Quarantined rows by day and check" in shown
    by_check, by_day = [line.split() for line in shown.splitlines() if CHECK in line]
    assert by_check[:2] == [CHECK, "20"]  # the table by check (issue 25), then by day
    assert by_day[-1] == "20"


@pytest.mark.usefixtures("prefect_harness")
def test_the_prefect_flow_run_of_a_drifted_source_fails(tmp_path: Path) -> None:
    from prefect.client.orchestration import get_client

    from flows.orchestration.score_flow import score_flow

    source = write(drifted(10), tmp_path / "cases.parquet")
    with pytest.raises(QuarantineShareExceeded):
        score_flow(
            ScoreSettings(
                source=str(source), db=str(tmp_path / "f.duckdb"), max_quarantine_share=0.1
            )
        )

    async def newest_state() -> str:
        async with get_client() as client:
            (flow_run,) = await client.read_flow_runs(limit=1, sort="START_TIME_DESC")
            return flow_run.state.type.value

    assert asyncio.run(newest_state()) == "FAILED"


def test_a_warehouse_csv_of_passages_joined_by_bars_is_told_how_to_write_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A first export's passages joined with `|` are all quarantined; the error line says
    what a list in a CSV cell is, not only where to look."""
    source = tmp_path / "export.csv"
    source.write_text(
        "case_id,input,actual_output,retrieval_context,logged_at\n"
        "c1,Where is A17?,A17 shipped on 3 March.,A17 shipped on 3 March.|Hours: 9-17.,"
        "2026-11-01 10:00:00\n"
        "c2,Refunds?,Within 30 days.,Refunds within 30 days.|Hours: 9-17.,2026-11-01 11:00:00\n"
    )
    code = main(["score", str(source), "--db", str(tmp_path / "f.duckdb"), *OPTIONS])
    (error,) = [line for line in capsys.readouterr().err.splitlines() if line.startswith("error:")]
    assert code == 11, error
    assert f"top checks: {CHECK} 2" in error
    # was: `… (see the quarantine table)`, and nothing on what the cell must hold
    assert 'JSON text, ["first passage", "second passage"]' in error


def test_a_chat_log_whose_time_is_under_another_name_is_told_to_map_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """OpenAI-style chat logs keep their time as `created_at`: every answer was quarantined
    as logged_at_is_null, and the error line names the mapping that scores them. Such a log
    is now refused before anything is written (exit 3, tests/flows/read/test_chat_log_times.py),
    its line naming the same mapping."""
    messages = [
        {"role": "user", "content": "Where is A17?"},
        {"role": "tool", "content": "A17 shipped on 3 March."},
        {"role": "assistant", "content": "A17 shipped on 3 March."},
    ]
    source = tmp_path / "chats.jsonl"
    source.write_text(
        "".join(
            json.dumps(
                {"id": f"chat-{n}", "created_at": "2026-11-01T09:00:00Z", "messages": messages}
            )
            + "\n"
            for n in range(3)
        )
    )
    db = str(tmp_path / "f.duckdb")
    code = main(["score", str(source), "--db", db, *OPTIONS])
    (error,) = [line for line in capsys.readouterr().err.splitlines() if line.startswith("error:")]
    assert code == 3, error
    assert "missing required column logged_at" in error
    assert "--columns logged_at=COLUMN" in error  # was: `(see the quarantine table)` alone
    mapped = ["score", str(source), "--db", db, "--columns", "logged_at=created_at", *OPTIONS]
    assert main(mapped) == 0  # what the line says to do scores them


def test_an_excel_export_of_us_dates_is_told_which_times_are_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A CSV saved from Excel writes `11/1/2026 10:00 AM`; the line says what a time must
    look like, not only that it did not parse."""
    source = tmp_path / "export.csv"
    source.write_text(
        "case_id,input,actual_output,retrieval_context,logged_at\n"
        'c1,Where is A17?,A17 shipped on 3 March.,"[""A17 shipped on 3 March.""]",'
        "11/1/2026 10:00 AM\n"
    )
    code = main(["score", str(source), "--db", str(tmp_path / "f.duckdb"), *OPTIONS])
    (error,) = [line for line in capsys.readouterr().err.splitlines() if line.startswith("error:")]
    assert code == 11, error
    assert "top checks: logged_at_unparseable 1" in error
    assert "2026-11-01T10:00:00+02:00" in error  # an example of a time that is read


def test_the_run_line_names_every_check_its_quarantined_rows_failed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A first log of one row per fault: the run line named the top three checks alone, as if
    they were all (`4 quarantined; quarantined by check: a 1, b 1, c 1`), and the fourth row's
    fault, sorted last, was nowhere on the screen."""
    log = tmp_path / "log.csv"
    log.write_text(
        "case_id,input,actual_output,retrieval_context,logged_at\n"
        'ok,Where is A17?,A17 shipped.,"[""A17 shipped.""]",2026-11-01\n'
        'blank,Where is A17?, ,"[""A17 shipped.""]",2026-11-01\n'
        "nocontext,Where is A17?,A17 shipped.,,2026-11-01\n"
        "onestring,Where is A17?,A17 shipped.,A17 shipped.,2026-11-01\n"
        'badtime,Where is A17?,A17 shipped.,"[""A17 shipped.""]",11/1/2026 10:00 AM\n'
    )
    db = tmp_path / "f.duckdb"
    code = main(["score", str(log), "--db", str(db), *OPTIONS, "--max-quarantine-share", "1"])
    line = capsys.readouterr().out
    assert code == 0, line
    assert "5 rows in = 1 scored (1 new) + 0 invalid + 0 pending + 4 quarantined" in line
    named = line.split("quarantined by check: ", 1)[1].strip()
    assert named == (
        "actual_output_not_blank 1, logged_at_unparseable 1, retrieval_context_is_null 1, "
        f"{CHECK} 1"
    )


@pytest.mark.parametrize(("checks", "end"), [(12, "and 4 more checks"), (9, "and 1 more check")])
def test_a_run_line_of_many_checks_says_how_many_it_leaves_out(checks: int, end: str) -> None:
    from flows.run.summary import run_line

    run = {
        "run_id": "r",
        "status": "completed",
        "rows_in": 12,
        "rows_scored": 0,
        "rows_newly_scored": 0,
        "rows_invalid": 0,
        "rows_pending": 0,
        "rows_quarantined": 12,
        "rows_passed": 0,
        "rows_invalid_again": 0,
        "seconds_total": 1.0,
        "quarantine_checks": [(f"c{n:02}_wrong_type", 12 - n) for n in range(checks)],
    }
    named = run_line(run).split("quarantined by check: ", 1)[1]
    assert named.startswith("c00_wrong_type 12, c01_wrong_type 11, ")
    assert "c07_wrong_type 5" in named
    assert "c08_wrong_type" not in named
    assert named.endswith(f", {end} (see the quarantine table)")
