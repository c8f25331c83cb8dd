"""Migration 007 and `faith rekey` (issue 11): a database whose passage ids were polars'
hash() is brought to the version-independent ids from the logs, with nothing judged again and
no row lost; the result equals a database scored with the new ids from the start."""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl
import pytest

import faith_udfs.truths
import flows.store.db
from flows.cli import main
from flows.run.pipeline import run_score
from flows.run.rekey import rekey_passages
from flows.run.settings import ScoreSettings
from flows.store.db import migrations, open_store
from schemas.outputs import LegacyPassageKeys
from tests.support.builders import many_cases, write
from tests.support.db_reading import query

TABLES = [
    "SELECT config_id, passage_id, truth_index, truth FROM truths ORDER BY ALL",
    "SELECT case_id, passage_ids FROM case_scores ORDER BY case_id",
    "SELECT count(*) FROM claim_verdicts",
]


def scored_before_version_7(source: Path, db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Score `source` as faithpipe did before migration 007: passage ids from polars' hash()."""
    with monkeypatch.context() as old:
        # Every migration but 007: the run below is today's code, which also writes the
        # columns of later migrations (009's prices in `runs`).
        old.setattr(flows.store.db, "migrations", lambda: [m for m in migrations() if m[0] != 7])
        old.setattr(faith_udfs.truths, "text_keys", lambda texts: texts.hash())
        run_score(ScoreSettings(source=str(source), db=str(db)))


@pytest.fixture
def source(tmp_path: Path) -> Path:
    frame = many_cases(12).with_columns(
        retrieval_context=pl.concat_list(
            "retrieval_context", pl.format("Branch {} opens at nine.", pl.int_range(pl.len()) % 3)
        )
    )
    return write(frame, tmp_path / "logs" / "a.parquet")


def test_rekey_gives_the_tables_a_fresh_database_has(
    source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old, fresh = tmp_path / "old.duckdb", tmp_path / "fresh.duckdb"
    scored_before_version_7(source, old, monkeypatch)
    run_score(ScoreSettings(source=str(source), db=str(fresh)))
    assert [query(old, q) for q in TABLES[:2]] != [query(fresh, q) for q in TABLES[:2]]

    open_store(old).close()  # migration 007 records the legacy ids
    assert query(old, "SELECT count(*) FROM legacy_passage_keys") == [(5,)]
    con = duckdb.connect(str(old), read_only=True)
    try:
        LegacyPassageKeys.validate(con.sql("SELECT * FROM legacy_passage_keys").pl(), lazy=True)
    finally:
        con.close()
    counts = rekey_passages(str(source), old)
    assert counts == {"legacy": 5, "rekeyed": 5, "left": 0}
    assert [query(old, q) for q in TABLES] == [query(fresh, q) for q in TABLES]
    assert rekey_passages(str(source), old) == {"legacy": 0, "rekeyed": 0, "left": 0}


def test_passages_a_later_run_stored_anew_keep_one_copy(
    source: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    db, fresh = tmp_path / "old.duckdb", tmp_path / "fresh.duckdb"
    scored_before_version_7(source, db, monkeypatch)
    more = write(many_cases(3).with_columns(pl.col("case_id") + "-new"), tmp_path / "more.parquet")
    run_score(ScoreSettings(source=str(more), db=str(db)))  # cites the seed passages anew
    for path in (source, more):
        run_score(ScoreSettings(source=str(path), db=str(fresh)))

    capsys.readouterr()
    code = main(["rekey", str(source.parent), "--db", str(db)])  # `faith rekey`, in-process
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.splitlines()[-1] == "rekeyed 5 of 5 legacy passage ids"
    assert [query(db, q) for q in TABLES] == [query(fresh, q) for q in TABLES]
    assert main(["rekey", str(source.parent), "--db", str(db)]) == 0  # again: nothing left
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"no legacy passage ids in {db}: nothing to rekey"
    )  # it said "0 left (their passages are not in SOURCE)", of passages that were


def test_passages_missing_from_the_logs_keep_their_old_ids(
    source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "old.duckdb"
    scored_before_version_7(source, db, monkeypatch)
    open_store(db).close()
    partial = write(many_cases(2), tmp_path / "partial.parquet")  # the seed's two passages only
    assert rekey_passages(str(partial), db) == {"legacy": 5, "rekeyed": 2, "left": 3}
    assert query(db, "SELECT count(*) FROM case_scores") == [(12,)]


def test_rekey_refuses_a_database_that_is_not_there(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A typo in --db was made into a new database: 'rekeyed 0 of 0 legacy passage ids'."""
    typo = tmp_path / "typo.duckdb"
    assert main(["rekey", str(source), "--db", str(typo)]) == 5
    assert not typo.exists()
    assert "no such database" in capsys.readouterr().err


def test_rekey_refuses_a_duckdb_file_without_faithpipe_tables(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An empty DuckDB file (docs/exit-codes.md: exit 5) was made into a faithpipe database,
    'rekeyed 0 of 0', exit 0, as a typo's new file was."""
    empty = tmp_path / "empty.duckdb"
    duckdb.connect(str(empty)).close()
    assert main(["rekey", str(source), "--db", str(empty)]) == 5
    assert "no faithpipe tables" in capsys.readouterr().err
    assert query(empty, "SELECT count(*) FROM duckdb_tables()") == [(0,)]
