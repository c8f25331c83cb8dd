"""A folder of many small files is read and validated in batches of files, not file by file
(issue 22, item 11, issue 26, item 3: 5,000 one-row files took 96 s), in every format, and the
batched read keeps every row, its file, its quarantine row and key exactly as the file-by-file
read did; a bad file among many fails the run as it does alone. The speed is a bench figure:
bench/small_files.py."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Iterator
from pathlib import Path

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from flows.errors import InputUnreadable
from flows.read import case_ids, streaming
from flows.read import source as reading
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.builders import case_row, cases, many_cases, write

# Each file is a batch of its own in the file-by-file run, each batch a fixed cost (~0.05 CPU-s
# of validation and scoring): 40 files (60 before) still make two hive folders each with a run
# of 15 alike files, and a run of 5 with an extra column, so a batch of 8 (16 before) is
# gathered from more files than it holds, and cut where the columns change.
N_FILES = 40
BATCH = 8  # each hive folder holds runs of more files than a batch
BIG = 20  # a file of more rows than a batch: read alone, as before (100 before: 13 batches)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One-row files under two hive folders; some rows break the contract, two copies of an
    identical bad row sit in different files, and a run of files has an extra column."""
    root = tmp_path_factory.mktemp("small") / "logs"
    frame = many_cases(N_FILES)
    for i in range(N_FILES):
        row = frame.slice(i, 1)
        if i % 17 == 0:
            row = row.with_columns(input=pl.lit(" "))  # input_not_blank
        if i in (20, 21):
            row = cases([case_row("same", input=" ")])  # identical bad rows, two files
        if 30 <= i < 40:
            row = row.with_columns(channel=pl.lit("web"))  # another schema for a while
        write(row, root / f"region={'eu' if i % 2 else 'us'}" / f"part-{i:04d}.parquet")
    write(many_cases(BIG).with_columns(case_id="big" + pl.col("case_id")), root / "zz.parquet")
    return root


def stored(db: Path) -> tuple[pl.DataFrame, pl.DataFrame]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        scores = con.sql(
            "SELECT * EXCLUDE (run_id, scored_at) FROM case_scores ORDER BY case_id"
        ).pl()
        quarantine = con.sql(
            'SELECT * EXCLUDE (run_id, quarantined_at) FROM quarantine ORDER BY row_key, "check"'
        ).pl()
    finally:
        con.close()
    return scores, quarantine


def score(folder: Path, db: Path) -> dict:
    run = run_score(
        ScoreSettings(source=str(folder), db=str(db), batch_size=BATCH, max_quarantine_share=1.0)
    )
    counted = run["rows_scored"] + run["rows_invalid"] + run["rows_pending"]
    assert run["rows_in"] == counted + run["rows_quarantined"] == N_FILES + BIG
    return run


def test_files_read_together_keep_every_row_file_and_quarantine_key(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    batched = score(folder, tmp_path / "batched.duckdb")
    with monkeypatch.context() as patch:
        patch.setattr(streaming, "SMALL_FILE_ROWS", 0)  # every file alone, as before
        one_by_one = score(folder, tmp_path / "files.duckdb")
    bad = len([i for i in range(N_FILES) if i % 17 == 0 or i in (20, 21)])
    assert batched["rows_quarantined"] == one_by_one["rows_quarantined"] == bad
    scores, quarantine = stored(tmp_path / "batched.duckdb")
    scores_before, quarantine_before = stored(tmp_path / "files.duckdb")
    assert_frame_equal(scores, scores_before)
    assert_frame_equal(quarantine, quarantine_before)
    assert quarantine.filter(pl.col("case_id") == "same")["row_key"].n_unique() == 2
    # Each row names its own file, and its hive value came along.
    assert scores.filter(pl.col("case_id") == "c00003")["segments"].str.contains('"eu"').all()


def test_small_files_are_gathered_up_to_a_batch_and_by_columns(folder: Path) -> None:
    raws = list(reading.iter_batches(reading.resolve_source(folder), BATCH))
    assert sum(raw.frame.height for raw in raws) == N_FILES + BIG
    gathered = [raw for raw in raws if raw.files is not None]
    assert max(raw.frame.height for raw in gathered) == BATCH
    assert sum(raw.frame.height for raw in gathered) == N_FILES
    for raw in gathered:
        assert raw.files.len() == raw.frame.height
    alone = {Path(raw.source_file).name for raw in raws if raw.files is None}
    assert alone == {"zz.parquet"}  # the large file is read as before
    # Batches end at BATCH rows and where the columns change (the `channel` files).
    assert len(gathered) <= N_FILES // BATCH + 6


# CSV, JSON Lines (plain and gzip) and JSON arrays: files alike are read in one DuckDB query.
def _csv(frame: pl.DataFrame, path: Path) -> None:
    frame.with_columns(
        pl.col("retrieval_context").map_elements(
            lambda v: json.dumps(list(v)), return_dtype=pl.String
        )
    ).write_csv(path)


def _gz(frame: pl.DataFrame, path: Path) -> None:
    frame.write_ndjson(path.with_suffix(""))
    path.write_bytes(gzip.compress(path.with_suffix("").read_bytes()))
    path.with_suffix("").unlink()


WRITERS: dict[str, Callable[[pl.DataFrame, Path], None]] = {
    ".parquet": lambda f, p: f.write_parquet(p),
    ".csv": _csv,
    ".jsonl": lambda f, p: f.write_ndjson(p),
    ".jsonl.gz": _gz,
    ".json": lambda f, p: f.write_json(p),
}
N_ROWS = 50
# The stored-alike comparison reads every file alone too (DuckDB connections a file): 8
# one-row files a format in batches of 6 are two batches a format.
COMPARED_FORMATS, PER_FORMAT, COMPARED_BATCH = (".csv", ".jsonl.gz", ".json"), 8, 6


def one_row_files(folder: Path, extension: str, frame: pl.DataFrame) -> Path:
    folder.mkdir(parents=True)
    for i in range(frame.height):
        WRITERS[extension](frame.slice(i, 1), folder / f"part-{i:03d}{extension}")
    return folder


def with_bad_rows(n: int) -> pl.DataFrame:
    """n cases, every seventh with a blank input (quarantined as input_not_blank), and two
    files whose different cases share a case_id (found by the repeated case_id pre-pass)."""
    row = pl.int_range(pl.len())
    return many_cases(n).with_columns(
        input=pl.when(row % 7 == 0).then(pl.lit(" ")).otherwise("input"),
        case_id=pl.when(row == 11).then(pl.lit("c00010")).otherwise("case_id"),
    )


@pytest.fixture
def one_by_one(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """Make every file a run of its own: the file-by-file read, to compare against."""

    def alone(source: object, paths: list[Path], rows_wanted: int) -> Iterator[list[Path]]:
        return iter([[path] for path in paths])

    def patch() -> None:
        monkeypatch.setattr(streaming, "file_runs", alone)
        monkeypatch.setattr(case_ids, "file_runs", alone)

    return patch


@pytest.mark.parametrize("extension", list(WRITERS))
def test_n_one_row_files_land_in_ceil_n_over_batch_batches(tmp_path: Path, extension: str) -> None:
    folder = one_row_files(tmp_path / "logs", extension, many_cases(N_ROWS))
    source = reading.resolve_source(folder)
    raws = list(reading.iter_batches(source, 16))
    assert [raw.frame.height for raw in raws] == [16, 16, 16, 2]  # ceil(50 / 16) batches
    assert reading.count_rows(source) == N_ROWS
    files = [file for raw in raws if raw.files is not None for file in raw.files]
    assert files == [str(folder / f"part-{i:03d}{extension}") for i in range(N_ROWS)]


def test_csv_and_json_files_read_together_store_what_file_by_file_stores(
    tmp_path: Path, one_by_one: Callable[[], None]
) -> None:
    # One folder (a folder may mix formats), each format a run of files read together.
    folder = tmp_path / "logs"
    folder.mkdir()
    frame = with_bad_rows(len(COMPARED_FORMATS) * PER_FORMAT)
    for i in range(frame.height):
        extension = COMPARED_FORMATS[i // PER_FORMAT]
        WRITERS[extension](frame.slice(i, 1), folder / f"part-{i:03d}{extension}")
    runs = {}
    for name in ("together", "alone"):
        if name == "alone":
            one_by_one()
        run = run_score(
            ScoreSettings(
                source=str(folder),
                db=str(tmp_path / f"{name}.duckdb"),
                batch_size=COMPARED_BATCH,
                max_quarantine_share=1.0,
            )
        )
        counted = run["rows_scored"] + run["rows_invalid"] + run["rows_pending"]
        assert run["rows_in"] == counted + run["rows_quarantined"] == frame.height
        runs[name] = run
    # 4 blank inputs (rows 0, 7: CSV; 14: JSON Lines gzip; 21: JSON); the repeated case_id:
    # both copies or the later one, as file by file
    assert runs["together"]["rows_quarantined"] == runs["alone"]["rows_quarantined"] > 4
    scores, quarantine = stored(tmp_path / "together.duckdb")
    scores_alone, quarantine_alone = stored(tmp_path / "alone.duckdb")
    assert_frame_equal(scores, scores_alone)
    assert_frame_equal(quarantine, quarantine_alone)  # each row's file and key as alone
    suffixes = {"".join(Path(file).suffixes) for file in quarantine["source_file"]}
    assert suffixes == set(COMPARED_FORMATS)


def _garbage(path: Path) -> None:
    path.write_bytes(b"not a file of its format {{{")


def _no_input(path: Path) -> None:
    frame = many_cases(1).drop("input")
    (frame.write_parquet(path) if path.suffix == ".parquet" else _csv(frame, path))


@pytest.mark.parametrize(
    ("extension", "spoil"),
    [(".parquet", _garbage), (".parquet", _no_input), (".csv", _no_input), (".jsonl", _garbage)],
)
def test_a_bad_file_among_many_fails_the_run_as_it_does_alone(
    tmp_path: Path, extension: str, spoil: Callable[[Path], None]
) -> None:
    folder = one_row_files(tmp_path / "logs", extension, many_cases(30))
    bad = folder / f"part-017{extension}"
    spoil(bad)
    with pytest.raises(InputUnreadable) as among_many:
        reading.resolve_source(folder)
    with pytest.raises(InputUnreadable) as alone:
        reading.resolve_source(bad)
    assert str(among_many.value) == str(alone.value)
    assert str(among_many.value).startswith(f"{bad}: ")


def test_a_bad_row_of_text_files_read_together_names_its_own_file(tmp_path: Path) -> None:
    """CSV files read as one run carry each row's file beside it: the bad row of the second
    file is quarantined under that file, with the key it has when its file is read alone
    (rows and their files paired in reverse named the first file, and keyed the row anew)."""

    def csv(rows: list[dict], path: Path) -> None:
        frame = cases(rows).with_columns(
            pl.col("retrieval_context").map_elements(
                lambda passages: json.dumps(list(passages)), return_dtype=pl.String
            )
        )
        path.parent.mkdir(parents=True, exist_ok=True)
        frame.write_csv(path)

    logs = tmp_path / "logs"
    csv([case_row("c1"), case_row("c2")], logs / "a.csv")
    csv([case_row("c3", answer=None)], logs / "b.csv")
    quarantined = {}
    for name, source in [("together", logs), ("alone", logs / "b.csv")]:
        db = tmp_path / f"{name}.duckdb"
        settings = ScoreSettings(source=str(source), db=str(db), max_quarantine_share=1.0)
        run_score(settings)
        con = duckdb.connect(str(db), read_only=True)
        try:
            quarantined[name] = con.execute(
                'SELECT source_file, "check", row_key FROM quarantine'
            ).fetchall()
        finally:
            con.close()
    assert quarantined["together"] == quarantined["alone"]
    assert quarantined["together"][0][:2] == (str(logs / "b.csv"), "actual_output_is_null")


def test_one_row_files_of_formats_interleaved_are_read_a_format_at_a_time(
    tmp_path: Path,
) -> None:
    """A folder whose files of several formats alternate by name (`part-000.csv`,
    `part-001.jsonl`, …) is read in one query a format, not file by file: only consecutive
    files alike were read together, so 1,200 one-row files of five formats interleaved took
    107 s against ~2 s for 240 of one format."""
    folder = tmp_path / "logs"
    folder.mkdir()
    extensions = list(WRITERS)
    frame = many_cases(6 * len(extensions))
    for i in range(frame.height):
        extension = extensions[i % len(extensions)]
        WRITERS[extension](frame.slice(i, 1), folder / f"part-{i:03d}{extension}")
    source = reading.resolve_source(folder)
    raws = list(reading.iter_batches(source, 16))
    # One run a kind: Parquet, CSV, gzip JSON Lines, and JSON Lines with JSON arrays (plain
    # JSON both, read as one).
    assert len(raws) == 4
    read = [case_id for raw in raws for case_id in raw.frame["case_id"]]
    assert sorted(read) == sorted(frame["case_id"])  # every row once
    assert reading.count_rows(source) == frame.height
    run = run_score(ScoreSettings(source=str(folder), db=str(tmp_path / "db.duckdb")))
    assert run["rows_in"] == run["rows_scored"] == frame.height


@pytest.mark.parametrize(
    ("tail", "said"),
    [
        (',"extra\n', "Value with unterminated quote found"),
        (",extra\n", "Expected Number of Columns"),
        ("\r\n\r\n", "lines were read as ending in LF, and a CR"),  # was "Error when sniffing"
    ],
    ids=["unbalanced-quote", "field-too-many", "line-ends-mixed"],
)
def test_a_csv_file_with_a_broken_line_among_many_fails_the_run_as_it_does_alone(
    tmp_path: Path, tail: str, said: str
) -> None:
    """CSV files alike by their header line are described once, at the first: a later one
    whose last line has an unbalanced quote lost that row without a word (29 rows in of 30,
    exit 0), and one with a field too many failed saying `schema mismatch in glob: column
    "case_id" ... could not be found`, not its line."""
    folder = one_row_files(tmp_path / "logs", ".csv", many_cases(30))
    bad = folder / "part-017.csv"
    bad.write_bytes(bad.read_bytes().rstrip(b"\n") + tail.encode())
    with pytest.raises(InputUnreadable) as alone:
        reading.resolve_source(bad)
    assert said in str(alone.value)
    with pytest.raises(InputUnreadable) as among_many:
        run_score(ScoreSettings(source=str(folder), db=str(tmp_path / "f.duckdb")))
    assert str(among_many.value) == str(alone.value)
