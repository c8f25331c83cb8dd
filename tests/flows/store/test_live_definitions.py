"""Each analysis macro and view has one live definition, sql/analysis.sql, which the store
(re)creates on open (issue 21: pass_rates_by_segment was written out in four migrations)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import duckdb
import pytest

from flows.store.db import connect_for_reading, define_analysis, migrations, open_store, sql

CREATED = re.compile(r"^CREATE OR REPLACE (MACRO|VIEW) (\w+)", re.MULTILINE)
OURS = """
SELECT function_name FROM duckdb_functions()
WHERE function_type IN ('macro', 'table_macro') AND NOT internal
UNION SELECT view_name FROM duckdb_views() WHERE NOT internal
"""


def definition(con: object, name: str) -> str:
    found = con.execute(  # type: ignore[attr-defined]
        "SELECT macro_definition FROM duckdb_functions() WHERE function_name = $name",
        {"name": name},
    ).fetchall()
    return found[0][0]


def test_every_macro_and_view_of_the_database_is_defined_once_in_analysis_sql(
    tmp_path: Path,
) -> None:
    names = [name for _, name in CREATED.findall(sql("analysis"))]
    assert len(names) == len(set(names)), "a definition is written twice"
    with open_store(tmp_path / "f.duckdb") as con:
        in_database = {row[0] for row in con.execute(OURS).fetchall()}
    assert in_database == set(names)


def test_a_stale_definition_is_replaced_when_the_store_opens(tmp_path: Path) -> None:
    db = tmp_path / "f.duckdb"
    with open_store(db) as con:
        live = definition(con, "pass_rates_by_segment")
        # As a database looks whose macros were made from another text of analysis.sql.
        con.execute("CREATE OR REPLACE MACRO pass_rates_by_segment(segment) AS TABLE SELECT 1")
        con.execute("DELETE FROM analysis_definitions")
    with open_store(db) as con:
        assert definition(con, "pass_rates_by_segment") == live
        assert "invalid_share" in live  # the definition of migration 009, not 002's
        assert define_analysis(con) is False  # current: a later open recreates nothing
        assert con.execute("SELECT count(*) FROM analysis_definitions").fetchall() == [(1,)]


DEFINITIONS = """
SELECT function_name, string_agg(macro_definition, ';' ORDER BY macro_definition)
FROM duckdb_functions() WHERE function_type IN ('macro', 'table_macro') AND NOT internal
GROUP BY function_name
UNION ALL SELECT view_name, sql FROM duckdb_views() WHERE NOT internal
"""

KINDS = """
SELECT DISTINCT function_name,
       CASE function_type WHEN 'table_macro' THEN 'MACRO TABLE' ELSE 'MACRO' END
FROM duckdb_functions() WHERE function_type IN ('macro', 'table_macro') AND NOT internal
UNION ALL SELECT view_name, 'VIEW' FROM duckdb_views() WHERE NOT internal
"""


def test_a_migrated_database_holds_exactly_what_analysis_sql_makes(tmp_path: Path) -> None:
    # Migrations 016 and 017 restate conversation_scores and the compare macros (they may not
    # be edited); what they made is replaced, and no overload of theirs is left beside it.
    with open_store(tmp_path / "f.duckdb") as con:
        migrated = dict(con.execute(DEFINITIONS).fetchall())
        kinds = dict(con.execute(KINDS).fetchall())
        for _, name in CREATED.findall(sql("analysis")):
            con.execute(f"DROP {kinds[name]} {name}")
        assert con.execute(DEFINITIONS).fetchall() == []
        con.execute(sql("analysis"))
        assert dict(con.execute(DEFINITIONS).fetchall()) == migrated
    assert {"conversation_scores", "compare_cases", "compare_scores"} <= set(migrated)


def stale(db: Path) -> None:
    """`db` as a database looks that an older faithpipe wrote last: another wilson_low."""
    con = duckdb.connect(str(db))
    try:
        con.execute("CREATE OR REPLACE MACRO wilson_low(passed, n, z := 1.96) AS -1.0")
        con.execute("DELETE FROM analysis_definitions")
    finally:
        con.close()


def test_a_reader_of_older_definitions_reads_with_this_faithpipes_and_writes_nothing(
    tmp_path: Path,
) -> None:
    db = tmp_path / "f.duckdb"
    open_store(db).close()
    stale(db)
    with connect_for_reading(db) as reader:
        assert reader.execute("SELECT round(wilson_low(5, 10), 4)").fetchall() == [(0.2366,)]
    with duckdb.connect(str(db), read_only=True) as stored:  # the file is as it was
        assert stored.execute("SELECT wilson_low(5, 10)").fetchall() == [(-1.0,)]


def test_definitions_that_cannot_be_made_leave_the_stored_ones_and_say_so(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "f.duckdb"
    open_store(db).close()
    stale(db)
    with duckdb.connect(str(db)) as con:  # a table this faithpipe's judge_agreement reads
        con.execute("DROP TABLE judge_checks")
    with connect_for_reading(db) as reader:
        assert reader.execute("SELECT wilson_low(5, 10)").fetchall() == [(-1.0,)]
    assert "is read with that one's macros and views" in caplog.text
    assert "judge_checks" in caplog.text


def test_a_database_of_an_older_storage_version_is_read_with_this_faithpipes_definitions(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Its record names this faithpipe's text, but the older faithpipe that wrote it last
    made its own: its tables take this one's (the last migration only added columns no
    definition reads), so nothing is said and the current wilson_low is read."""
    db = tmp_path / "f.duckdb"
    open_store(db).close()
    stale(db)
    newest = max(version for version, _ in migrations())
    with duckdb.connect(str(db)) as con:
        con.execute("DELETE FROM schema_migrations WHERE version = $v", {"v": newest})
        current = hashlib.sha256(sql("analysis").encode()).hexdigest()
        con.execute("INSERT INTO analysis_definitions VALUES ($d, now())", {"d": current})
    with connect_for_reading(db) as reader:
        assert reader.execute("SELECT round(wilson_low(5, 10), 4)").fetchall() == [(0.2366,)]
    assert "older faithpipe" not in caplog.text
