"""`faith cache check` finds, and `--drop` removes, answers filed under the wrong item in a
cache poisoned before faithpipe checked what it stores (issue 27); the next run redoes them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

import flows.store.cache_check
import flows.store.db
from faith_udfs import LexicalJudge, MetricConfig, score_cases
from flows.cli import main
from flows.judges.settings import JudgeSettings
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from flows.store.cache_check import check_cache
from flows.store.db import migrations, open_store, sql
from tests.flows.store.test_store_readers import writer_holding
from tests.support.builders import COMPARED, case_row, cases, write
from tests.support.misfiled import N_CASES, assert_nothing_misfiled, case_rows
from tests.support.sloppy_stub import SloppyServer


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[SloppyServer]:
    monkeypatch.setenv("OPENAI_API_KEY", "local")
    with SloppyServer() as stub:
        yield stub
    assert stub.errors == []


def score(server: SloppyServer, source: Path, db: Path, mode: str) -> dict:
    judge = JudgeSettings(kind="openai", model="m", base_url=server.base_url, mode=mode)
    return run_score(ScoreSettings(source=str(source), db=str(db), judge=judge))


def poison(db: Path, legacy: bool) -> int:
    """Do what faithpipe did before issue 27: each claims answer filed under the next case
    (in the cache, and in the stored claims); `legacy`: the rows forget their item, as rows
    cached before migration 018 have none. Returns how many cases were poisoned."""
    con = duckdb.connect(str(db))
    try:
        keys = con.execute(
            "SELECT cache_key FROM judge_cache WHERE schema_name LIKE '%Claims' ORDER BY item"
        ).fetchall()
        replies = con.execute(
            "SELECT reply FROM judge_cache WHERE schema_name LIKE '%Claims' ORDER BY item"
        ).fetchall()
        shifted = replies[1:] + replies[:1]
        for (key,), (reply,) in zip(keys, shifted, strict=True):
            con.execute("UPDATE judge_cache SET reply = ? WHERE cache_key = ?", [reply, key])
        if legacy:
            con.execute("UPDATE judge_cache SET item = NULL")
        # Each case's first stored claim is the next case's.
        rows = con.execute(
            "SELECT config_id, case_id, claim FROM claim_verdicts WHERE claim_index = 0 "
            "ORDER BY case_id"
        ).fetchall()
        for (config_id, case_id, _), (_, _, claim) in zip(rows, rows[1:] + rows[:1], strict=True):
            con.execute(
                "UPDATE claim_verdicts SET claim = ? WHERE config_id = ? AND case_id = ? "
                "AND claim_index = 0",
                [claim, config_id, case_id],
            )
        n = len(rows)
    finally:
        con.close()
    return n


@pytest.mark.parametrize("legacy", [False, True], ids=["with-item", "before-018"])
def test_cache_check_finds_and_drops_answers_filed_under_the_wrong_item(
    server: SloppyServer, tmp_path: Path, capsys: pytest.CaptureFixture[str], legacy: bool
) -> None:
    frame = case_rows()
    source = write(frame, tmp_path / "cases.parquet")
    db = tmp_path / "f.duckdb"
    assert score(server, source, db, "packed")["rows_newly_scored"] == N_CASES
    poisoned = poison(db, legacy)
    assert poisoned == N_CASES
    with pytest.raises(AssertionError):
        assert_nothing_misfiled(db, frame)
    assert main(["cache", "check", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert f", {N_CASES} not their item's (found)" in out
    assert f"{N_CASES} hold claims not from their answer (found)" in out
    assert "faith cache check --drop" in out
    assert main(["cache", "check", "--db", str(db), "--drop"]) == 0
    assert f"{N_CASES} not their item's (dropped)" in capsys.readouterr().out
    assert main(["cache", "check", "--db", str(db)]) == 0
    assert ", 0 not their item's" in capsys.readouterr().out
    # The next run asks the dropped answers again and scores the dropped cases again.
    server.reset_counts()
    again = score(server, source, db, "packed")
    assert again["rows_newly_scored"] == N_CASES
    assert server.by_schema["faithfulness.PackedClaims"] > 0
    con = duckdb.connect(str(db), read_only=True)
    try:
        stored = con.sql("SELECT * FROM case_scores").pl().select(COMPARED).sort("case_id")
    finally:
        con.close()
    lexical = score_cases(frame, LexicalJudge(), MetricConfig()).case_scores
    assert stored.equals(lexical.select(COMPARED).sort("case_id"))
    if not legacy:
        assert_nothing_misfiled(db, frame)


def test_a_database_that_is_not_there_is_refused_not_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A typo in --db made a new database (and its folders) and reported '0 answers checked'."""
    typo = tmp_path / "sub" / "typo.duckdb"
    assert main(["cache", "check", "--db", str(typo)]) == 5
    assert "no such database" in capsys.readouterr().err
    assert not (tmp_path / "sub").exists()


def test_a_check_alone_reads_a_database_a_run_holds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without --drop nothing is written: the check reads as `faith report` does, and a
    database held by a run is read from its snapshot (it needed the write lock: exit 4)."""
    source = write(case_rows(), tmp_path / "cases.parquet")
    db = tmp_path / "f.duckdb"
    run_score(ScoreSettings(source=str(source), db=str(db), snapshot=True))
    with writer_holding(db):  # another process, as a run
        assert main(["cache", "check", "--db", str(db)]) == 0
        assert f"{N_CASES} cases' stored claims checked" in capsys.readouterr().out
        assert main(["cache", "check", "--db", str(db), "--drop"]) == 4


def as_made_before_018(db: Path, old: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`old`: a database as faithpipe made it at migration 7 (no judge_cache.item), holding
    `db`'s cache, scores and claims: what an older faithpipe left and nothing upgraded."""
    with monkeypatch.context() as patched:
        patched.setattr(
            flows.store.db, "migrations", lambda: [m for m in migrations() if m[0] <= 7]
        )
        open_store(old).close()
    con = duckdb.connect(str(old))
    try:
        con.execute("ATTACH ? AS new (READ_ONLY)", [str(db)])
        for table in ("judge_cache", "case_scores", "claim_verdicts"):
            columns = ", ".join(
                f'"{name}"'
                for (name,) in con.execute(
                    "SELECT column_name FROM duckdb_columns() WHERE database_name = 'old' "
                    "AND table_name = ? ORDER BY column_index",
                    [table],
                ).fetchall()
            )
            con.execute(f"INSERT INTO main.{table} SELECT {columns} FROM new.{table}")
    finally:
        con.close()


def test_a_cache_an_older_faithpipe_left_is_checked_before_any_upgrade(
    server: SloppyServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The command's own case: a database made before migration 018, read as it is (no
    --drop). Its judge_cache has no item column, and the check was a Binder Error, exit 1."""
    source = write(case_rows(), tmp_path / "cases.parquet")
    db = tmp_path / "f.duckdb"
    score(server, source, db, "packed")
    poison(db, legacy=True)
    old = tmp_path / "old.duckdb"
    as_made_before_018(db, old, monkeypatch)

    assert main(["cache", "check", "--db", str(old)]) == 0
    out = capsys.readouterr().out
    assert f", {N_CASES} not their item's (found)" in out
    assert f"{N_CASES} hold claims not from their answer (found)" in out
    assert main(["cache", "check", "--db", str(old), "--drop"]) == 0  # upgrades, then drops
    assert f"{N_CASES} not their item's (dropped)" in capsys.readouterr().out


def test_the_report_shows_a_logged_case_id_s_control_characters_not_obeys_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A case id is logged text: one holding an escape sequence and a line break was printed
    as it was, recolouring the terminal and starting a forged `error:` line of its own."""
    case_id = "c1\x1b[2J\nerror: forged"
    source = write(
        cases([case_row(case_id), case_row("c2", "Branch 9 opens at noon.")]),
        tmp_path / "cases.parquet",
    )
    db = tmp_path / "f.duckdb"
    run_score(ScoreSettings(source=str(source), db=str(db), judge=JudgeSettings(kind="lexical")))
    con = duckdb.connect(str(db))
    try:  # c1's stored claim is c2's, as a poisoned cache left it
        con.execute(
            "UPDATE claim_verdicts SET claim = 'Branch 9 opens at noon.' WHERE case_id = ?",
            [case_id],
        )
    finally:
        con.close()
    capsys.readouterr()
    assert main(["cache", "check", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "1 hold claims not from their answer (found)" in out
    assert "\x1b" not in out
    assert "  case c1\\x1b[2J\\nerror: forged (faith-" in out
    assert not any(line.startswith("error:") for line in out.splitlines())


def many_scored_cases(db: Path, n: int) -> None:
    """`n` scored cases of config `lex`, two true claims each, written straight to `db`."""
    con = open_store(db)
    try:
        con.execute(
            "INSERT INTO case_scores (config_id, case_id, run_id, content_hash, input, "
            "actual_output, n_truths, n_claims, n_yes, n_no, n_idk, n_dropped, score, "
            "threshold, penalize_ambiguous_claims, strict_mode, success, no_claims, status, "
            "scored_at) SELECT 'lex', 'case-' || i, 'r', md5(i::VARCHAR), 'Where is it?', "
            "'Order A' || i || ' shipped on 3 March by courier from the York depot. Refunds "
            "are paid within 5 working days.', 2, 2, 2, 0, 0, 0, 1.0, 0.5, false, false, "
            "true, false, 'scored', now() FROM range($n) AS t(i)",
            {"n": n},
        )
        con.execute(
            "INSERT INTO claim_verdicts (config_id, case_id, claim_index, claim, verdict) "
            "SELECT 'lex', 'case-' || i, k, CASE k WHEN 0 THEN 'Order A' || i || "
            "' shipped on 3 March by courier from the York depot.' "
            "ELSE 'Refunds are paid within 5 working days.' END, 'yes' "
            "FROM range($n) AS t(i), range(2) AS c(k)",
            {"n": n},
        )
    finally:
        con.close()


def test_drop_reads_a_database_larger_than_the_writers_memory_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--drop` read every case's claims under the writer's memory limit (384 MB): on a
    database of 1M scored cases it ended exit 7, out of memory, where the check alone (a
    reader's limit) read them. Here 50,000 cases against a limit lowered to 16 MB."""
    db = tmp_path / "f.duckdb"
    many_scored_cases(db, 50_000)
    monkeypatch.setattr(flows.store.db, "_STORE_MEMORY_MB", 16)
    capsys.readouterr()
    assert main(["cache", "check", "--db", str(db), "--drop"]) == 0, capsys.readouterr().err
    assert "50000 cases' stored claims checked, 0 hold" in capsys.readouterr().out


def rows_through_each_step(con: duckdb.DuckDBPyConnection, query: str, profile: Path) -> list[int]:
    """How many rows each operator of `query`'s plan produced (DuckDB's profile of it)."""
    con.execute("PRAGMA enable_profiling = 'json'")
    con.execute(f"PRAGMA profiling_output = '{profile}'")
    try:
        con.execute(query).fetchall()
    finally:
        con.execute("PRAGMA disable_profiling")

    def counts(node: dict) -> list[int]:
        below = [n for child in node.get("children", []) for n in counts(child)]
        return [node.get("intermediate_rows", 0), *below]

    return [n for root in json.loads(profile.read_text())["operator"] for n in counts(root)]


def test_answers_cached_before_018_are_paired_with_each_answer_once_not_each_row(
    tmp_path: Path,
) -> None:
    """The legacy claims answers were matched by pairing every cached row without an item
    with every stored case, then removing duplicates: a product (10,000 of each, 100 million
    rows; a million cases, hours) where one pairing per model and answer is needed."""
    db = tmp_path / "f.duckdb"
    con = open_store(db)
    try:
        con.execute(
            "INSERT INTO case_scores (config_id, case_id, run_id, content_hash, actual_output, "
            "n_truths, n_claims, n_yes, n_no, n_idk, n_dropped, threshold, "
            "penalize_ambiguous_claims, strict_mode, no_claims, status, scored_at) "
            "SELECT 'llm', 'case-' || i, 'r', md5(i::VARCHAR), 'Order A' || i || ' shipped.', "
            "1, 1, 1, 0, 0, 0, 0.5, false, false, false, 'scored', now() FROM range(300) AS t(i)"
        )
        con.execute(
            "INSERT INTO judge_cache (cache_key, kind, model, prompt_version, schema_name, "
            "reply, prompt_tokens, completion_tokens, created_at, item) "
            "SELECT md5('k' || i), 'openai', 'm', 'faithfulness-v1', 'faithfulness.Claims', "
            "'{\"claims\": []}', 1, 1, now(), NULL FROM range(300) AS t(i)"
        )
        legacy = sql("cache_check_legacy")
        assert len(con.execute(legacy).fetchall()) == 300  # one model: each answer once
        assert max(rows_through_each_step(con, legacy, tmp_path / "profile.json")) <= 2 * 300
    finally:
        con.close()


def test_the_check_reads_the_claims_of_many_cases_in_parts_of_bounded_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every case's claims were gathered in one read: a million cases took 300-800 MB of
    DuckDB's memory, so a large database ran out of a small machine's (exit 7). Here 50,000
    cases under a reader limited to 24 MB, read in parts of 2,000 cases."""
    db = tmp_path / "f.duckdb"
    many_scored_cases(db, 50_000)
    monkeypatch.setattr(flows.store.cache_check, "_CASES_PER_PART", 2_000)
    con = duckdb.connect(str(db), read_only=True)
    try:
        con.execute("SET memory_limit = '24MB'")
        report = check_cache(con)
    finally:
        con.close()
    assert (report.cases_checked, report.cases_wrong) == (50_000, {})
