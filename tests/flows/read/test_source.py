"""Reading a source: every row once, in file order, in frames bounded by the batch size,
however the Parquet files were cut into row groups."""

from __future__ import annotations

import gzip
import os
import re
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq
import pytest

import flows.read.case_ids
from flows.errors import InputUnreadable
from flows.read.read_options import ReadOptions
from flows.read.source import duplicated_case_ids, iter_batches, resolve_source
from tests.support.builders import many_cases, write


@pytest.mark.parametrize(
    ("rows", "row_group_size", "batch_size"),
    [
        (21, 7, 10),  # small row groups: runs of whole groups
        (24, 12, 10),  # a group a little longer than a batch: read whole
        (50, 50, 10),  # one group five batches long: streamed in batch-size pieces
        (5, 5, 10),  # a file smaller than a batch
    ],
)
def test_every_row_is_read_once_in_order(
    tmp_path: Path, rows: int, row_group_size: int, batch_size: int
) -> None:
    expected = many_cases(rows)
    path = tmp_path / "cases.parquet"
    pq.write_table(expected.to_arrow(), path, row_group_size=row_group_size)
    assert pq.ParquetFile(path).metadata.num_row_groups == -(-rows // row_group_size)

    frames = [raw.frame for raw in iter_batches(resolve_source(path), batch_size)]

    assert max(frame.height for frame in frames) <= 2 * batch_size
    got = pl.concat(frames)
    assert got["case_id"].to_list() == expected["case_id"].to_list()
    assert got.select(expected.columns).equals(expected)


def test_files_named_like_glob_patterns_are_read_as_themselves(tmp_path: Path) -> None:
    rows = many_cases(12)
    # `part[1]` is also a pattern that matches `part1`: each must still be read as itself.
    write(rows.slice(0, 5), tmp_path / "wide" / "part[1].parquet")
    write(rows.slice(5, 7), tmp_path / "wide" / "part1.parquet")
    got: dict[str, list[str]] = {}
    for raw in iter_batches(resolve_source(tmp_path / "wide"), 100):
        # Small files are read together, each row with its own file (issue 22).
        files = raw.files if raw.files is not None else [raw.source_file] * raw.frame.height
        for file, case_id in zip(files, raw.frame["case_id"], strict=True):
            got.setdefault(Path(file).name, []).append(case_id)
    assert got == {
        "part[1].parquet": rows["case_id"][:5].to_list(),
        "part1.parquet": rows["case_id"][5:].to_list(),
    }


def test_three_table_files_named_like_glob_patterns_are_read_as_themselves(
    tmp_path: Path,
) -> None:
    wide = many_cases(12)
    folder = tmp_path / "three"
    contexts = wide.select(
        "case_id",
        text="retrieval_context",
        position=pl.int_ranges(pl.col("retrieval_context").list.len()),
    ).explode("text", "position")
    for table, frame in [
        ("questions", wide.select("case_id", "input", "logged_at")),
        ("contexts", contexts),
        ("outputs", wide.select("case_id", "actual_output")),
    ]:
        write(frame.slice(0, 5), folder / table / "part[1].parquet")
        write(frame.slice(5), folder / table / "part1.parquet")
    read = pl.concat(raw.frame for raw in iter_batches(resolve_source(folder), 100))
    columns = ["case_id", "input", "actual_output", "retrieval_context", "logged_at"]
    # Whole rows: a file read twice would double passages, not just case_ids.
    assert read.select(columns).sort("case_id").equals(wide.select(columns).sort("case_id"))


@pytest.mark.parametrize("ids_in_memory", [0, 100_000], ids=["duckdb", "polars"])
def test_repeated_case_ids_are_found_across_files_row_groups_and_forms(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ids_in_memory: int
) -> None:
    # Counted by DuckDB as the ids stream by (bounded memory), by polars when they are few;
    # a plain polars count is the oracle.
    monkeypatch.setattr(flows.read.case_ids, "_IDS_IN_MEMORY", ids_in_memory)
    rows = many_cases(30)
    again = pl.concat([rows.slice(10, 3), rows.slice(20, 1), rows.slice(20, 1)])
    with_nulls = rows.slice(25, 2).with_columns(case_id=pl.lit(None, dtype=pl.String))
    (tmp_path / "wide").mkdir()
    pq.write_table(rows.to_arrow(), tmp_path / "wide" / "a.parquet", row_group_size=7)
    pq.write_table(pl.concat([again, with_nulls]).to_arrow(), tmp_path / "wide" / "b.parquet")
    every = pl.concat([rows, again, with_nulls])
    oracle = every.group_by("case_id").len().filter(pl.col("len") > 1)["case_id"]
    found = duplicated_case_ids(resolve_source(tmp_path / "wide"))["case_id"]
    assert sorted(found.to_list(), key=str) == sorted(oracle.to_list(), key=str)
    assert found.len() == 5  # three ids read twice, one three times, and the null id

    # Three tables: an id repeated in questions or in outputs (not one in each, once).
    write(rows.select("case_id", "input", "logged_at"), tmp_path / "three" / "questions.parquet")
    contexts = rows.select("case_id", position=pl.lit(0), text=pl.lit("Order A17 shipped."))
    write(contexts, tmp_path / "three" / "contexts.parquet")
    outputs = pl.concat([rows, rows.slice(4, 1)]).select("case_id", "actual_output")
    write(outputs, tmp_path / "three" / "outputs.parquet")
    assert duplicated_case_ids(resolve_source(tmp_path / "three"))["case_id"].to_list() == [
        rows["case_id"][4]
    ]


def test_empty_csv_and_json_files_among_logs_hold_no_rows_and_stop_nothing(
    tmp_path: Path,
) -> None:
    """Log rotation and Spark leave 0-byte files: one among the day's files stopped the run
    as a file missing every column ("has: json"). A 0-byte Parquet file is a broken one."""
    logs = tmp_path / "logs"
    rows = many_cases(4)
    logs.mkdir()
    rows.slice(0, 2).write_ndjson(logs / "a.jsonl")
    rows.slice(2, 2).write_ndjson(logs / "b.jsonl")
    for name in ("c.jsonl", "d.csv", "e.json", "f.jsonl.gz"):
        (logs / name).touch()
    source = resolve_source(logs)
    assert [path.name for path in source.all_files] == ["a.jsonl", "b.jsonl"]
    frames = [raw.frame for raw in iter_batches(source, 10)]
    assert pl.concat(frames)["case_id"].to_list() == rows["case_id"].to_list()
    assert [p.name for p in resolve_source(f"{logs}/*.jsonl").all_files] == ["a.jsonl", "b.jsonl"]
    with pytest.raises(InputUnreadable, match=r"c.jsonl: the file is empty \(0 bytes\)"):
        resolve_source(logs / "c.jsonl")
    (tmp_path / "none").mkdir()
    (tmp_path / "none" / "a.csv").touch()
    with pytest.raises(InputUnreadable, match=r"1 CSV or JSON file\(s\) are empty"):
        resolve_source(tmp_path / "none")
    (logs / "g.parquet").touch()
    with pytest.raises(InputUnreadable, match=r"g\.parquet: not a readable Parquet file"):
        resolve_source(logs)


def test_gzip_files_of_nothing_among_logs_hold_no_rows_and_stop_nothing(tmp_path: Path) -> None:
    """Spark writes an empty partition of a gzip export as a gzip of 0 bytes (20 bytes): one
    among the day's files stopped the run as a file missing every column ("has: column0",
    "has: json"), where a 0-byte file is skipped."""
    logs = tmp_path / "logs"
    rows = many_cases(4)
    logs.mkdir()
    rows.slice(0, 2).write_ndjson(logs / "a.jsonl")
    rows.slice(2, 2).write_ndjson(logs / "b.jsonl")
    for name in ("c.jsonl.gz", "d.csv.gz", "e.json.GZ"):
        (logs / name).write_bytes(gzip.compress(b""))
    source = resolve_source(logs)
    assert [path.name for path in source.all_files] == ["a.jsonl", "b.jsonl"]
    with pytest.raises(InputUnreadable, match=r"c.jsonl.gz: the file is empty \(a gzip of 0"):
        resolve_source(logs / "c.jsonl.gz")


@pytest.mark.parametrize(
    ("name", "content", "said"),
    [
        ("c.json", b"[]", "an empty JSON array"),
        ("c.json", b"\xef\xbb\xbf[ \n ]\n", "an empty JSON array"),
        ("c.jsonl", b"\n\n  \n", "blank lines only"),
        ("c.csv", b"\r\n", "blank lines only"),
        ("c.json.gz", gzip.compress(b"[]\n", mtime=0), "an empty JSON array"),
    ],
    ids=["array", "spaced-array", "blank-lines", "crlf-csv", "gzip-array"],
)
def test_a_json_exporters_file_of_no_records_holds_no_rows_and_stops_nothing(
    tmp_path: Path, name: str, content: bytes, said: str
) -> None:
    """An exporter writes `[]` or blank lines for an hour without logs: among the day's files it
    stopped the run as a file missing every column ("has: json"). `{}` is a record, no empty
    file: its missing columns are named."""
    logs = tmp_path / "logs"
    logs.mkdir()
    rows = many_cases(2)
    rows.write_ndjson(logs / "a.jsonl")
    (logs / name).write_bytes(content)
    source = resolve_source(logs)
    assert [path.name for path in source.all_files] == ["a.jsonl"]
    assert pl.concat(raw.frame for raw in iter_batches(source, 10)).height == 2
    with pytest.raises(InputUnreadable, match=rf"{name}: the file is empty \({said}\)"):
        resolve_source(logs / name)
    (logs / "b.json").write_bytes(b"{}")
    with pytest.raises(InputUnreadable, match=r"b\.json: missing required columns case_id"):
        resolve_source(logs)


def test_the_three_tables_as_csv_are_told_to_be_parquet(tmp_path: Path) -> None:
    """They were read as three files of cases, and the first's missing columns named, with
    advice to map them with --columns."""
    for name, header in (("questions", "case_id,input"), ("contexts", "case_id,text")):
        (tmp_path / f"{name}.csv").write_text(header + "\nt1,x\n")
    (tmp_path / "outputs.jsonl").write_text('{"case_id": "t1", "actual_output": "A."}\n')
    with pytest.raises(InputUnreadable, match=r"three-table form, which is read from Parquet"):
        resolve_source(tmp_path)


def test_one_of_the_three_tables_as_csv_is_told_to_be_parquet(tmp_path: Path) -> None:
    """questions.csv beside contexts.parquet and outputs.parquet: the folder was read as files
    of cases and the error named contexts.parquet's missing columns (input, actual_output, ...),
    advice that does not fit."""
    (tmp_path / "questions.csv").write_text("case_id,input,logged_at\nt1,x,2026-11-01\n")
    pl.DataFrame({"case_id": ["t1"], "position": [0], "text": ["A."]}).write_parquet(
        tmp_path / "contexts.parquet"
    )
    pl.DataFrame({"case_id": ["t1"], "actual_output": ["A."]}).write_parquet(
        tmp_path / "outputs.parquet"
    )
    with pytest.raises(
        InputUnreadable, match=r"questions\.csv, contexts\.parquet, outputs\.parquet"
    ):
        resolve_source(tmp_path)


@pytest.mark.parametrize("missing", ["contexts", "outputs", "questions"])
def test_two_of_the_three_tables_without_the_third_name_the_one_missing(
    tmp_path: Path, missing: str
) -> None:
    """The folder was read as files of cases, and the first file's contract columns named
    missing, with advice to map them with --columns, which cannot help."""
    tables = {
        "questions": pl.DataFrame({"case_id": ["t1"], "input": ["Q?"], "logged_at": ["2026"]}),
        "contexts": pl.DataFrame({"case_id": ["t1"], "position": [0], "text": ["A."]}),
        "outputs": pl.DataFrame({"case_id": ["t1"], "actual_output": ["A."]}),
    }
    for name, frame in tables.items():
        if name != missing:
            write(frame, tmp_path / name / "part-0.parquet")
    with pytest.raises(InputUnreadable, match=f"of the three-table form but no {missing} table"):
        resolve_source(tmp_path)


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("day2.jsonl.zst", "a .zst compressed file is not read"),
        ("day2.csv.bz2", "a .bz2 compressed file is not read"),
        ("day2.csv.gzip", "a gzip file is read when named .gz: rename it"),
    ],
)
def test_a_log_compressed_otherwise_than_gzip_is_refused_not_left_out(
    tmp_path: Path, name: str, says: str
) -> None:
    """Beside a day's readable log, the other day's compressed one was left out without a
    word (its rows lost); named alone, it was read as Parquet and --format was suggested."""
    logs = tmp_path / "logs"
    logs.mkdir()
    many_cases(3).write_ndjson(logs / "day1.jsonl")
    (logs / name).write_bytes(b"\x28\xb5\x2f\xfd compressed")
    (logs / "_SUCCESS.csv.zip").write_bytes(b"metadata")  # a table's metadata: not looked at
    for source in (logs, logs / name, f"{logs}/day*"):
        with pytest.raises(InputUnreadable, match=re.escape(f"{name}: {says}")):
            resolve_source(source)
    (logs / name).unlink()
    assert resolve_source(logs).all_files == [logs / "day1.jsonl"]


@pytest.mark.parametrize("name", ["day2.tsv", "day2.TAB", "day2.tsv.gz"])
def test_a_tab_separated_log_among_others_is_refused_not_left_out(
    tmp_path: Path, name: str
) -> None:
    """A folder (or a glob) read day1.jsonl and left day2.tsv out without a word, its rows
    lost; named alone, or by a glob with --format csv, it is read (as CSV)."""
    logs = tmp_path / "logs"
    logs.mkdir()
    many_cases(3).write_ndjson(logs / "day1.jsonl")
    text = "case_id\tinput\tactual_output\tretrieval_context\tlogged_at\n"
    text += 'c9\tq\tOrder A17 shipped.\t["Order A17 shipped."]\t2026-10-01\n'
    data = text.encode()
    (logs / name).write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
    (logs / f"_meta{name}").write_bytes(b"metadata")  # a table's metadata: not looked at
    for source in (logs, f"{logs}/day*"):
        with pytest.raises(InputUnreadable, match=re.escape(f"{name}: a tab-separated file is")):
            resolve_source(source)
    globbed = resolve_source(f"{logs}/day2*", ReadOptions(format="csv"))
    assert globbed.all_files == [logs / name]
    (logs / name).unlink()
    assert resolve_source(logs).all_files == [logs / "day1.jsonl"]


def test_a_pipe_as_source_is_named_so_not_as_missing(tmp_path: Path) -> None:
    """`faith score <(zcat day1.csv.gz)` or `faith score /dev/stdin` names a pipe, which is
    there: the run said `no such file, folder or glob`, as for a typo. A pipe is read only
    once and a source is read more than once (its rows counted, then streamed), so it is
    refused, saying what it is and what to do, before anything opens it (nothing waits on
    its writer)."""
    fifo = tmp_path / "day1.csv"
    os.mkfifo(fifo)
    says = f"{fifo}: not a file or a folder (a pipe, a device or a socket): "
    with pytest.raises(InputUnreadable, match=re.escape(says)) as refused:
        resolve_source(fifo)
    assert "write the log to a file and score that (a .gz file is read as it is)" in str(
        refused.value
    )


def test_a_pipe_among_logs_is_refused_not_left_out(tmp_path: Path) -> None:
    """A named pipe under a log's name in a folder (a shipper's `live.jsonl`) or matched by
    a glob was left out without a word, its rows lost, where named alone it is exit 3: it is
    named so, before anything opens it (nothing waits on its writer). Another name there
    (`control.sock`) is no log, skipped as a file is."""
    logs = tmp_path / "logs"
    logs.mkdir()
    many_cases(3).write_ndjson(logs / "day1.jsonl")
    os.mkfifo(logs / "control.sock")
    os.mkfifo(logs / "live.jsonl")
    says = f"{logs / 'live.jsonl'}: not a file (a pipe, a device or a socket): "
    for source in (logs, f"{logs}/*.jsonl"):
        with pytest.raises(InputUnreadable, match=re.escape(says)):
            resolve_source(source)
    (logs / "live.jsonl").unlink()
    assert resolve_source(logs).all_files == [logs / "day1.jsonl"]


@pytest.mark.parametrize("extension", [".parquet", ".jsonl"])
def test_columns_map_a_key_value_folder_onto_a_contract_column(
    tmp_path: Path, extension: str
) -> None:
    """Logs partitioned by day with no time column of their own: `--columns logged_at=day`
    passed the check (the folder's key is a column) but the key was added after the
    mapping, so every row was quarantined as logged_at_is_null (exit 11)."""
    from flows.run.pipeline import run_score
    from flows.run.settings import ScoreSettings
    from tests.support.db_reading import query

    frame = many_cases(4).drop("logged_at")
    for day, part in (("2026-11-01", frame.head(2)), ("2026-11-02", frame.tail(2))):
        path = tmp_path / "logs" / f"day={day}" / f"part{extension}"
        path.parent.mkdir(parents=True)
        write(part, path) if extension == ".parquet" else part.write_ndjson(path)
    db = tmp_path / "f.duckdb"
    run = run_score(
        ScoreSettings(source=str(tmp_path / "logs"), db=str(db), columns={"logged_at": "day"})
    )
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (4, 4, 0)
    days = query(
        db,
        "SELECT CAST(logged_at AS DATE)::VARCHAR, count(*) FROM case_scores GROUP BY 1 ORDER BY 1",
    )
    assert days == [("2026-11-01", 2), ("2026-11-02", 2)]


def test_a_folder_of_other_names_with_format_says_to_name_them_by_a_glob(tmp_path: Path) -> None:
    """`--format csv` reads a folder's `.csv` files only (docs/conversations.md): a folder of
    `.txt` exports was `no Parquet, CSV or JSON files found`, as if --format were not given."""
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "day1.txt").write_text("case_id,input\nc1,Where?\n")
    with pytest.raises(InputUnreadable) as refused:
        resolve_source(str(tmp_path / "logs"), ReadOptions(format="csv"))
    assert str(refused.value) == (
        f"{tmp_path / 'logs'}: no .csv files found (1 file(s) of other names: in a folder, "
        f"--format csv reads its .csv files only; to read every file as CSV, name them by a "
        f"glob: '{tmp_path / 'logs'}/**/*')"
    )


@pytest.mark.parametrize("layout", ["files", "folders"])
def test_a_three_table_export_below_a_folder_of_logs_is_told_to_be_scored_apart(
    tmp_path: Path, layout: str
) -> None:
    """`faith score data/sample/` (cases.parquet beside three_tables/) read the export's first
    table as a file of cases and advised mapping its columns with --columns, which cannot help."""
    write(many_cases(3), tmp_path / "cases.parquet")
    tables = {
        "questions": pl.DataFrame({"case_id": ["t1"], "input": ["Q?"], "logged_at": ["2026"]}),
        "contexts": pl.DataFrame({"case_id": ["t1"], "position": [0], "text": ["A."]}),
        "outputs": pl.DataFrame({"case_id": ["t1"], "actual_output": ["A."]}),
    }
    export = tmp_path / "nightly" / "export"
    for name, frame in tables.items():
        write(frame, export / (f"{name}.parquet" if layout == "files" else f"{name}/p.parquet"))
    with pytest.raises(InputUnreadable, match=r"nightly/export/ below it holds the three-table"):
        resolve_source(tmp_path)
    assert resolve_source(export).form == "three"


def test_a_folder_of_logs_named_as_a_table_is_read_though_its_parent_holds_the_others(
    tmp_path: Path,
) -> None:
    """`faith score runs/outputs/` (a folder of logs named `outputs`, beside a questions and a
    contexts table) took the parent for an export below the folder, and failed on naming it
    relative to the folder: `ValueError: … is not in the subpath of …`, exit 1."""
    write(many_cases(3), tmp_path / "outputs" / "night.parquet")
    write(pl.DataFrame({"case_id": ["t1"], "input": ["Q?"]}), tmp_path / "questions.parquet")
    write(pl.DataFrame({"case_id": ["t1"], "text": ["A."]}), tmp_path / "contexts.parquet")
    assert resolve_source(tmp_path / "outputs").form == "wide"
