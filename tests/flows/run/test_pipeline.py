"""The pipeline end to end on real Parquet files and a real DuckDB file (plain route)."""

from __future__ import annotations

import datetime as dt
import json
import threading
from collections import Counter
from pathlib import Path

import duckdb
import polars as pl
import pytest

from faith_udfs import LexicalJudge
from faith_udfs.grounded import GroundedJudge
from flows.errors import InputUnreadable
from flows.read.source import resolve_source
from flows.read.streaming import count_rows
from flows.run import run_state
from flows.run.batches import score_batch
from flows.run.pipeline import Steps, run_score
from flows.run.settings import ScoreSettings
from tests.support.builders import CONTEXT, SCHEMA, case_row, cases, many_cases, write
from tests.support.db_reading import frame as table
from tests.support.seed_judge import CountingJudge

SCORE_COLUMNS = [
    "case_id",
    "config_id",
    "n_claims",
    "n_yes",
    "n_no",
    "n_idk",
    "score",
    "success",
    "status",
    "reason",
    "logged_at",
    "segments",
]


def score(source: Path | str, db: Path, **settings) -> dict:
    # Invalid cases are part of these examples; the share that fails a run is
    # tests/flows/run/test_invalid_share.py's subject.
    settings.setdefault("max_invalid_share", 1.0)
    settings.setdefault("max_quarantine_share", None)  # test_quarantine_share.py's subject
    return run_score(ScoreSettings(source=str(source), db=str(db), **settings))


def assert_counts_add_up(run: dict) -> None:
    assert run["rows_in"] == (
        run["rows_scored"] + run["rows_invalid"] + run["rows_pending"] + run["rows_quarantined"]
    )


def test_seed_cases_are_scored_into_duckdb(tmp_path: Path) -> None:
    source = write(
        cases(
            [
                case_row("grounded", "Order A17 shipped on 3 March."),
                case_row("invented", "Order A17 shipped on 3 March. It arrives tomorrow."),
                case_row("wrong", "Order A17 was cancelled. We are sorry."),
            ]
        ),
        tmp_path / "seed.parquet",
    )
    run = score(source, tmp_path / "f.duckdb")
    assert (run["status"], run["rows_in"], run["rows_newly_scored"]) == ("completed", 3, 3)
    scores = table(
        tmp_path / "f.duckdb",
        "SELECT case_id, score, segments ->> 'app_version' AS app FROM case_scores",
    )
    assert dict(scores.select("case_id", "score").iter_rows()) == {
        "grounded": 1.0,
        "invented": 1.0,
        "wrong": 0.5,
    }
    assert scores["app"].to_list() == ["2.4.0"] * 3
    verdicts = table(tmp_path / "f.duckdb", "SELECT verdict FROM claim_verdicts ORDER BY ALL")
    assert verdicts["verdict"].to_list() == ["idk", "idk", "no", "yes", "yes"]


def test_rerunning_adds_no_rows_and_asks_the_judge_nothing(tmp_path: Path) -> None:
    source = write(many_cases(40), tmp_path / "cases.parquet")
    db = tmp_path / "f.duckdb"
    first_judge = CountingJudge()
    first = run_score(ScoreSettings(source=str(source), db=str(db)), judge=first_judge)
    assert first["rows_newly_scored"] == 40
    assert sum(first_judge.calls.values()) > 0
    counts = " UNION ALL ".join(
        f"SELECT count(*) FROM {name}"
        for name in ("case_scores", "claim_verdicts", "truths", "quarantine")
    )
    before = table(db, counts).to_series().to_list()
    again_judge = CountingJudge()
    again = run_score(ScoreSettings(source=str(source), db=str(db)), judge=again_judge)
    assert again_judge.calls == Counter()
    assert (again["rows_newly_scored"], again["rows_already_scored"]) == (0, 40)
    assert table(db, counts).to_series().to_list() == before
    assert_counts_add_up(again)


def test_wide_and_three_table_forms_give_identical_case_scores(tmp_path: Path) -> None:
    wide = many_cases(60)
    write(wide, tmp_path / "wide.parquet")
    folder = tmp_path / "three"
    questions = wide.select("case_id", "input", "logged_at", "app_version")
    outputs = wide.select("case_id", "actual_output")
    contexts = (
        wide.select(
            "case_id",
            text="retrieval_context",
            position=pl.int_ranges(pl.col("retrieval_context").list.len()),
        )
        .explode("text", "position")
        .sample(fraction=1.0, shuffle=True, seed=3)  # long form in any order
    )
    write(questions, folder / "questions.parquet")
    write(contexts, folder / "contexts" / "part-0.parquet")
    write(outputs, folder / "outputs.parquet")
    score(tmp_path / "wide.parquet", tmp_path / "wide.duckdb")
    run = score(folder, tmp_path / "three.duckdb")
    assert run["rows_newly_scored"] == 60
    query = f"SELECT {', '.join(SCORE_COLUMNS)} FROM case_scores ORDER BY case_id"
    assert table(tmp_path / "wide.duckdb", query).equals(table(tmp_path / "three.duckdb", query))


BAD_ROWS = {
    "null case_id": (case_row(None), "case_id_is_null"),
    "blank case_id": (case_row("  "), "case_id_not_blank"),
    "null input": (case_row("q1", input=None), "input_is_null"),
    "blank input": (case_row("q2", input=" "), "input_not_blank"),
    "null answer": (case_row("q3", actual_output=None), "actual_output_is_null"),
    "blank answer": (case_row("q4", actual_output=""), "actual_output_not_blank"),
    "null context": (case_row("q5", retrieval_context=None), "retrieval_context_is_null"),
    "null passage": (case_row("q6", retrieval_context=["ok.", None]), "no_null_or_blank_passages"),
    "blank passage": (case_row("q7", retrieval_context=[" "]), "no_null_or_blank_passages"),
    "null logged_at": (case_row("q8", logged_at=None), "logged_at_is_null"),
}


def test_each_kind_of_bad_row_is_quarantined_and_the_rest_scored(tmp_path: Path) -> None:
    good = [case_row(f"good{i}") for i in range(3)] + [case_row("empty-ctx", retrieval_context=[])]
    conflict = [case_row("twice", "Order A17 shipped."), case_row("twice", "Order A17 was lost.")]
    copies = [case_row("copy"), case_row("copy")]
    rows = good + [row for row, _ in BAD_ROWS.values()] + conflict + copies
    write(cases(rows), tmp_path / "in" / "typed.parquet")
    # Another file of the same source, where two columns have the wrong type.
    loose = pl.DataFrame(
        {
            "case_id": ["s1", "s2", "s3"],
            "input": ["q"] * 3,
            "actual_output": ["Order A17 shipped."] * 3,
            "retrieval_context": ["not a list", "also not", "nope"],
            "logged_at": ["2026-10-01 10:00", "yesterday-ish", "2026-10-02"],
        }
    )
    write(loose, tmp_path / "in" / "loose.parquet")
    write(cases([case_row("twice", "Order A17 is lost.")]), tmp_path / "in" / "z-later.parquet")

    run = score(tmp_path / "in", tmp_path / "f.duckdb")
    assert_counts_add_up(run)
    assert run["rows_in"] == len(rows) + 4
    assert (run["rows_scored"], run["rows_invalid"]) == (4, 1)  # good0-2 + one copy; empty-ctx
    checks = table(tmp_path / "f.duckdb", 'SELECT case_id, "check", value FROM quarantine')
    found = set(checks["check"])
    assert {check for _, check in BAD_ROWS.values()} <= found
    assert "retrieval_context_not_a_list_of_strings" in found
    assert ("s2", "logged_at_unparseable", "yesterday-ish") in set(checks.iter_rows())
    conflicts = checks.filter(pl.col("check") == "duplicate_case_id_conflict")
    assert sorted(conflicts["case_id"]) == ["twice"] * 3
    assert checks.filter(pl.col("check") == "duplicate_case_id_exact_copy")[
        "case_id"
    ].to_list() == ["copy"]
    quarantined_rows = table(
        tmp_path / "f.duckdb", "SELECT count(DISTINCT row_key) AS n FROM quarantine"
    )
    assert quarantined_rows["n"][0] == run["rows_quarantined"]

    again = score(tmp_path / "in", tmp_path / "f.duckdb")
    assert_counts_add_up(again)
    after = table(tmp_path / "f.duckdb", "SELECT count(*) AS n FROM quarantine")
    assert after["n"][0] == checks.height


def test_a_corrupt_file_fails_the_run_and_writes_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    write(many_cases(5), folder / "a.parquet")
    good = (folder / "a.parquet").read_bytes()
    (folder / "b.parquet").write_bytes(good[: len(good) // 2])
    with pytest.raises(InputUnreadable, match=r"b\.parquet: not a readable Parquet file"):
        score(folder, tmp_path / "f.duckdb")
    assert not (tmp_path / "f.duckdb").exists()


def test_a_file_missing_a_required_column_fails_the_run(tmp_path: Path) -> None:
    write(many_cases(5).drop("actual_output"), tmp_path / "a.parquet")
    with pytest.raises(InputUnreadable, match="missing required column actual_output"):
        score(tmp_path / "a.parquet", tmp_path / "f.duckdb")
    assert not (tmp_path / "f.duckdb").exists()


def test_a_redelivered_case_with_new_content_replaces_the_old_row(tmp_path: Path) -> None:
    db = tmp_path / "f.duckdb"
    score(
        write(cases([case_row("c1", "Order A17 shipped on 3 March.")]), tmp_path / "a.parquet"), db
    )
    run = score(
        write(cases([case_row("c1", "Order A17 was cancelled.")]), tmp_path / "b.parquet"), db
    )
    assert (run["rows_replaced"], run["rows_newly_scored"]) == (1, 1)
    rows = table(db, "SELECT case_id, score, actual_output FROM case_scores")
    assert rows.rows() == [("c1", 0.0, "Order A17 was cancelled.")]
    claims = table(db, "SELECT claim FROM claim_verdicts")
    assert claims["claim"].to_list() == ["Order A17 was cancelled."]


def test_invalid_cases_are_retried_by_the_next_run(tmp_path: Path) -> None:
    source = write(cases([case_row("c1", retrieval_context=[])]), tmp_path / "a.parquet")
    db = tmp_path / "f.duckdb"
    assert score(source, db)["rows_invalid"] == 1
    again = score(source, db)
    assert (again["rows_invalid"], again["rows_already_scored"]) == (1, 0)
    assert table(db, "SELECT count(*) AS n FROM case_scores")["n"][0] == 1


def test_small_batches_give_the_same_scores_as_one_batch(tmp_path: Path) -> None:
    source = write(many_cases(57), tmp_path / "a.parquet")
    one = score(source, tmp_path / "one.duckdb")
    many = score(source, tmp_path / "many.duckdb", batch_size=10)
    assert (one["batches"], many["batches"]) == (1, 6)
    query = f"SELECT {', '.join(SCORE_COLUMNS)} FROM case_scores ORDER BY case_id"
    assert table(tmp_path / "one.duckdb", query).equals(table(tmp_path / "many.duckdb", query))


def scored_on(threads: list[str]) -> Steps:
    """The run's scoring step, noting the thread each batch is scored on."""

    def score(*args, **options):
        threads.append(threading.current_thread().name)
        return score_batch(*args, **options)

    return Steps(score=score)


def test_the_default_judge_scores_batches_on_two_threads_into_the_same_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = write(many_cases(57), tmp_path / "a.parquet")
    monkeypatch.setattr(run_state, "usable_cores", lambda: 2)
    two: list[str] = []
    settings = ScoreSettings(source=str(source), db=str(tmp_path / "two.duckdb"), batch_size=10)
    run_score(settings, steps=scored_on(two))
    # Dealt in turn; the two threads' batches may start in either order.
    assert Counter(two) == {"faithpipe-score-1": 3, "faithpipe-score-2": 3}

    monkeypatch.setattr(run_state, "usable_cores", lambda: 1)
    one: list[str] = []
    settings = ScoreSettings(source=str(source), db=str(tmp_path / "one.duckdb"), batch_size=10)
    run_score(settings, steps=scored_on(one))
    assert one == ["faithpipe-score-1"] * 6
    for query in (
        f"SELECT {', '.join(SCORE_COLUMNS)} FROM case_scores ORDER BY case_id",
        "SELECT * FROM claim_verdicts ORDER BY ALL",
        "SELECT * FROM truths ORDER BY ALL",
    ):
        assert table(tmp_path / "one.duckdb", query).equals(table(tmp_path / "two.duckdb", query))


class CountingGrounded(GroundedJudge):
    """A custom judge on the default's rules that counts its batches, as a team's might."""

    batches = 0

    def claims(self, answers: pl.DataFrame) -> pl.DataFrame:
        self.batches += 1  # not safe on two threads at once
        return super().claims(answers)


def test_only_the_offline_judges_faithpipe_ships_get_two_scoring_threads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(run_state, "usable_cores", lambda: 8)
    assert run_state.scoring_threads(GroundedJudge()) == 2
    assert run_state.scoring_threads(LexicalJudge()) == 2
    assert run_state.scoring_threads(CountingGrounded()) == 1  # a subclass may keep state
    assert run_state.scoring_threads(CountingJudge()) == 1  # a prompt judge, like the LLM's


class RowsPerBatch:
    """A progress that records the rows of each committed batch."""

    def __init__(self) -> None:
        self.total = 0
        self.per_batch: list[int] = []

    def start(self, total: int, description: str) -> None:
        self.total = total

    def advance(self, rows: int, run: dict) -> None:
        self.per_batch.append(rows)

    def stop(self) -> None:
        return None


def test_batches_hold_batch_size_rows_however_the_files_are_cut(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    rows = many_cases(21)
    for part in range(3):
        write(rows.slice(7 * part, 7), folder / f"part-{part}.parquet")

    progress = RowsPerBatch()
    settings = ScoreSettings(source=str(folder), db=str(tmp_path / "f.duckdb"), batch_size=10)
    run = run_score(settings, progress=progress)
    assert (progress.total, progress.per_batch) == (21, [10, 10, 1])
    assert (run["batches"], run["rows_newly_scored"]) == (3, 21)


def test_quarantined_rows_count_toward_a_batch_so_bad_sources_commit_batch_by_batch(
    tmp_path: Path,
) -> None:
    # 25 bad rows then 6 good ones, 2 bad among them: every batch holds at most 10 rows read.
    bad = [case_row(f"b{i}", actual_output=None) for i in range(25)]
    mixed = [case_row(f"g{i}", actual_output=None if i % 4 == 0 else "ok") for i in range(8)]
    progress = RowsPerBatch()
    settings = ScoreSettings(
        source=str(write(cases(bad + mixed), tmp_path / "bad.parquet")),
        db=str(tmp_path / "f.duckdb"),
        batch_size=10,
        max_invalid_share=1.0,
        max_quarantine_share=None,
    )
    run = run_score(settings, progress=progress)
    assert progress.per_batch == [10, 10, 10, 3]
    assert (run["batches"], run["rows_in"], run["rows_quarantined"]) == (4, 33, 27)
    assert_counts_add_up(run)


def test_hive_partitions_and_globs_are_read_with_their_keys_as_segments(tmp_path: Path) -> None:
    frame = many_cases(12).drop("app_version")
    for day, part in frame.group_by(pl.col("logged_at").dt.date().alias("day")):
        write(part, tmp_path / "logs" / f"day={day[0]}" / "part.parquet")
    run = score(f"{tmp_path}/logs/**/*.parquet", tmp_path / "f.duckdb")
    assert run["rows_newly_scored"] == 12
    days = table(
        tmp_path / "f.duckdb",
        "SELECT DISTINCT segments ->> 'day' AS day FROM case_scores ORDER BY 1",
    )
    assert days["day"].to_list() == ["2026-10-01", "2026-10-02", "2026-10-03"]


@pytest.mark.parametrize("suffix", ["parquet", "csv", "jsonl"])
def test_a_column_a_file_has_wins_over_its_folders_key_in_every_format(
    tmp_path: Path, suffix: str
) -> None:
    """DuckDB read `channel=app/` by itself in CSV and JSON and replaced the file's own
    `channel` with it: every row's web or email stored as app."""
    frame = many_cases(4).with_columns(channel=pl.Series(["web", "email", "web", None]))
    folder = tmp_path / "logs" / "channel=app" / "region=eu"
    folder.mkdir(parents=True)
    if suffix == "parquet":
        write(frame, folder / "part.parquet")
    else:
        text = frame.with_columns(
            pl.col("retrieval_context").map_elements(
                lambda passages: json.dumps(passages.to_list()), return_dtype=pl.String
            )
        )
        if suffix == "csv":
            text.write_csv(folder / "part.csv")
        else:
            frame.write_ndjson(folder / "part.jsonl")
    run = score(tmp_path / "logs", tmp_path / "f.duckdb")
    assert run["rows_newly_scored"] == 4
    stored = table(
        tmp_path / "f.duckdb",
        "SELECT segments ->> 'channel' AS channel, segments ->> 'region' AS region "
        "FROM case_scores ORDER BY case_id",
    )
    assert stored["channel"].to_list() == ["web", "email", "web", None]
    assert stored["region"].to_list() == ["eu"] * 4


def test_a_different_metric_config_is_a_separate_series(tmp_path: Path) -> None:
    source = write(many_cases(10), tmp_path / "a.parquet")
    db = tmp_path / "f.duckdb"
    plain = score(source, db)
    strict = score(source, db, penalize_ambiguous_claims=True)
    assert plain["config_id"] != strict["config_id"]
    assert strict["rows_newly_scored"] == 10
    per_config = table(db, "SELECT config_id, count(*) AS n FROM case_scores GROUP BY ALL")
    assert sorted(per_config["n"]) == [10, 10]


def test_timestamps_with_time_zones_are_stored_in_utc(tmp_path: Path) -> None:
    schema = {**SCHEMA, "logged_at": pl.Datetime("ms", "Europe/Berlin")}
    row = case_row("c1", logged_at=dt.datetime(2026, 10, 1, 12, 0, tzinfo=dt.UTC))
    score(write(cases([row], schema), tmp_path / "a.parquet"), tmp_path / "f.duckdb")
    stored = table(tmp_path / "f.duckdb", "SELECT logged_at FROM case_scores")
    assert stored["logged_at"][0] == dt.datetime(2026, 10, 1, 12, 0)


def test_context_passages_keep_their_order(tmp_path: Path) -> None:
    row = case_row("c1", retrieval_context=list(reversed(CONTEXT)))
    score(write(cases([row]), tmp_path / "a.parquet"), tmp_path / "f.duckdb")
    truths = table(
        tmp_path / "f.duckdb",
        "SELECT t.truth FROM case_scores s, "
        "unnest(s.passage_ids) WITH ORDINALITY AS p(passage_id, n) "
        "JOIN truths t USING (passage_id) ORDER BY n",
    )
    assert truths["truth"].to_list() == list(reversed(CONTEXT))


def test_the_bundled_sample_scores_the_same_in_both_forms(tmp_path: Path) -> None:
    sample = Path(__file__).resolve().parents[3] / "data" / "sample"
    wide = score(sample / "cases.parquet", tmp_path / "wide.duckdb")
    three = score(sample / "three_tables", tmp_path / "three.duckdb")
    assert wide["rows_in"] == three["rows_in"] == 3003
    assert_counts_add_up(wide)
    query = f"SELECT {', '.join(SCORE_COLUMNS)} FROM case_scores ORDER BY case_id"
    assert table(tmp_path / "wide.duckdb", query).equals(table(tmp_path / "three.duckdb", query))
    seeds = table(
        tmp_path / "wide.duckdb",
        "SELECT case_id, score FROM case_scores WHERE case_id LIKE 'seed-%' ORDER BY case_id",
    )
    assert seeds.rows() == [
        ("seed-contradicting", 0.5),
        ("seed-grounded", 1.0),
        ("seed-invented", 1.0),
    ]


def test_a_source_whose_every_row_is_bad_scores_nothing_and_loses_nothing(tmp_path: Path) -> None:
    rows = [case_row(None), case_row("q", input=""), case_row("r", retrieval_context=None)]
    run = score(write(cases(rows), tmp_path / "bad.parquet"), tmp_path / "f.duckdb")
    assert (run["status"], run["rows_in"], run["rows_quarantined"]) == ("completed", 3, 3)
    assert_counts_add_up(run)
    empty = score(write(cases([]), tmp_path / "empty.parquet"), tmp_path / "f.duckdb")
    assert (empty["status"], empty["rows_in"]) == ("completed", 0)


def test_three_tables_quarantine_orphans_and_treat_no_context_as_empty(tmp_path: Path) -> None:
    folder = tmp_path / "three"
    questions = many_cases(2).select("case_id", "input", "logged_at")
    write(questions, folder / "questions.parquet")
    write(
        pl.DataFrame({"case_id": ["c00000", "zz"], "position": [0, 0], "text": CONTEXT[:1] * 2}),
        folder / "contexts.parquet",
    )
    outputs = pl.DataFrame(
        {"case_id": ["c00000", "c00001", "orphan"], "actual_output": ["Order A17 shipped."] * 3}
    )
    write(outputs, folder / "outputs.parquet")
    run = score(folder, tmp_path / "f.duckdb")
    assert_counts_add_up(run)
    assert (run["rows_in"], run["rows_scored"], run["rows_invalid"]) == (4, 1, 1)
    # the progress total counts the orphans too: "4 rows to read", not "2" then "4/2"
    assert count_rows(resolve_source(folder)) == 4
    stored = table(tmp_path / "f.duckdb", 'SELECT case_id, "check" FROM quarantine ORDER BY 1')
    assert stored.rows() == [("orphan", "orphan_output"), ("zz", "orphan_context")]
    invalid = table(
        tmp_path / "f.duckdb", "SELECT case_id FROM case_scores WHERE status = 'invalid'"
    )
    assert invalid["case_id"].to_list() == ["c00001"]
    again = score(folder, tmp_path / "f.duckdb")
    assert table(tmp_path / "f.duckdb", "SELECT count(*) AS n FROM quarantine")["n"][0] == 2
    assert_counts_add_up(again)


def test_a_run_failing_mid_way_is_marked_failed_keeps_its_batches_and_resumes(
    tmp_path: Path,
) -> None:
    from flows.run.pipeline import Steps
    from flows.store.batch_writes import write_batch

    writes: list[int] = []

    def write_then_fail(con: duckdb.DuckDBPyConnection, scored, **options) -> float:
        writes.append(1)
        if len(writes) == 2:
            raise OSError("disk full")
        return write_batch(con, scored, **options)

    source = write(many_cases(30), tmp_path / "a.parquet")
    db = tmp_path / "f.duckdb"
    settings = ScoreSettings(source=str(source), db=str(db), batch_size=10)
    with pytest.raises(OSError, match="disk full"):
        run_score(settings, steps=Steps(write=write_then_fail))
    failed = table(db, "SELECT status, error, rows_in, batches FROM runs")
    assert failed.rows() == [("failed", "OSError: disk full", 10, 1)]
    assert table(db, "SELECT count(*) AS n FROM case_scores")["n"][0] == 10
    resumed = run_score(settings)
    assert (resumed["rows_already_scored"], resumed["rows_newly_scored"]) == (10, 20)
    assert table(db, "SELECT count(DISTINCT case_id) AS n FROM case_scores")["n"][0] == 30


def test_a_batch_failing_to_score_stops_the_scoring_and_keeps_the_batches_before(
    tmp_path: Path,
) -> None:
    scored: list[int] = []  # the batches that reached the judge, by number

    def score_then_fail(cases, *args, **options):
        batch = int(cases["case_id"].min()[1:]) // 10 + 1
        scored.append(batch)
        if batch == 2:
            raise RuntimeError("judge broke")
        return score_batch(cases, *args, **options)

    source = write(many_cases(50), tmp_path / "a.parquet")
    db = tmp_path / "f.duckdb"
    settings = ScoreSettings(source=str(source), db=str(db), batch_size=10)
    with pytest.raises(RuntimeError, match="judge broke"):
        run_score(settings, steps=Steps(score=score_then_fail))
    # Batches 3 to 5 were read and queued, but none was scored once batch 2 had failed
    # (batch 3 may have begun beside it: an offline judge scores on two threads).
    assert 2 in scored
    assert not {4, 5} & set(scored)
    failed = table(db, "SELECT status, error, rows_in, batches FROM runs")
    assert failed.rows() == [("failed", "RuntimeError: judge broke", 10, 1)]
    assert table(db, "SELECT count(*) AS n FROM case_scores")["n"][0] == 10


class ClosableJudge(CountingJudge):
    """Refuses to answer once closed, like the LLM judge."""

    closed = False

    def close(self) -> None:
        self.closed = True

    def map_items(self, answer, items):
        assert not self.closed, "asked after close"
        return super().map_items(answer, items)


def test_a_judge_passed_in_stays_open_for_the_caller(tmp_path: Path) -> None:
    judge = ClosableJudge()
    first = write(many_cases(4), tmp_path / "a.parquet")
    second = write(cases([case_row("new")]), tmp_path / "b.parquet")
    db = tmp_path / "f.duckdb"
    run_score(ScoreSettings(source=str(first), db=str(db)), judge=judge)
    run = run_score(ScoreSettings(source=str(second), db=str(db)), judge=judge)
    assert run["rows_newly_scored"] == 1
    assert judge.closed is False
