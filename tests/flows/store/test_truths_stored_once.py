"""A passage's truths are stored once per config, however many batches and runs read it
(insert_results.sql narrows the stored side to the batch's passages before comparing)."""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl

from faith_udfs import GroundedJudge
from flows.judges.settings import JudgeSettings
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.builders import case_row, cases, write
from tests.support.db_reading import query

POOL = [
    "Order A17 shipped on 3 March by courier.",
    "Refunds are paid within 5 working days. Returns are free.",
    "Our support line opens at 9 am.",
    "Gift cards never expire. They cannot be refunded.",
    "Order B22 was cancelled on 4 March.",
    "Delivery takes two days in the city.",
]
NEW = ["Parcels over 20 kg ship by freight.", "Store credit lasts one year."]
TRUTHS = "SELECT config_id, passage_id, truth_index, truth FROM truths ORDER BY ALL"
DUPLICATES = (
    "SELECT count(*) FROM (SELECT config_id, passage_id, truth_index FROM truths "
    "GROUP BY ALL HAVING count(*) > 1)"
)


def logged(prefix: str, n: int, pool: list[str]) -> pl.DataFrame:
    """n cases, each with two passages of the pool in turn: batches share passages."""
    return cases(
        [
            case_row(
                f"{prefix}{i:03d}",
                "Order A17 shipped on 3 March.",
                retrieval_context=[pool[i % len(pool)], pool[(i + 1) % len(pool)]],
            )
            for i in range(n)
        ]
    )


def stored(db: Path) -> pl.DataFrame:
    return pl.DataFrame(
        query(db, TRUTHS), schema=["config_id", "passage_id", "truth_index", "truth"], orient="row"
    )


def test_truths_shared_by_batches_and_runs_are_stored_once_per_config(tmp_path: Path) -> None:
    first = write(logged("a", 30, POOL), tmp_path / "first.parquet")
    # a later night: three passages read before, two never seen
    second = write(logged("b", 20, [*POOL[:3], *NEW]), tmp_path / "second.parquet")
    together = write(
        pl.concat([pl.read_parquet(first), pl.read_parquet(second)]), tmp_path / "all.parquet"
    )

    nightly, at_once = tmp_path / "nightly.duckdb", tmp_path / "at_once.duckdb"
    for source in (first, second):  # batches of 10: every batch repeats passages stored before
        run_score(ScoreSettings(source=str(source), db=str(nightly), batch_size=10))
    run_score(ScoreSettings(source=str(together), db=str(at_once), batch_size=1000))

    assert query(nightly, DUPLICATES) == [(0,)]
    assert stored(nightly).equals(stored(at_once))
    passages = query(nightly, "SELECT count(DISTINCT passage_id) FROM truths")
    assert passages == [(len(POOL) + len(NEW),)]

    # Another config stores its own truths of the same passages, once.
    lexical = JudgeSettings(kind="lexical")
    run_score(ScoreSettings(source=str(first), db=str(nightly), batch_size=10, judge=lexical))
    alone = tmp_path / "lexical.duckdb"
    run_score(ScoreSettings(source=str(first), db=str(alone), judge=lexical))
    assert query(nightly, DUPLICATES) == [(0,)]
    configs = query(nightly, "SELECT count(DISTINCT config_id) FROM truths")
    assert configs == [(2,)]
    lexical_rows = stored(nightly).filter(pl.col("config_id") == stored(alone)["config_id"][0])
    assert lexical_rows.equals(stored(alone))


class NullFirstTruth(GroundedJudge):
    """A team's judge whose truths lists open with a null, as a sloppy extractor's might."""

    def truths(self, passages: pl.DataFrame, limit: int | None) -> pl.DataFrame:
        answer = super().truths(passages, limit)
        return answer.with_columns(
            truths=pl.concat_list(pl.lit(None, dtype=pl.String), pl.col("truths"))
        )


def test_null_truths_are_left_out_and_the_rest_numbered_from_zero(tmp_path: Path) -> None:
    db = tmp_path / "custom.duckdb"
    # batches of 10 share passages, and a second night's new cases find every one stored
    for night in ("a", "b"):
        source = write(logged(night, 30, POOL), tmp_path / f"{night}.parquet")
        run = run_score(
            ScoreSettings(source=str(source), db=str(db), batch_size=10), judge=NullFirstTruth()
        )
        assert run["rows_newly_scored"] == 30
    assert query(db, DUPLICATES) == [(0,)]
    numbering = query(
        db,
        "SELECT count(*), min(truth_index), max(truth_index) FROM truths GROUP BY passage_id "
        "ORDER BY ALL",
    )
    assert len(numbering) == len(POOL)
    assert all(low == 0 and high == n - 1 for n, low, high in numbering)


def test_an_older_database_whose_truths_begin_at_1_is_renumbered_and_not_stored_twice(
    tmp_path: Path,
) -> None:
    db = tmp_path / "older.duckdb"
    source = write(logged("a", 30, POOL), tmp_path / "a.parquet")
    run_score(ScoreSettings(source=str(source), db=str(db), batch_size=10), judge=NullFirstTruth())
    before = query(db, "SELECT count(*) FROM truths")
    # As the code before migration 22 stored a null first truth: numbered before dropping it.
    with duckdb.connect(str(db)) as con:
        con.execute("UPDATE truths SET truth_index = truth_index + 1")
        con.execute("DELETE FROM schema_migrations WHERE version = 22")
    later = write(logged("b", 30, POOL), tmp_path / "b.parquet")
    run_score(ScoreSettings(source=str(later), db=str(db), batch_size=10), judge=NullFirstTruth())
    assert query(db, DUPLICATES) == [(0,)]
    assert query(db, "SELECT count(*) FROM truths") == before
    assert query(db, "SELECT min(truth_index) FROM truths") == [(0,)]
