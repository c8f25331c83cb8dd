"""Writing a committed batch again adds nothing (issue 11): a retry after a commit that did
succeed, as any caller that retries a write whose reply was lost would."""

from __future__ import annotations

from pathlib import Path

from flows.run.pipeline import Steps, run_score
from flows.run.settings import ScoreSettings
from flows.store.batch_writes import write_batch
from tests.support.builders import many_cases, write
from tests.support.db_reading import query

COUNTS = """
SELECT (SELECT count(*) FROM case_scores), (SELECT count(*) FROM claim_verdicts),
       (SELECT count(*) FROM truths), (SELECT count(*) FROM quarantine),
       batches, rows_in, rows_newly_scored, rows_quarantined, rows_passed
FROM runs
"""


def test_a_committed_batch_written_again_adds_no_row_and_no_count(tmp_path: Path) -> None:
    frame = many_cases(40)
    source = write(frame.vstack(frame.head(3)), tmp_path / "cases.parquet")  # 3 exact copies
    retried: list[int] = []

    def write_twice(con, scored, **options) -> float:
        write_batch(con, scored, **options)  # committed; then the reply is "lost" ...
        retried.append(options["batch_no"])
        return write_batch(con, scored, **options)  # ... and the write is tried again

    once, twice = tmp_path / "once.duckdb", tmp_path / "twice.duckdb"
    run_score(ScoreSettings(source=str(source), db=str(once), batch_size=10))
    run_score(
        ScoreSettings(source=str(source), db=str(twice), batch_size=10),
        steps=Steps(write=write_twice),
    )
    assert retried == [1, 2, 3, 4, 5]
    assert query(twice, COUNTS) == query(once, COUNTS)
    scores, _, _, quarantined, batches, *_ = query(twice, COUNTS)[0]
    assert (scores, quarantined, batches) == (40, 3, 5)
