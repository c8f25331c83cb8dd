"""Nightly runs (issue 6): incremental over days, the judge-drift watch, two runs at once, and
the Prefect flow with its artifacts."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import duckdb
import polars as pl
import pytest

from faith_udfs import GroundedJudge, JudgeIdentity, LexicalJudge
from flows.errors import InputUnreadable
from flows.judges.settings import JudgeSettings
from flows.nightly.nightly_run import check_line, run_nightly
from flows.read.golden import read_golden
from flows.run.settings import ScoreSettings
from tests.conftest import published_artifacts
from tests.support.builders import ANSWERS, case_row, cases, many_cases, write
from tests.support.cli_run import faith_here

ROOT = Path(__file__).resolve().parents[3]


class FlippedJudge(LexicalJudge):
    """The lexical judge with `yes` and `no` swapped: a judge that drifted."""

    @property
    def identity(self) -> JudgeIdentity:
        return JudgeIdentity(kind="lexical", model="lexical-flipped", prompt_version="test")

    def verdicts(self, questions: pl.DataFrame) -> pl.DataFrame:
        swap = pl.element().replace({"yes": "no", "no": "yes"})
        return super().verdicts(questions).with_columns(pl.col("verdicts").list.eval(swap))


def day_cases(day: dt.date, n: int) -> pl.DataFrame:
    """n cases logged on `day`, with case ids unique to that day."""
    start = dt.datetime.combine(day, dt.time(8, 0))
    return cases(
        [
            case_row(
                f"{day:%m%d}-{i:03d}",
                ANSWERS[i % len(ANSWERS)],
                logged_at=start + dt.timedelta(minutes=i),
            )
            for i in range(n)
        ]
    )


def query(db: Path, sql: str, **params: object) -> list[tuple]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.sql(sql, params=params or None).fetchall()
    finally:
        con.close()


def nightly(source: Path, db: Path, **options) -> dict:
    return run_nightly(ScoreSettings(source=str(source), db=str(db), batch_size=16), **options)


def test_each_night_scores_only_the_new_day(tmp_path: Path) -> None:
    logs, db = tmp_path / "logs", tmp_path / "f.duckdb"
    write(day_cases(dt.date(2026, 10, 1), 40), logs / "day=2026-10-01" / "cases.parquet")
    first = nightly(logs, db)
    assert (first["flow"], first["status"], first["rows_newly_scored"]) == (
        "nightly",
        "completed",
        40,
    )

    write(day_cases(dt.date(2026, 10, 2), 30), logs / "day=2026-10-02" / "cases.parquet")
    second = nightly(logs, db)
    assert (second["rows_in"], second["rows_newly_scored"], second["rows_already_scored"]) == (
        70,
        30,
        40,
    )
    in_second = "SELECT count(*) FROM case_scores WHERE run_id = $run_id"
    assert query(db, in_second, run_id=second["run_id"]) == [(30,)]

    again = nightly(logs, db)
    first_day_again = nightly(logs / "day=2026-10-01", db)
    assert (again["rows_newly_scored"], again["rows_already_scored"]) == (0, 70)
    assert (first_day_again["rows_newly_scored"], first_day_again["rows_already_scored"]) == (0, 40)
    assert query(db, "SELECT count(*), count(DISTINCT case_id) FROM case_scores") == [(70, 70)]
    # Every night checked the judge, and the default judge passed each time.
    assert query(db, "SELECT count(*), bool_and(passed) FROM judge_checks") == [(4, True)]
    assert all(run["warning"] is None for run in (first, second, again, first_day_again))


def test_a_drifted_judge_marks_its_run_with_a_warning(tmp_path: Path) -> None:
    source, db = write(many_cases(20), tmp_path / "cases.parquet"), tmp_path / "f.duckdb"
    fine = nightly(source, db)
    drifted = nightly(source, db, judge=FlippedJudge())

    assert fine["judge_check"]["passed"] is True
    # The default (grounded) judge says every expected verdict, the paraphrase's included.
    assert fine["judge_check"]["agreement"] == 1.0
    assert drifted["status"] == "completed"  # the scores are kept; the run says what is wrong
    assert drifted["judge_check"]["passed"] is False
    assert drifted["warning"].startswith("judge drift: agreement with the golden set")
    checks = query(
        db,
        "SELECT run_id, config_id, agreement < floor, passed, warning FROM judge_agreement "
        "ORDER BY checked_at",
    )
    assert [(run_id, below, passed) for run_id, _, below, passed, _ in checks] == [
        (fine["run_id"], False, True),
        (drifted["run_id"], True, False),
    ]
    assert checks[0][1] != checks[1][1]  # another judge identity: another metric config
    assert checks[1][4] == drifted["warning"]
    # The stored items say where the judge went wrong: every expected yes/no it swapped.
    wrong = query(
        db,
        "SELECT case_id, expected, verdict FROM judge_check_verdicts "
        "WHERE run_id = $run_id AND NOT agreed ORDER BY ALL",
        run_id=drifted["run_id"],
    )
    assert ("golden-seed-grounded", "yes", "no") in wrong
    assert ("golden-refund-not", "no", "yes") in wrong
    assert all(expected in ("yes", "no") for _, expected, _ in wrong)


def test_a_missing_golden_set_fails_before_anything_is_written(tmp_path: Path) -> None:
    source = write(many_cases(3), tmp_path / "cases.parquet")
    with pytest.raises(InputUnreadable, match=r"golden set .*missing\.parquet: not readable"):
        nightly(source, tmp_path / "f.duckdb", golden=tmp_path / "missing.parquet")
    assert not (tmp_path / "f.duckdb").exists()


def test_a_golden_set_written_as_csv_is_refused_saying_it_must_be_parquet(tmp_path: Path) -> None:
    """It said only "not readable (ComputeError)"."""
    source = write(many_cases(3), tmp_path / "cases.parquet")
    golden = tmp_path / "golden.csv"
    golden.write_text("case_id,actual_output\ng1,Order A17 shipped.\n")
    with pytest.raises(InputUnreadable, match=r"not a Parquet file.*a golden set is a Parquet"):
        nightly(source, tmp_path / "f.duckdb", golden=golden)
    assert not (tmp_path / "f.duckdb").exists()


GOLDEN = pl.DataFrame(
    {
        "case_id": ["g1", "g2"],
        "actual_output": [ANSWERS[0], ANSWERS[3]],
        "retrieval_context": [[ANSWERS[0]], [ANSWERS[3]]],
        "expected_verdicts": [["yes"], ["yes"]],
    }
)


@pytest.mark.parametrize(
    ("golden", "message"),
    [
        (GOLDEN.clear(), "no case; a judge cannot be checked on it"),
        (GOLDEN.with_columns(case_id=pl.lit("g1")), r"case_id must be unique, repeated: \['g1'\]"),
        (  # accepted, its verdicts kept under no name; docs/nightly.md: an empty id stops the run
            GOLDEN.with_columns(case_id=pl.Series(["g1", " "])),
            "case_id must not be empty",
        ),
        (
            GOLDEN.with_columns(expected_verdicts=pl.lit(["maybe"])),
            r"expected_verdicts only yes/no/idk \(found \['maybe'\]\)",
        ),
        (  # the case dropped out of the agreement without a word
            GOLDEN.with_columns(expected_verdicts=pl.Series([None, ["yes"]])),
            r"expected_verdicts holds a null in case \['g1'\]",
        ),
        (  # the null verdict counted as agreed
            GOLDEN.with_columns(expected_verdicts=pl.Series([["yes", None], ["yes"]])),
            r"expected_verdicts holds a null in case \['g1'\]",
        ),
        (
            GOLDEN.with_columns(actual_output=pl.Series([ANSWERS[0], None])),
            r"actual_output holds a null in case \['g2'\]",
        ),
        (  # the rest are cases a judge can only leave invalid: each disagreed every night,
            # the check passing or failing with no word that the golden set was at fault
            GOLDEN.with_columns(actual_output=pl.Series([ANSWERS[0], "  "])),
            r"actual_output is blank in case \['g2'\]",
        ),
        (
            GOLDEN.with_columns(retrieval_context=pl.Series([[], [ANSWERS[3]]])),
            r"retrieval_context has no passage in case \['g1'\]",
        ),
        (
            GOLDEN.with_columns(retrieval_context=pl.Series([[ANSWERS[0], None], [ANSWERS[3]]])),
            r"retrieval_context holds a null or blank passage in case \['g1'\]",
        ),
        (
            GOLDEN.with_columns(retrieval_context=pl.Series([[ANSWERS[0]], [" "]])),
            r"retrieval_context holds a null or blank passage in case \['g2'\]",
        ),
        (  # blank as the contract and the metric read it: invisible characters only
            GOLDEN.with_columns(actual_output=pl.Series(["\u200b\x00", ANSWERS[3]])),
            r"actual_output is blank in case \['g1'\]",
        ),
        (
            GOLDEN.with_columns(retrieval_context=pl.Series([[ANSWERS[0]], ["\u2800"]])),
            r"retrieval_context holds a null or blank passage in case \['g2'\]",
        ),
        (  # it said "missing columns [], wrong types ['case_id']", the type found left out
            GOLDEN.with_columns(case_id=pl.Series([1, 2])),
            r"golden set .*golden.parquet: column case_id is Int64, not String; expected",
        ),
        (
            GOLDEN.drop("expected_verdicts"),
            r"golden set .*golden.parquet: no column expected_verdicts; expected",
        ),
    ],
    ids=[
        "empty",
        "repeated id",
        "empty id",
        "unknown verdict",
        "null verdicts",
        "null verdict",
        "no answer",
        "blank answer",
        "no passage",
        "null passage",
        "blank passage",
        "invisible answer",
        "invisible passage",
        "number ids",
        "no verdicts",
    ],
)
def test_a_golden_set_a_judge_cannot_be_checked_on_is_refused_naming_why(
    tmp_path: Path, golden: pl.DataFrame, message: str
) -> None:
    """An empty set once passed as "0 of 0 pending" (exit 0); a repeated id was reported as
    a wrong verdict ("found []")."""
    source = write(many_cases(3), tmp_path / "cases.parquet")
    path = write(golden, tmp_path / "golden.parquet")
    with pytest.raises(InputUnreadable, match=message):
        nightly(source, tmp_path / "f.duckdb", golden=path)
    assert not (tmp_path / "f.duckdb").exists()


def test_a_claim_past_the_expected_ones_disagrees_whatever_its_verdict(tmp_path: Path) -> None:
    """docs/nightly.md: an extra claim disagrees. One the judge called `idk` counted as agreed
    (read as chit-chat in an answer expected to have no claims): a judge that split an answer
    into more claims than the golden set's looked in agreement."""
    golden = GOLDEN.with_columns(
        actual_output=pl.Series([ANSWERS[1], ANSWERS[3]]),  # g1: "... It arrives tomorrow."
        retrieval_context=pl.Series([[ANSWERS[0]], [ANSWERS[3]]]),
    )  # g1 expects one claim, `yes`; its second sentence is a claim the context is silent on
    source = write(many_cases(3), tmp_path / "cases.parquet")
    db = tmp_path / "f.duckdb"
    night = nightly(source, db, golden=write(golden, tmp_path / "golden.parquet"))
    items = "SELECT case_id, claim_index, expected, verdict, agreed FROM judge_check_verdicts"
    assert query(db, items + " ORDER BY ALL") == [
        ("g1", 0, "yes", "yes", True),
        ("g1", 1, None, "idk", False),
        ("g2", 0, "yes", "yes", True),
    ]
    assert (night["judge_check"]["agreed"], night["judge_check"]["items"]) == (2, 3)


def test_a_golden_set_may_write_the_middle_verdict_as_deepeval_does(tmp_path: Path) -> None:
    """README: `borderline` (DeepEval's) and `idk` are both accepted; a golden set written
    with `borderline` was refused (exit 3) and now reads, and hashes, as the same set in idk."""
    middle = GOLDEN.with_columns(expected_verdicts=pl.Series([["yes", "idk"], ["idk"]]))
    deepeval = middle.with_columns(expected_verdicts=pl.Series([["yes", "borderline"], ["idk"]]))
    as_idk = read_golden(write(middle, tmp_path / "idk.parquet"))
    as_borderline = read_golden(write(deepeval, tmp_path / "borderline.parquet"))
    assert as_borderline.cases.equals(as_idk.cases)
    assert as_borderline.content_hash == as_idk.content_hash


def test_a_golden_set_labelled_with_category_columns_reads_as_the_same_set(
    tmp_path: Path,
) -> None:
    """pandas writes a `category` column as a Parquet dictionary, read back as Categorical
    (polars' own too): such a golden set was refused (exit 3), where SOURCE and the labels of
    `faith calibrate` take it."""
    plain = read_golden(write(GOLDEN, tmp_path / "plain.parquet"))
    labelled = GOLDEN.to_pandas()
    labelled["case_id"] = labelled["case_id"].astype("category")
    labelled.to_parquet(tmp_path / "pandas.parquet")
    categories = GOLDEN.with_columns(
        pl.col("actual_output").cast(pl.Categorical),
        pl.col("expected_verdicts").cast(pl.List(pl.Categorical)),
    )
    for golden in (tmp_path / "pandas.parquet", write(categories, tmp_path / "polars.parquet")):
        read = read_golden(golden)
        assert read.cases.equals(plain.cases)
        assert read.content_hash == plain.content_hash


@pytest.mark.parametrize("golden", ["", "  "])
def test_an_empty_golden_parameter_is_refused_not_read_as_the_bundled_set(
    tmp_path: Path, golden: str
) -> None:
    """The CLI refuses an empty --golden; a flow's golden parameter (prefect.yaml's, an unset
    variable templated in) was checked against the bundled set without a word."""
    from faith_udfs.errors import ConfigError

    source = write(many_cases(3), tmp_path / "cases.parquet")
    with pytest.raises(ConfigError, match="--golden is empty"):
        nightly(source, tmp_path / "f.duckdb", golden=golden)
    assert not (tmp_path / "f.duckdb").exists()


def faith(*args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "flows.cli", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


class HoldingJudge(GroundedJudge):
    """The default judge which, on its first call (its run holds the database's write lock
    then), runs `meanwhile` before it answers: the test says how long the run lasts."""

    def __init__(self, meanwhile: Callable[[], None]) -> None:
        super().__init__()
        self.meanwhile: Callable[[], None] | None = meanwhile

    def verdicts(self, questions: pl.DataFrame) -> pl.DataFrame:
        if self.meanwhile is not None:
            meanwhile, self.meanwhile = self.meanwhile, None
            meanwhile()
        return super().verdicts(questions)


@pytest.mark.slow
def test_two_runs_at_once_one_writes_the_other_waits_or_exits(tmp_path: Path) -> None:
    logs, db = tmp_path / "logs", tmp_path / "f.duckdb"
    write(day_cases(dt.date(2026, 10, 1), 40), logs / "day=2026-10-01" / "cases.parquet")
    write(day_cases(dt.date(2026, 10, 2), 30), logs / "day=2026-10-02" / "cases.parquet")
    run = ["nightly", str(logs), "--db", str(db), "--prefect", "no", "--batch-size", "16"]
    others: list[subprocess.Popen] = []

    def two_more_runs() -> None:
        # This run holds the write lock until the impatient run has given up; the patient
        # one is waiting by then, or starts after: either way it must complete.
        others.extend([faith(*run), faith(*run, "--lock-timeout", "120")])
        others[0].wait(timeout=120)

    holding = nightly(logs / "day=2026-10-01", db, judge=HoldingJudge(two_more_runs))
    outcomes = [(p.wait(timeout=120), *p.communicate()) for p in others]

    (impatient, out, err), (patient, patient_out, patient_err) = outcomes
    assert impatient == 4, err
    assert f"is locked by process {os.getpid()}" in err
    assert "raise --lock-timeout" in err
    assert out == ""
    assert patient == 0, patient_err
    assert "judge check on 29 golden cases" in patient_out
    assert holding["rows_newly_scored"] == 40
    finished = query(
        db, "SELECT count(*), sum(rows_newly_scored), bool_and(status = 'completed') FROM runs"
    )
    assert finished == [(2, 70, True)]
    assert query(db, "SELECT count(*), count(DISTINCT case_id) FROM case_scores") == [(70, 70)]
    # Readers share the file while no run writes; a writer then waits for them, or says so.
    reader = duckdb.connect(str(db), read_only=True)
    try:
        listing = faith("runs", "--db", str(db))
        writer = faith(*run)
        assert listing.wait(timeout=120) == 0
        assert "completed" in listing.communicate()[0]
        assert writer.wait(timeout=120) == 4
        locked = f"is locked by process {os.getpid()} (a run, or a DuckDB session?); waited"
        assert locked in writer.communicate()[1]  # this test's process: no faith run
        assert reader.sql("SELECT count(*) FROM judge_checks").fetchall() == [(2,)]
    finally:
        reader.close()


@pytest.mark.usefixtures("prefect_harness")
def test_nightly_flow_runs_as_tasks_and_publishes_its_judge_check(tmp_path: Path) -> None:

    from flows.orchestration.nightly_flow import nightly_flow

    source, db = write(many_cases(25), tmp_path / "cases.parquet"), tmp_path / "f.duckdb"
    lexical = JudgeSettings(kind="lexical")
    settings = ScoreSettings(source=str(source), db=str(db), batch_size=10, judge=lexical)
    run = nightly_flow(settings, agreement_floor=1.0)
    assert (run["flow"], run["status"], run["batches"], run["rows_newly_scored"]) == (
        "nightly",
        "completed",
        3,
        25,
    )
    # A word-matching judge cannot support a paraphrase: never 100 % on the golden set.
    assert run["judge_check"]["passed"] is False
    assert run["warning"].startswith("judge drift")

    published = published_artifacts()
    assert run["run_id"] in published["faithpipe-nightly-summary"]
    assert "judge drift" in published["faithpipe-nightly-summary"]
    assert "rows_in" in published["faithpipe-nightly-counts"]
    check = published["faithpipe-nightly-judge-check"]
    assert check_line(run["judge_check"]) in check
    assert "| golden-date-paraphrase | Order B42 arrived on 12 April. | yes | no |" in check


@pytest.mark.usefixtures("prefect_harness")
def test_a_night_ending_in_an_alarm_still_publishes_its_artifacts(tmp_path: Path) -> None:
    """The nights that fail the flow run (exit 8, 11, 15) are the ones to read in the UI: they
    published no summary, counts or judge check, and logged no check line."""
    from flows.errors import QuarantineShareExceeded
    from flows.orchestration.nightly_flow import nightly_flow

    rows = [case_row(f"q{i:03d}", input="" if i < 5 else "Where is order A17?") for i in range(20)]
    source, db = write(cases(rows), tmp_path / "cases.parquet"), tmp_path / "f.duckdb"
    settings = ScoreSettings(source=str(source), db=str(db))
    with pytest.raises(QuarantineShareExceeded) as alarm:  # 5 of 20 rows quarantined
        nightly_flow(settings)
    night = alarm.value.night
    assert night is not None
    published = published_artifacts()
    assert night["run_id"] in published["faithpipe-nightly-summary"]
    assert check_line(night["judge_check"]) in published["faithpipe-nightly-judge-check"]


@pytest.mark.usefixtures("prefect_harness")
def test_an_alarm_stays_the_nights_outcome_when_its_artifacts_cannot_be_published(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Publishing is the alarm's aside: a failure of it (the API gone) replaced the alarm, and
    the night's exit 11 became another."""
    import flows.orchestration.nightly_flow as nightly
    from flows.errors import QuarantineShareExceeded

    def unavailable(**_: object) -> None:
        raise OSError("the Prefect API is gone")

    monkeypatch.setattr(nightly, "create_markdown_artifact", unavailable)
    rows = [case_row(f"q{i:03d}", input="" if i < 5 else "Where is order A17?") for i in range(20)]
    source, db = write(cases(rows), tmp_path / "cases.parquet"), tmp_path / "f.duckdb"
    with pytest.raises(QuarantineShareExceeded):  # 5 of 20 rows quarantined
        nightly.nightly_flow(ScoreSettings(source=str(source), db=str(db)))


def test_a_large_golden_sets_figures_carry_thousands_separators_as_the_run_line_does() -> None:
    """The run line says `3,003 rows in`; the check's line and warning said `101500 golden
    cases` and `(1000/126000, 1200 golden cases invalid)`."""
    from schemas import JudgeCheck

    items = pl.DataFrame({"agreed": [True] * 1_000 + [False] * 125_000})
    check = JudgeCheck(
        config_id="faith-x", golden="g.parquet", golden_hash="0" * 32, cases=101_500,
        cases_invalid=1_200, cases_pending=0, floor=0.9, seconds=1.0, items=items,
    )  # fmt: skip
    assert check_line(check.summary()).startswith(
        "judge check on 101,500 golden cases: agreement 0.8% (1,000/126,000), floor 90.0%"
    )
    assert "0.8% (1,000/126,000, 1,200 golden cases invalid) is below" in str(check.warning)
    pending = JudgeCheck(**{**check.__dict__, "cases_pending": 2_500})
    assert str(pending.warning).startswith("judge check incomplete: 2,500 of 101,500 golden")


def test_the_judge_check_artifact_keeps_a_golden_sets_text_in_its_cell() -> None:
    """A claim with `|` or a line break split its row of the markdown table; its HTML was
    rendered by the UI."""
    from flows.orchestration.nightly_flow import check_markdown

    check = {
        "config_id": "faith-x", "golden": "g.parquet", "golden_hash": "0" * 64,
        "warning": None, "passed": False, "agreement": 0.5, "items": 2, "agreed": 1,
        "cases": 2, "floor": 0.9,
        "disagreements": [
            {"case_id": "g|1", "claim": "Plans: A | B\nor <b>C</b>.", "expected": "yes",
             "verdict": "no"},
        ],
    }  # fmt: skip
    table = check_markdown("run-1", check).split("| --- | --- | --- | --- |\n", 1)[1]
    assert table == "| g\\|1 | Plans: A \\| B or &lt;b&gt;C&lt;/b&gt;. | yes | no |"


def test_a_nights_run_line_names_its_quarantine_checks_as_a_scores_does(tmp_path: Path) -> None:
    """hardening.md: within --max-quarantine-share, the run line names the checks that
    quarantined rows. `faith score`'s did; the night's row lacked them, so `faith nightly`
    printed only the count."""
    from flows.run.summary import run_line

    logs, db = tmp_path / "logs", tmp_path / "f.duckdb"
    blank = case_row("blank", "   ", logged_at=dt.datetime(2026, 10, 1, 9, 0))
    write(pl.concat([day_cases(dt.date(2026, 10, 1), 40), cases([blank])]), logs / "c.parquet")
    night = nightly(logs, db)
    assert night["rows_quarantined"] == 1
    assert run_line(night).endswith("; quarantined by check: actual_output_not_blank 1")


@pytest.mark.parametrize(
    ("fault", "limits", "says"),
    [
        # the endpoint died after the run: the circuit breaker opened in the check
        ("reset", {"breaker_failures": 2}, "no further calls are made this run"),
        # the night's --max-calls, spent by the check
        (None, {"max_calls": 1}, "the run's cap of 1 judge calls is reached (--max-calls)"),
    ],
    ids=["connection-resets", "call-cap"],
)
def test_an_incomplete_judge_check_says_why_its_golden_cases_are_pending(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    fault: str | None,
    limits: dict[str, int],
    says: str,
) -> None:
    """An LLM endpoint that stopped answering during the judge check left the golden cases
    pending, and the night's warning (runs.warning, the webhook's text) blamed 'a judge cap
    reached, or answers still in a submitted batch': neither, as the check asks live."""
    from tests.support.openai_stub import serving

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-incomplete-check")
    source, db = write(many_cases(6), tmp_path / "cases.parquet"), tmp_path / "f.duckdb"
    with serving() as stub:
        judge = JudgeSettings(kind="openai", model="m", base_url=stub.base_url, mode="packed")
        first = run_nightly(ScoreSettings(source=str(source), db=str(db), judge=judge))
        assert first["judge_check"]["passed"] is True
        if fault is not None:
            stub.fail(fault, None)
        # Everything is scored already: the night's only calls are the judge check's.
        judge = judge.model_copy(update=limits)
        second = run_nightly(ScoreSettings(source=str(source), db=str(db), judge=judge))
    check = second["judge_check"]
    assert (second["rows_newly_scored"], check["passed"]) == (0, None)
    assert check["cases_pending"] == check["cases"]
    assert second["warning"].startswith("judge check incomplete: 29 of 29 golden cases pending")
    assert says in second["warning"]
    assert "a submitted batch" not in second["warning"]
    assert "sk-test-incomplete-check" not in second["warning"]
    # Its agreement is unknown, not 0: pending items counted as disagreeing read as a judge
    # that fell from 100% to 0% and back in judge_agreement's `change`.
    assert check["agreement"] is None
    con = duckdb.connect(str(db), read_only=True)
    try:
        found = con.sql("SELECT agreement, change FROM judge_agreement ORDER BY checked_at")
        (night_1, _), night_2 = found.fetchall()
        assert (night_1 == first["judge_check"]["agreement"] > 0.9, night_2) == (True, (None, None))
    finally:
        con.close()
    assert "agreement n/a" in check_line(check)


# Inputs refused (exit 3) only once read through, not when SOURCE is resolved: a chat log
# with no time anywhere, a CSV of cases whose line breaks the format.
UNREADABLE = {
    "chat log without a time": (
        "chat.csv",
        'conversation_id,messages\nc1,"[{""role"": ""user"", ""content"": ""hi""}]"\n',
    ),
    "malformed CSV line": (
        "cases.csv",
        "case_id,input,actual_output,retrieval_context,logged_at\n"
        'c1,q,a,"[""p""]",2026-10-01T08:00:00\n'
        'c2,"q,a\n',
    ),
}


@pytest.mark.parametrize("command", ["score", "nightly"])
@pytest.mark.parametrize("unreadable", UNREADABLE)
def test_an_input_refused_when_read_leaves_no_database_behind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, unreadable: str
) -> None:
    """`faith nightly` made the new database (its tables) before the input was read and
    refused, where `faith score` left nothing: a night that refused its input left a file."""
    name, text = UNREADABLE[unreadable]
    source, db = tmp_path / name, tmp_path / "new.duckdb"
    source.write_text(text)
    done = faith_here(capsys, command, str(source), "--db", str(db), "--prefect", "no")
    assert done.returncode == 3, done.stderr
    assert sorted(path.name for path in tmp_path.iterdir()) == [name]


@pytest.mark.parametrize("unreadable", UNREADABLE)
def test_an_input_refused_when_read_costs_no_judge_call_on_an_existing_database(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    unreadable: str,
) -> None:
    """On an existing database, a night of `--judge openai` asked the judge its start-up
    check (paid calls) before its input was read through and refused (exit 3)."""
    from tests.support.openai_stub import serving

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-unread-input")
    db = tmp_path / "f.duckdb"
    kept = faith_here(
        capsys,
        "score",
        str(write(many_cases(2), tmp_path / "kept.parquet")),
        "--db",
        str(db),
        "--prefect",
        "no",
    )
    assert kept.returncode == 0, kept.stderr
    name, text = UNREADABLE[unreadable]
    source = tmp_path / name
    source.write_text(text)
    with serving() as stub:
        done = faith_here(
            capsys, "nightly", str(source), "--db", str(db), "--prefect", "no",
            "--judge", "openai", "--model", "m", "--base-url", stub.base_url,
        )  # fmt: skip
        calls = stub.requests
    assert (done.returncode, calls) == (3, 0), done.stderr
    assert query(db, "SELECT count(*) FROM runs WHERE flow = 'nightly'") == [(0,)]


@pytest.mark.parametrize("written", [300, 0], ids=["cut-short", "not-begun"])
def test_a_parquet_file_still_being_written_stops_the_night_saying_how_to_deliver_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], written: int
) -> None:
    """An exporter writing tonight's file into the logs folder as the night reads it: the
    night was exit 3 with pyarrow's 'Parquet magic bytes not found in footer. Either the file
    is corrupted or this is not a parquet file.', which says nothing of what to do."""
    logs, db = tmp_path / "logs", tmp_path / "f.duckdb"
    write(day_cases(dt.date(2026, 10, 1), 4), logs / "day1.parquet")
    night = faith_here(capsys, "nightly", str(logs), "--db", str(db), "--prefect", "no")
    assert night.returncode == 0, night.stderr
    whole = write(day_cases(dt.date(2026, 10, 2), 4), tmp_path / "day2.parquet").read_bytes()
    (logs / "day2.parquet").write_bytes(whole[:written])
    done = faith_here(capsys, "nightly", str(logs), "--db", str(db), "--prefect", "no")
    assert done.returncode == 3
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"error: {logs / 'day2.parquet'}: not a readable Parquet file (")
    assert line.endswith(
        "; it ends before its footer: a file still being written, or a copy cut short? "
        "Write it under another name (day2.parquet.tmp) and rename it when complete, "
        "or remove it"
    )
    # The whole file is read the next night, under its name or renamed from another.
    (logs / "day2.parquet.tmp").write_bytes(whole)
    (logs / "day2.parquet.tmp").rename(logs / "day2.parquet")
    night = faith_here(capsys, "nightly", str(logs), "--db", str(db), "--prefect", "no")
    assert night.returncode == 0, night.stderr
    assert query(db, "SELECT count(*) FROM case_scores") == [(8,)]


@pytest.mark.parametrize(
    ("floor", "says"),
    [
        # the floor set at the agreement the check line printed (94.6%): the night's line
        # said `agreement 94.6% (35/37), floor 94.6%: BELOW THE FLOOR`
        (0.946, "agreement 94.59% (35/37), floor 94.60%: BELOW THE FLOOR"),
        (0.95, "agreement 94.6% (35/37), floor 95.0%: BELOW THE FLOOR"),
        (35 / 37, "agreement 94.6% (35/37), floor 94.6%: ok"),
    ],
    ids=["just-above", "above", "equal"],
)
def test_an_agreement_below_its_floor_never_reads_as_equal_to_it(
    tmp_path: Path, floor: float, says: str
) -> None:
    source, db = write(many_cases(5), tmp_path / "cases.parquet"), tmp_path / "f.duckdb"
    night = nightly(source, db, judge=LexicalJudge(), agreement_floor=floor)
    check = night["judge_check"]
    assert check_line(check) == f"judge check on 29 golden cases: {says}"
    if check["passed"]:
        assert night["warning"] is None
    else:
        agreement, _, floor_said = says.removeprefix("agreement ").partition(", floor ")
        below = f"{agreement} is below the floor {floor_said.split(':')[0]};"
        assert f"judge drift: agreement with the golden set {below}" in night["warning"]


def test_a_night_reads_its_source_through_first_only_when_it_pays_the_judge_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The read before the paid start-up check is the run's read too: it was one more read of
    the whole input (the run read it through again, counting rows), and with the check paid
    every night of a daily schedule (PREFLIGHT_VALID, 20 hours) every night read it twice.
    A night whose check passed earlier reads it as a `faith score` does, once."""
    import flows.run.pipeline as pipeline
    from tests.support.openai_stub import serving

    reads: list[str] = []
    read_through = pipeline.read_before_writing
    monkeypatch.setattr(
        pipeline, "read_before_writing", lambda s: reads.append(str(s.source)) or read_through(s)
    )
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-read-once")
    db, logs = tmp_path / "f.duckdb", tmp_path / "logs"
    write(day_cases(dt.date(2026, 10, 1), 2), logs / "day1.parquet")
    made = faith_here(capsys, "score", str(logs), "--db", str(db), "--prefect", "no")
    assert made.returncode == 0, made.stderr
    nights = []
    with serving() as stub:
        for day in (2, 3):
            write(day_cases(dt.date(2026, 10, day), 2), logs / f"day{day}.parquet")
            reads.clear()
            night = faith_here(
                capsys, "nightly", str(logs), "--db", str(db), "--prefect", "no",
                "--judge", "openai", "--model", "m", "--base-url", stub.base_url,
            )  # fmt: skip
            assert night.returncode == 0, night.stderr
            nights.append(len(reads))
    assert nights == [1, 1]  # the first night paid the check: its read is the run's too
