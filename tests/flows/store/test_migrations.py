"""Databases made by an older faithpipe are brought up to date when a run opens them."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

import flows.store.db
from flows.errors import DatabaseError
from flows.store.db import connect, migrate, migrations, open_store

_OLD_CASE = """
INSERT INTO case_scores (config_id, case_id, run_id, content_hash, logged_at, n_yes, n_no, n_idk,
                         score, threshold, success, status, segments, scored_at)
VALUES ('cfg', $case_id, 'run-1', 'h', TIMESTAMP '2026-03-02 10:00', 1, 0, 0, 1.0, 0.5, true,
        'scored', MAP($keys::VARCHAR[], $values::VARCHAR[]), now())
"""


LATEST = migrations()[-1][0]


def old_database(
    db: Path, monkeypatch: pytest.MonkeyPatch, version: int
) -> duckdb.DuckDBPyConnection:
    """A database as faithpipe made it at `version` (3: segments as a MAP; 4: no evidence)."""
    with monkeypatch.context() as old:
        old.setattr(
            flows.store.db, "migrations", lambda: [m for m in migrations() if m[0] <= version]
        )
        return open_store(db)


def version_3_database(db: Path, monkeypatch: pytest.MonkeyPatch) -> duckdb.DuckDBPyConnection:
    """A database as faithpipe made it before migration 004 (segments as a MAP)."""
    return old_database(db, monkeypatch, 3)


def test_segments_stored_as_a_map_become_json_and_stay_readable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "old.duckdb"
    con = version_3_database(db, monkeypatch)
    con.execute(_OLD_CASE, {"case_id": "a", "keys": ["app_version"], "values": ["2.4.0"]})
    two = {"case_id": "b", "keys": ["app_version", "model"], "values": ["2.5.0", None]}
    con.execute(_OLD_CASE, two)
    assert con.execute("SELECT typeof(segments) FROM case_scores LIMIT 1").fetchone() == (
        "MAP(VARCHAR, VARCHAR)",
    )
    con.close()

    con = open_store(db)
    try:
        assert con.execute("SELECT max(version) FROM schema_migrations").fetchone() == (LATEST,)
        rows = con.execute(
            "SELECT case_id, typeof(segments), segments ->> 'app_version', segments ->> 'model' "
            "FROM case_scores ORDER BY case_id"
        ).fetchall()
        assert rows == [("a", "JSON", "2.4.0", None), ("b", "JSON", "2.5.0", None)]
        by_version = con.execute(
            "SELECT segment_value, cases FROM pass_rates_by_segment('app_version', grain := NULL)"
        ).fetchall()
        assert by_version == [("2.4.0", 1), ("2.5.0", 1)]
        columns = con.execute("SELECT segment, cases FROM segment_columns").fetchall()
        assert columns == [("app_version", 2), ("model", 1)]
    finally:
        con.close()


KILLED_AFTER_MIGRATING = """
import os, sys
from flows.store.db import open_store
con = open_store(sys.argv[1])  # kept open: dropping it would close and checkpoint
os._exit(0)  # no close, no checkpoint: the migrations are only in the WAL
"""


def test_a_process_killed_right_after_migrating_leaves_a_database_that_opens_offline(
    tmp_path: Path,
) -> None:
    db = tmp_path / "f.duckdb"
    subprocess.run([sys.executable, "-c", KILLED_AFTER_MIGRATING, str(db)], check=True)
    assert db.with_name("f.duckdb.wal").exists()
    con = open_store(db)  # replays the WAL; no extension may need downloading
    try:
        assert con.execute("SELECT typeof(segments) FROM case_scores LIMIT 0").fetchall() == []
        assert con.execute("SELECT support, evidence FROM claim_verdicts LIMIT 0").fetchall() == []
        assert con.execute("SELECT max(version) FROM schema_migrations").fetchone() == (LATEST,)
    finally:
        con.close()


@pytest.mark.parametrize("made_by", ["script", "migrations"])
def test_a_new_database_whose_migrations_fail_is_left_empty_and_opens_later(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, made_by: str
) -> None:
    """A new database takes every migration in one transaction, from the tables' script
    (sql/new_database.sql) or, when that is stale, walking each: its last statement failing
    leaves none applied, not a half-made schema, and the next open makes it whole."""
    db = tmp_path / "f.duckdb"
    last = migrations()[-1][1]
    text_of = flows.store.db.sql

    def broken(name: str) -> str:
        if name == last:
            return "SELECT no_such_column"
        if name == "new_database":
            script = text_of(name) + "SELECT no_such_column;\n"
            stale = script.replace(f" {LATEST}:", ":", 1)  # made without the newest migration
            return script if made_by == "script" else stale
        return text_of(name)

    with monkeypatch.context() as patched:
        patched.setattr(flows.store.db, "sql", broken)
        with pytest.raises(duckdb.BinderException):
            open_store(db)
    con = connect(db)
    try:
        assert con.execute("SELECT count(*) FROM schema_migrations").fetchone() == (0,)
        tables = "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'case_scores'"
        assert con.execute(tables).fetchone() == (0,)
    finally:
        con.close()
    con = open_store(db)
    try:
        assert con.execute("SELECT max(version) FROM schema_migrations").fetchone() == (LATEST,)
    finally:
        con.close()


# Each row's MAP is one of the 21 made once and joined in (i % 7, i % 3): building a MAP per
# row was ~60% of the test's time; the rows are the same (their order in the file may differ).
_MANY_OLD_CASES = """
INSERT INTO case_scores (config_id, case_id, run_id, content_hash, logged_at, n_yes, n_no, n_idk,
                         score, threshold, success, status, segments, scored_at)
SELECT 'cfg', 'c' || i, 'run-1', md5(i::VARCHAR), TIMESTAMP '2026-03-02 10:00', 1, 0, 0, 1.0,
       0.5, true, 'scored', m.segments, now()
FROM range($n) AS r(i)
JOIN (
    SELECT v, w, MAP(['app_version', 'model'], ['2.' || v, 'm' || w]) AS segments
    FROM range(7) AS a(v), range(3) AS b(w)
) AS m ON m.v = i % 7 AND m.w = i % 3
"""


@pytest.mark.slow
def test_a_big_table_is_migrated_in_bounded_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "old.duckdb"
    con = version_3_database(db, monkeypatch)
    con.execute(_MANY_OLD_CASES, {"n": 1_000_000})
    con.close()
    con = connect(db)
    try:
        # Far below what holding every converted row in memory would take (~70 MB here).
        con.execute("SET memory_limit = '40MB'")
        assert migrate(con)[0] == "004_segments_json"
        rows = con.execute(
            "SELECT count(*), count(DISTINCT segments ->> 'app_version') FROM case_scores"
        ).fetchall()
        assert rows == [(1_000_000, 7)]
    finally:
        con.close()


def test_a_segment_named_like_a_json_path_is_read_as_a_plain_key(tmp_path: Path) -> None:
    con = open_store(tmp_path / "f.duckdb")
    try:
        for case_id, key in [("a", "$odd"), ("b", "/slash"), ("c", 'with "quotes"')]:
            con.execute(
                _OLD_CASE.replace(
                    "MAP($keys::VARCHAR[], $values::VARCHAR[])",
                    "to_json(MAP($keys::VARCHAR[], $values::VARCHAR[]))",
                ),
                {"case_id": case_id, "keys": [key], "values": [f"v-{case_id}"]},
            )
        for key, value in [("$odd", "v-a"), ("/slash", "v-b"), ('with "quotes"', "v-c")]:
            got = con.execute(
                "SELECT segment_value FROM pass_rates_by_segment($s, grain := NULL) "
                "WHERE segment_value IS NOT NULL",
                {"s": key},
            ).fetchall()
            assert got == [(value,)]
    finally:
        con.close()


def test_claims_stored_before_evidence_existed_keep_their_rows_with_null_evidence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "old.duckdb"
    con = old_database(db, monkeypatch, 4)
    con.execute(
        "INSERT INTO claim_verdicts VALUES ('cfg', 'a', 0, 'Order A17 shipped.', 'yes', NULL)"
    )
    con.close()
    con = open_store(db)
    try:
        assert con.execute("SELECT max(version) FROM schema_migrations").fetchone() == (LATEST,)
        rows = con.execute("SELECT claim, verdict, support, evidence FROM claim_verdicts")
        assert rows.fetchall() == [("Order A17 shipped.", "yes", None, None)]
        types = con.execute(
            "SELECT column_name, data_type FROM duckdb_columns() "
            "WHERE table_name = 'claim_verdicts' AND column_name IN ('support', 'evidence') "
            "ORDER BY column_name"
        ).fetchall()
        assert types == [("evidence", "VARCHAR"), ("support", "DOUBLE")]
    finally:
        con.close()


def test_an_index_you_added_is_kept_and_does_not_stop_the_upgrade(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Migrations 024 and 025 add NOT NULL columns to judge_checks and runs, which DuckDB
    refuses on a table an index depends on: the user's indexes on them are made again."""
    db = tmp_path / "old.duckdb"
    con = old_database(db, monkeypatch, 23)
    con.execute("CREATE INDEX runs_by_start ON runs (started_at)")
    con.execute("CREATE INDEX checks_by_config ON judge_checks (config_id, checked_at)")
    con.close()

    con = open_store(db)
    try:
        assert con.execute("SELECT max(version) FROM schema_migrations").fetchone() == (LATEST,)
        indexes = con.execute(
            "SELECT index_name, table_name, sql FROM duckdb_indexes() ORDER BY index_name"
        ).fetchall()
        assert indexes == [
            (
                "checks_by_config",
                "judge_checks",
                "CREATE INDEX checks_by_config ON judge_checks(config_id, checked_at);",
            ),
            ("runs_by_start", "runs", "CREATE INDEX runs_by_start ON runs(started_at);"),
        ]
        assert con.execute("SELECT rows_invalid_again FROM runs LIMIT 0").fetchall() == []
    finally:
        con.close()


KILLED_ONCE_025_IS_COMMITTED = """
import os, signal, sys
from contextlib import contextmanager
import flows.store.db as db
plain = db.transaction
@contextmanager
def transaction(con):
    with plain(con):
        yield con
    if con.execute("SELECT max(version) FROM schema_migrations").fetchone() == (25,):
        os.kill(os.getpid(), signal.SIGKILL)  # the upgrade killed the moment 025 is committed
db.transaction = transaction
db.open_store(sys.argv[1])
"""


def test_your_indexes_outlive_an_upgrade_killed_as_its_migration_commits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Migration 025 drops the user's indexes to get past DuckDB's refusal; they were made
    again only after its commit, so an upgrade killed then (a scheduler's timeout, an OOM
    kill, Ctrl-C while a large table's index was rebuilt) lost them all, for good and
    without a word: the next open found 025 applied and nothing to make again."""
    db = tmp_path / "old.duckdb"
    con = old_database(db, monkeypatch, 24)
    con.execute("CREATE INDEX runs_by_start ON runs (started_at)")
    con.execute("CREATE INDEX cases_by_day ON case_scores (logged_at)")
    con.close()

    argv = [sys.executable, "-c", KILLED_ONCE_025_IS_COMMITTED, str(db)]
    killed = subprocess.run(argv, check=False, timeout=120)
    assert killed.returncode == -9

    con = open_store(db)
    try:
        assert con.execute("SELECT max(version) FROM schema_migrations").fetchone() == (LATEST,)
        assert con.execute(
            "SELECT index_name, table_name FROM duckdb_indexes() ORDER BY index_name"
        ).fetchall() == [("cases_by_day", "case_scores"), ("runs_by_start", "runs")]
    finally:
        con.close()


def test_a_foreign_key_you_added_stops_the_upgrade_with_one_line_and_keeps_your_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "old.duckdb"
    con = old_database(db, monkeypatch, 24)
    con.execute("CREATE TABLE run_notes (run_id VARCHAR REFERENCES runs (run_id), note VARCHAR)")
    con.close()

    with pytest.raises(DatabaseError) as refused:
        open_store(db)
    message = str(refused.value)
    assert "\n" not in message
    assert "migration 025_invalid_again cannot change table runs" in message
    assert "run_notes: FOREIGN KEY (run_id) REFERENCES runs(run_id)" in message
    con = connect(db, read_only=True)
    try:
        assert con.execute("SELECT max(version) FROM schema_migrations").fetchone() == (24,)
        assert con.execute("SELECT count(*) FROM run_notes").fetchone() == (0,)
    finally:
        con.close()


def test_an_index_on_a_table_a_migration_makes_anew_is_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Migration 004 copies case_scores into a new table and drops the old one, which DuckDB
    does with the indexes on it, without a word."""
    db = tmp_path / "old.duckdb"
    con = version_3_database(db, monkeypatch)
    con.execute(_OLD_CASE, {"case_id": "a", "keys": ["app_version"], "values": ["2.4.0"]})
    con.execute("CREATE INDEX cases_by_id ON case_scores (config_id, case_id)")
    con.close()

    con = open_store(db)
    try:
        assert con.execute("SELECT index_name, table_name FROM duckdb_indexes()").fetchall() == [
            ("cases_by_id", "case_scores")
        ]
        assert con.execute("SELECT typeof(segments) FROM case_scores").fetchall() == [("JSON",)]
    finally:
        con.close()


def test_an_index_the_new_table_cannot_take_is_named_and_stops_no_upgrade(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """An index on `segments['app_version']` (a MAP before migration 004, JSON after) cannot
    be made again on the new table: its statement raised a BinderException inside the
    migration's transaction, so the upgrade failed (exit 1) on every run, for ever, where it
    had only dropped the index. The upgrade goes on; the index is named, to make anew."""
    db = tmp_path / "old.duckdb"
    con = version_3_database(db, monkeypatch)
    con.execute(_OLD_CASE, {"case_id": "a", "keys": ["app_version"], "values": ["2.4.0"]})
    con.execute("CREATE INDEX by_version ON case_scores ((segments['app_version']))")
    con.execute("CREATE INDEX cases_by_id ON case_scores (config_id, case_id)")
    con.close()

    with caplog.at_level(logging.WARNING, logger="faithpipe"):
        con = open_store(db)
    try:
        assert con.execute("SELECT index_name FROM duckdb_indexes()").fetchall() == [
            ("cases_by_id",)
        ]
        assert con.execute("SELECT typeof(segments) FROM case_scores").fetchall() == [("JSON",)]
    finally:
        con.close()
    assert "your index by_version on case_scores could not be made again" in caplog.text
