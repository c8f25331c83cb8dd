"""Logs that change while they are read: a night reading a folder an exporter is still writing.
A file written to, replaced by a rename or removed after the source was resolved fails the run
(exit 3) naming it before any batch read from it since is handed on; the next run, once the
file is complete, reads it whole and counts no row twice."""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import polars as pl
import pytest

import flows.run.pipeline
from flows.errors import InputUnreadable
from flows.read.source import RawBatch, Source, iter_batches, resolve_source
from tests.support.builders import many_cases
from tests.support.cli_run import faith_here
from tests.support.db_reading import query

SCORE = ("score", "--prefect", "no", "--batch-size", "2")
HEADER = "case_id,logged_at,input,retrieval_context,actual_output\n"


def csv_line(i: int, answer: str = "Order A17 shipped on 3 March.") -> str:
    passages = '"[""Order A17 shipped on 3 March.""]"'
    return f"c{i},2026-11-01T12:00:00,Where is A17?,{passages},{answer}\n"


def json_rows(n: int) -> list[dict]:
    return many_cases(n).with_columns(pl.col("logged_at").dt.to_string()).to_dicts()


# Each format's file of n rows, as bytes an exporter writes.
def csv_bytes(n: int) -> bytes:
    return (HEADER + "".join(csv_line(i) for i in range(n))).encode()


def jsonl_bytes(n: int) -> bytes:
    return "".join(json.dumps(row) + "\n" for row in json_rows(n)).encode()


def parquet_bytes(n: int, tmp: Path) -> bytes:
    many_cases(n).write_parquet(tmp, row_group_size=2)
    return tmp.read_bytes()


FORMATS: dict[str, Callable[[int, Path], bytes]] = {
    "cases.csv": lambda n, _: csv_bytes(n),
    "cases.csv.gz": lambda n, _: gzip.compress(csv_bytes(n)),
    "cases.jsonl": lambda n, _: jsonl_bytes(n),
    "cases.json": lambda n, _: json.dumps(json_rows(n)).encode(),
    "cases.parquet": parquet_bytes,
}


def after_first_batch(batches: Iterator, change: Callable[[], None]) -> None:
    """Read the first batch, change the file as an exporter would, read on."""
    next(batches)
    change()
    for _ in batches:
        pass


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_a_file_written_to_after_its_first_batch_is_refused_before_the_next(
    tmp_path: Path, name: str
) -> None:
    path = tmp_path / name
    path.write_bytes(FORMATS[name](6, tmp_path / "six.parquet"))
    longer = FORMATS[name](8, tmp_path / "eight.parquet")
    batches = iter_batches(resolve_source(path), 2)

    def written() -> None:  # the same file (its inode), rewritten longer
        with open(path, "r+b") as file:
            file.write(longer)

    with pytest.raises(InputUnreadable, match="the file changed while it was read") as raised:
        after_first_batch(batches, written)
    assert str(raised.value).startswith(f"{path}: ")
    assert "bytes when the run began" in str(raised.value)


def test_a_parquet_file_renamed_over_mid_run_is_not_read_half_old_half_new(
    tmp_path: Path,
) -> None:
    # Its row groups were read by path, slice by slice: 2 old rows and 4 of the new file.
    path = tmp_path / "cases.parquet"
    many_cases(6).write_parquet(path, row_group_size=2)
    newer = tmp_path / "cases.parquet.tmp"
    many_cases(6).with_columns(pl.col("case_id") + "-new").write_parquet(newer, row_group_size=2)
    batches = iter_batches(resolve_source(path), 2)
    with pytest.raises(InputUnreadable, match=r"replaced by another .* run again to read the new"):
        after_first_batch(batches, lambda: os.replace(newer, path))


def test_a_file_removed_mid_run_is_said_so(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "a.jsonl").write_bytes(jsonl_bytes(3))
    (folder / "b.parquet").write_bytes(parquet_bytes(3, tmp_path / "b.parquet"))
    batches = iter_batches(resolve_source(folder), 10)
    removed = r"b\.parquet: the file was removed while it was read"
    with pytest.raises(InputUnreadable, match=removed):
        after_first_batch(batches, (folder / "b.parquet").unlink)


def test_a_three_table_folder_whose_outputs_change_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "export"
    folder.mkdir()
    rows = many_cases(6)
    rows.select("case_id", "input", "logged_at").write_parquet(folder / "questions.parquet")
    rows.select("case_id", "actual_output").write_parquet(folder / "outputs.parquet")
    contexts = rows.select("case_id", pl.col("retrieval_context").alias("text")).explode("text")
    contexts.with_columns(position=pl.lit(0)).write_parquet(folder / "contexts.parquet")
    batches = iter_batches(resolve_source(folder), 2)

    def rewritten() -> None:
        rows.select("case_id", "actual_output").head(5).write_parquet(folder / "outputs.parquet")

    with pytest.raises(InputUnreadable, match=r"outputs\.parquet: the file .*while it was read"):
        after_first_batch(batches, rewritten)


def test_a_csv_still_being_written_is_refused_then_read_whole_the_next_night(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The exporter has written 5 rows, the last one cut in the middle of its answer (no
    # newline after it: many exporters end a complete file so too); it writes on while the
    # night reads the first rows.
    path = tmp_path / "day2.csv"
    whole = HEADER + "".join(csv_line(i) for i in range(4)) + csv_line(4, "It arrives on 5 March.")
    path.write_text(whole[: -len(" on 5 March.\n")])
    reading = flows.run.pipeline.iter_batches

    def exporter_writing_on(source: Source, batch_size: int) -> Iterator[RawBatch]:
        for n, raw in enumerate(reading(source, batch_size)):
            yield raw
            if n == 0:
                path.write_text(whole)

    monkeypatch.setattr(flows.run.pipeline, "iter_batches", exporter_writing_on)
    db = tmp_path / "faith.duckdb"
    first = faith_here(capsys, *SCORE, str(path), "--db", str(db))

    assert first.returncode == 3
    assert first.stderr.strip().splitlines()[-1:] == [
        f"error: {path}: the file changed while it was read ({len(whole) - 13:,} bytes when "
        f"the run began, {len(whole):,} now): a file still being written? Write it under another "
        "name (day2.csv.tmp) and rename it when complete; nothing read of it since the last "
        "committed batch was written, and the next run reads it again"
    ]
    monkeypatch.setattr(flows.run.pipeline, "iter_batches", reading)
    second = faith_here(capsys, *SCORE, str(path), "--db", str(db))

    assert second.returncode == 0, second.stderr
    assert "5 rows in = 5 scored" in second.stdout
    runs = query(db, "SELECT status, rows_in, rows_newly_scored FROM runs ORDER BY started_at")
    assert [status for status, _, _ in runs] == ["failed", "completed"]
    assert sum(new for _, _, new in runs) == 5  # no row scored twice, none lost
    assert query(db, "SELECT count(*), count(DISTINCT case_id) FROM case_scores") == [(5, 5)]


def test_a_file_added_to_the_folder_mid_run_is_left_for_the_next_run(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    rows = json_rows(6)
    (folder / "a.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows[:3]))
    (folder / "b.csv").write_bytes(csv_bytes(3))
    source = resolve_source(folder)
    batches = iter_batches(source, 2)
    read = list(next(batches).frame["case_id"])

    (folder / "c.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows[3:]))
    read += [case_id for raw in batches for case_id in raw.frame["case_id"]]

    assert read == [row["case_id"] for row in rows[:3]] + ["c0", "c1", "c2"]
    assert sum(raw.frame.height for raw in iter_batches(resolve_source(folder), 2)) == 9


def test_a_dask_run_loads_no_partition_of_a_file_renamed_over_mid_run(tmp_path: Path) -> None:
    # Each partition's worker reads its rows by the file's path: a file renamed over after
    # the first partition was read gave its other partitions the new file's rows.
    from flows.engines.dask_run import run_score_on_dask
    from flows.run.settings import ScoreSettings
    from tests.flows.run.test_calibrate import InlineSubmitter

    path = tmp_path / "cases.parquet"
    many_cases(6).write_parquet(path, row_group_size=2)
    newer = tmp_path / "cases.parquet.tmp"
    many_cases(6).with_columns(pl.col("case_id") + "-new").write_parquet(newer, row_group_size=2)

    class RenamedAfterFirstPartition(InlineSubmitter):
        def submit(self, job: object) -> str:
            shard = super().submit(job)
            if newer.exists():
                os.replace(newer, path)
            return shard

    db = tmp_path / "faith.duckdb"
    settings = ScoreSettings(source=str(path), db=str(db), engine="dask", batch_size=2)
    with pytest.raises(InputUnreadable, match=r"replaced by another"):
        run_score_on_dask(settings, RenamedAfterFirstPartition())
    assert query(db, "SELECT count(*) FROM case_scores WHERE case_id LIKE '%-new'") == [(0,)]
    assert query(db, "SELECT status FROM runs") == [("failed",)]


def test_a_file_removed_after_the_folder_was_listed_is_exit_3_not_a_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A folder's CSV files alike are counted together: one removed by then was exit 1,
    # `FileNotFoundError`, a bug's code with no word of what happened.
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "a.csv").write_bytes(csv_bytes(3))
    (folder / "b.csv").write_bytes(csv_bytes(3).replace(b"\nc", b"\nb"))
    listing = flows.run.pipeline.resolve_source

    def listed_then_removed(*args: object, **kwargs: object) -> Source:
        source = listing(*args, **kwargs)  # type: ignore[arg-type]
        (folder / "b.csv").unlink()  # a cleaner job, rotating logs away
        return source

    monkeypatch.setattr(flows.run.pipeline, "resolve_source", listed_then_removed)
    done = faith_here(capsys, *SCORE, str(folder), "--db", str(tmp_path / "faith.duckdb"))

    assert done.returncode == 3
    assert done.stderr.strip().splitlines() == [
        f"error: {folder / 'b.csv'}: the file was removed while it was read: nothing read of it "
        "since the last committed batch was written; restore it, or run again"
    ]
