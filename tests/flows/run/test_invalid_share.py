"""A run that judged nothing well says so (issue 10): past --max-invalid-share it keeps every
row, sets `runs.warning`, exits 8, and its Prefect flow run fails."""

from __future__ import annotations

import asyncio
from pathlib import Path

import duckdb
import polars as pl
import pytest

from flows.errors import TooManyInvalid
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.builders import many_cases, write
from tests.support.cli_run import faith_here
from tests.support.cli_run import faith_process as faith


def cases_with_empty_contexts(n: int, empty: int, *, first: int = 0) -> pl.DataFrame:
    """n cases (from the `first`-th of many_cases), the first `empty` of them with nothing
    retrieved (each ends `invalid`)."""
    frame = many_cases(first + n).slice(first)
    return frame.with_columns(
        retrieval_context=pl.when(pl.int_range(pl.len()) < empty)
        .then(pl.lit([], dtype=pl.List(pl.String)))
        .otherwise("retrieval_context")
    )


def runs(db: Path) -> list[tuple]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(
            "SELECT status, rows_in, rows_newly_scored, rows_invalid, warning FROM runs"
        ).fetchall()
    finally:
        con.close()


@pytest.mark.slow
def test_a_run_mostly_invalid_exits_8_keeps_everything_and_warns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write(cases_with_empty_contexts(10, 3), tmp_path / "cases.parquet")
    db = tmp_path / "f.duckdb"
    done = faith("score", str(source), "--db", str(db), "--prefect", "no")
    assert done.returncode == 8, done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1
    assert "3 of 10 judged cases (30.0%) ended invalid" in errors[0]
    # the run's line is printed as for any run: the ledger holds whatever the exit code
    assert "completed: 10 rows in = 7 scored (7 new) + 3 invalid + 0 pending" in done.stdout
    ((status, rows_in, newly, invalid, warning),) = runs(db)
    assert (status, rows_in, newly, invalid) == ("completed", 10, 7, 3)
    assert "more than --max-invalid-share 0.1" in warning

    listing = faith_here(capsys, "runs", "--db", str(db))
    assert listing.returncode == 0, listing.stderr
    assert "invalid_share" in listing.stdout
    assert "0.3" in listing.stdout


def test_a_share_within_the_limit_is_a_success(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write(cases_with_empty_contexts(10, 3), tmp_path / "cases.parquet")
    db = tmp_path / "f.duckdb"
    done = faith_here(
        capsys, "score", str(source), "--db", str(db), "--prefect", "no",
        "--max-invalid-share", "0.3",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "invalid 30.0%" in done.stdout


@pytest.mark.parametrize(
    ("limit", "said"),
    [
        ("0.333", "1 of 3 judged cases (33.33%) ended invalid, more than --max-invalid-share "
         "0.333 (33.30%)"),
        ("0.3", "1 of 3 judged cases (33.3%) ended invalid, more than --max-invalid-share 0.3:"),
    ],
    ids=["reads-alike", "reads-apart"],
)  # fmt: skip
def test_a_share_just_past_the_limit_is_told_from_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], limit: str, said: str
) -> None:
    """1 of 3 over a limit of 0.333 read `(33.3%) ..., more than --max-invalid-share 0.333`,
    a share that looked equal to the limit it failed: more decimals tell them apart."""
    source = write(cases_with_empty_contexts(3, 1), tmp_path / "cases.parquet")
    done = faith_here(
        capsys, "score", str(source), "--db", str(tmp_path / "f.duckdb"), "--prefect", "no",
        "--max-invalid-share", limit,
    )  # fmt: skip
    assert done.returncode == 8
    assert said in done.stderr


def test_the_limit_is_checked_on_the_run_alone(tmp_path: Path) -> None:
    source = write(cases_with_empty_contexts(10, 3), tmp_path / "cases.parquet")
    db = tmp_path / "f.duckdb"
    settings = ScoreSettings(source=str(source), db=str(db), max_invalid_share=0.2)
    with pytest.raises(TooManyInvalid, match="ended invalid"):
        run_score(settings)
    # The next run tries the 3 invalid cases again, and only those: 3 of 3 still invalid.
    with pytest.raises(TooManyInvalid, match="3 of 3 judged cases"):
        run_score(settings)
    assert [row[:4] for row in runs(db)] == [("completed", 10, 7, 3), ("completed", 10, 0, 3)]


def test_a_day_the_retriever_was_down_fails_its_night_not_every_night_after(
    tmp_path: Path,
) -> None:
    """A day of empty contexts ends invalid, and its cases are tried again every night: they
    were counted again in each night's share, so every later night exited 8 (10 of 40 judged
    cases) though all its new cases scored. Cases invalid again with the same content are
    left out of the check, unless the run judged nothing else."""
    days = tmp_path / "days"
    write(cases_with_empty_contexts(10, 10), days / "day1.parquet")
    db = tmp_path / "f.duckdb"
    settings = ScoreSettings(source=str(days), db=str(db))
    with pytest.raises(TooManyInvalid, match="10 of 10 judged cases"):
        run_score(settings)
    write(many_cases(40).slice(10), days / "day2.parquet")
    second = run_score(settings)  # no exit 8: its 30 new cases scored
    assert (second["rows_newly_scored"], second["rows_invalid"]) == (30, 10)
    assert second["rows_invalid_again"] == 10
    assert second["warning"] is None
    # a night that read nothing new says again what the source holds
    with pytest.raises(TooManyInvalid, match="10 of 10 judged cases"):
        run_score(settings)
    # a night whose own cases fail fails, saying what it left out (docs/scoring.md's line)
    write(cases_with_empty_contexts(33, 3, first=40), days / "day3.parquet")
    left_out = (
        r"3 of 33 judged cases \(9.1%\) ended invalid \(10 more were invalid before with the "
        r"same content\), more than --max-invalid-share 0.05: "
    )
    with pytest.raises(TooManyInvalid, match=left_out):
        run_score(settings.model_copy(update={"max_invalid_share": 0.05}))


@pytest.mark.usefixtures("prefect_harness")
def test_the_prefect_flow_run_of_a_mostly_invalid_run_fails(tmp_path: Path) -> None:
    from prefect.client.orchestration import get_client

    from flows.orchestration.score_flow import score_flow

    source = write(cases_with_empty_contexts(10, 5), tmp_path / "cases.parquet")
    with pytest.raises(TooManyInvalid):
        score_flow(ScoreSettings(source=str(source), db=str(tmp_path / "f.duckdb")))

    async def newest_state() -> str:
        async with get_client() as client:
            (flow_run,) = await client.read_flow_runs(limit=1, sort="START_TIME_DESC")
            return flow_run.state.type.value

    assert asyncio.run(newest_state()) == "FAILED"


def test_a_nightly_run_mostly_invalid_still_checks_the_judge_then_exits_8(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write(cases_with_empty_contexts(10, 3), tmp_path / "cases.parquet")
    db = tmp_path / "f.duckdb"
    args = ["nightly", str(source), "--db", str(db), "--prefect", "no", "--snapshot"]
    done = faith_here(capsys, *args)
    assert done.returncode == 8, done.stderr
    con = duckdb.connect(str(db) + ".snapshot.duckdb", read_only=True)
    try:  # the copy for readers carries the judge check and the warning
        assert con.execute("SELECT count(*) FROM judge_checks").fetchall() == [(1,)]
        (warning,) = con.execute("SELECT warning FROM runs").fetchall()[0]
    finally:
        con.close()
    assert "more than --max-invalid-share 0.1" in warning
