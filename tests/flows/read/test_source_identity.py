"""One identity per source row, however the path was typed (issue 11): the same file scored by
a relative and by an absolute path, or twice, adds nothing; a file whose name looks like a
glob is read as itself."""

from __future__ import annotations

import os
from pathlib import Path

import polars as pl
import pytest

from flows.errors import InputUnreadable
from flows.read.read_options import ReadOptions
from flows.read.source import resolve_source
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.builders import case_row, cases, many_cases, write
from tests.support.db_reading import query


@pytest.fixture
def in_tmp(tmp_path: Path) -> Path:
    here = Path.cwd()
    os.chdir(tmp_path)
    try:
        yield tmp_path
    finally:
        os.chdir(here)


def test_relative_and_absolute_spellings_key_a_bad_row_once(in_tmp: Path) -> None:
    rows = [case_row("ok"), case_row("blank", input="   ")]
    write(cases(rows), in_tmp / "in" / "bad.parquet")
    db = in_tmp / "f.duckdb"
    for spelling in (
        "in/bad.parquet",
        str(in_tmp / "in" / "bad.parquet"),
        "./in/../in/bad.parquet",
    ):
        run = run_score(ScoreSettings(source=spelling, db=str(db), max_quarantine_share=None))
        assert run["rows_quarantined"] == 1
    assert query(
        db, "SELECT count(DISTINCT row_key), count(DISTINCT source_file) FROM quarantine"
    ) == [(1, 1)]
    ((source_file,),) = query(db, "SELECT DISTINCT source_file FROM quarantine")
    assert source_file == str((in_tmp / "in" / "bad.parquet").resolve())


def test_a_file_named_like_a_glob_is_read_as_itself(tmp_path: Path) -> None:
    write(many_cases(3), tmp_path / "logs[1].parquet")
    write(many_cases(5), tmp_path / "logs1.parquet")  # what the pattern would match
    source = resolve_source(str(tmp_path / "logs[1].parquet"))
    assert [path.name for path in source.files["cases"]] == ["logs[1].parquet"]
    run = run_score(
        ScoreSettings(source=str(tmp_path / "logs[1].parquet"), db=str(tmp_path / "f.duckdb"))
    )
    assert run["rows_in"] == 3


def test_a_pattern_is_a_pattern_when_no_such_file_exists(tmp_path: Path) -> None:
    write(many_cases(3), tmp_path / "a" / "x.parquet")
    write(many_cases(4).with_columns(pl.col("case_id") + "b"), tmp_path / "b" / "x.parquet")
    source = resolve_source(str(tmp_path / "*" / "x.parquet"))
    assert [p.parent.name for p in source.files["cases"]] == ["a", "b"]
    assert all(p.is_absolute() for p in source.files["cases"])


def test_a_glob_reads_hive_values_below_its_fixed_folders_only(tmp_path: Path) -> None:
    write(many_cases(2), tmp_path / "env=prod" / "logs" / "app=web" / "x.parquet")
    source = resolve_source(str(tmp_path / "env=prod" / "logs" / "*" / "x.parquet"))
    assert source.root == tmp_path / "env=prod" / "logs"
    run = run_score(ScoreSettings(source=str(tmp_path / "env=prod/logs/*/x.parquet"),
                                  db=str(tmp_path / "f.duckdb")))  # fmt: skip
    assert run["rows_in"] == 2
    segments = query(
        tmp_path / "f.duckdb",
        "SELECT DISTINCT segments ->> 'app', segments ->> 'env' FROM case_scores",
    )
    assert segments == [("web", None)]


def test_a_linked_partition_keeps_its_value_and_a_file_is_read_once(tmp_path: Path) -> None:
    write(many_cases(3), tmp_path / "archive" / "d1" / "x.parquet")
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "app=web").symlink_to(tmp_path / "archive" / "d1")
    (tmp_path / "logs" / "again.parquet").symlink_to(tmp_path / "archive" / "d1" / "x.parquet")
    source = resolve_source(str(tmp_path / "logs" / "app=web" / "*.parquet"))
    assert [p.parent.name for p in source.files["cases"]] == ["app=web"]
    # Python's glob lists a file once per way `**/**` reaches it: each file is read once.
    found = resolve_source(str(tmp_path / "archive" / "**" / "**" / "*.parquet"))
    assert found.files["cases"] == [tmp_path / "archive" / "d1" / "x.parquet"]


def test_a_folder_reads_its_linked_partitions_once_each(tmp_path: Path) -> None:
    """A `region=us` link to another disk's folder is logs like the rest of the folder (it
    was skipped without a word); a link back up the tree is not walked twice."""
    write(many_cases(3), tmp_path / "logs" / "region=eu" / "a.parquet")
    elsewhere = write(many_cases(5).tail(2), tmp_path / "archive" / "d1" / "b.parquet").parent
    (tmp_path / "logs" / "region=us").symlink_to(elsewhere)
    (tmp_path / "logs" / "region=eu" / "up").symlink_to(tmp_path / "logs")
    source = resolve_source(str(tmp_path / "logs"))
    assert source.files["cases"] == [
        tmp_path / "logs" / "region=eu" / "a.parquet",
        tmp_path / "logs" / "region=us" / "b.parquet",
    ]
    run = run_score(ScoreSettings(source=str(tmp_path / "logs"), db=str(tmp_path / "f.duckdb")))
    assert (run["rows_in"], run["rows_scored"]) == (5, 5)
    regions = query(
        tmp_path / "f.duckdb",
        "SELECT segments ->> 'region' AS r, count(*) FROM case_scores GROUP BY r ORDER BY r",
    )
    assert regions == [("eu", 3), ("us", 2)]


@pytest.mark.parametrize(
    "link", ["region=us", "day2.jsonl"], ids=["linked-partition", "linked-file"]
)
def test_a_link_in_a_folder_that_leads_nowhere_stops_the_run_naming_it(
    tmp_path: Path, link: str
) -> None:
    """A `region=us` link to a disk that is not mounted (or a log file moved away) held rows:
    it was skipped without a word, and the night scored half its logs with exit 0."""
    write(many_cases(3), tmp_path / "logs" / "region=eu" / "a.parquet")
    (tmp_path / "logs" / link).symlink_to(tmp_path / "unmounted" / link)
    (tmp_path / "logs" / ".#a.jsonl").symlink_to("user@host.1234")  # an editor's lock: hidden
    for spec in (tmp_path / "logs", tmp_path / "logs" / "*"):  # a folder, a glob
        with pytest.raises(InputUnreadable) as refused:
            resolve_source(str(spec))
        assert str(refused.value) == (
            f"{tmp_path / 'logs' / link}: a link to {tmp_path / 'unmounted' / link}, which "
            "does not exist (a disk not mounted, a file moved?): its rows cannot be read; "
            "mount or restore it, or remove the link"
        )


def test_a_link_leading_nowhere_under_a_name_no_log_is_read_by_is_left_as_before(
    tmp_path: Path,
) -> None:
    """A folder's dangling `notes.txt` (or, read with --format parquet, `old.csv`) link held
    no rows faithpipe reads there: the walk skipped it, as it skips such a file, and a run
    that read the folder every night became exit 3 ("its rows cannot be read") with the
    check for dangling links. A log's name, a folder's (`region=us`) or any name a glob
    reads with --format is still refused."""
    logs = tmp_path / "logs"
    write(many_cases(3), logs / "a.parquet")
    for name in ("notes.txt", "old.csv"):
        (logs / name).symlink_to(tmp_path / "gone" / name)
    source = resolve_source(str(logs), ReadOptions(format="parquet"))
    assert source.all_files == [logs / "a.parquet"]
    for spec in (logs, logs / "*"):  # a .csv log is read without --format; notes.txt never
        with pytest.raises(InputUnreadable, match=r"old\.csv: a link to .* does not exist"):
            resolve_source(str(spec))
    (logs / "old.csv").unlink()
    assert resolve_source(str(logs / "*")).all_files == [logs / "a.parquet"]
    with pytest.raises(InputUnreadable, match=r"notes\.txt: a link to .* does not exist"):
        resolve_source(str(logs / "*.txt"), ReadOptions(format="csv"))  # read as CSV


def test_a_folder_of_other_names_says_so_whatever_dangling_link_it_holds(tmp_path: Path) -> None:
    """A folder read with --format parquet holding none (a `.txt` export) is told to be named
    by a glob; a dangling `old.csv` link beside it, no Parquet name, was refused instead."""
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "export.txt").write_text("not read\n")
    (logs / "old.csv").symlink_to(tmp_path / "gone" / "old.csv")
    with pytest.raises(InputUnreadable, match=r"logs: no \.parquet files found \(1 file\(s\)"):
        resolve_source(str(logs), ReadOptions(format="parquet"))
