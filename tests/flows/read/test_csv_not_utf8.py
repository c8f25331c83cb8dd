"""A CSV line holding a byte UTF-8 cannot hold (a Windows-1252 export's "é", one corrupt byte)
quarantines its row as `<column>_not_utf8`, the byte written as its escape (`\\xe9`); every
other row is scored as from a clean file. It was exit 3 for the whole file, every night, until
someone re-saved it."""

from __future__ import annotations

import gzip
from pathlib import Path

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from flows.errors import InputUnreadable
from flows.read.formats import duckdb_frames
from flows.read.not_utf8 import csv_frames
from schemas import NOT_UTF8
from tests.support.cli_run import faith_here
from tests.support.db_reading import query

HEADER = "case_id,input,actual_output,retrieval_context,logged_at"
PASSAGES = '"[""Order A17 shipped on 3 March.""]"'
COLUMNS = HEADER.split(",")


def _good(i: int) -> str:
    return f"c{i},Where is A17?,Order A17 shipped.,{PASSAGES},2026-11-01"


def _export(path: Path, good_rows: int) -> Path:
    """`good_rows` UTF-8 rows, then one a Windows-1252 export writes ("café", "€"), then two."""
    bad = f"cbad,Prix?,Le café coûte 5 €.,{PASSAGES},2026-11-01"
    rows = [HEADER, *map(_good, range(good_rows)), bad, _good(good_rows), _good(good_rows + 1)]
    path.write_bytes("\n".join(rows).encode("cp1252") + b"\n")
    return path


@pytest.mark.parametrize(
    "good_rows",
    [
        2,  # DuckDB's sniffer meets the byte before a row is read
        3000,  # past the sniffer's sample: met while rows are read, batches already read
    ],
)
def test_a_line_that_is_not_utf8_quarantines_its_row_and_the_rest_is_scored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], good_rows: int
) -> None:
    source = _export(tmp_path / "export.csv", good_rows)
    db = tmp_path / "f.duckdb"
    argv = ["score", str(source), "--db", str(db), "--prefect", "no", "--batch-size", "1000"]
    argv += ["--max-quarantine-share", "0.5"]  # 1 row of 5 in the short file
    done = faith_here(capsys, *argv)
    assert done.returncode == 0, done.stderr
    rows_in = good_rows + 3
    assert query(db, "SELECT rows_in, rows_scored, rows_quarantined FROM runs") == [
        (rows_in, rows_in - 1, 1)
    ]
    assert query(db, 'SELECT "check", case_id, "column", value, source_file FROM quarantine') == [
        (
            "actual_output_not_utf8",
            "cbad",
            "actual_output",
            r"Le caf\xe9 co\xfbte 5 \x80.",
            str(source),
        )
    ]
    scored = query(db, "SELECT count(*), count(DISTINCT case_id) FROM case_scores")
    assert scored == [(rows_in - 1, rows_in - 1)]  # no row read twice where the read began again
    assert "quarantined by check: actual_output_not_utf8 1" in done.stdout
    again = faith_here(capsys, *argv)
    assert f"{rows_in - 1:,} scored (0 new)" in again.stdout


def test_a_whole_file_in_another_encoding_fails_the_run_on_the_quarantine_alarm(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Windows-1252 export's rows mostly hold an "é" or a "€": they are quarantined, and the
    run ends past --max-quarantine-share (exit 11) naming the check, so the night is not
    reported good."""
    rows = [HEADER, *(f"c{i},Prix?,Le café coûte {i} €.,{PASSAGES},2026-11-01" for i in range(9))]
    source = tmp_path / "export.csv"
    source.write_bytes("\n".join([*rows, _good(9)]).encode("cp1252") + b"\n")
    db = tmp_path / "f.duckdb"
    done = faith_here(capsys, "score", str(source), "--db", str(db), "--prefect", "no")
    assert done.returncode == 11, done.stderr
    assert "9 of 10 rows (90.0%) were quarantined" in done.stderr
    assert "top checks: actual_output_not_utf8 9" in done.stderr
    assert query(db, "SELECT rows_in, rows_scored, rows_quarantined FROM runs") == [(10, 1, 9)]


def test_a_folder_of_csv_files_names_each_row_by_its_own_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Files alike are read in one query: the run goes on from mended copies of the files that
    are not UTF-8, each row still named by its file, not by the copy's temporary path."""
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "a.csv").write_text("\n".join([HEADER, *map(_good, range(4))]) + "\n")
    bad_passage = b'cp,q,ok,"[""caf\xe9""]",2026-11-01'
    bad_id = b"c\xe9x,q,ok," + PASSAGES.encode() + b",2026-11-01"
    rows = [HEADER.encode(), _good(4).encode(), bad_passage, bad_id, _good(5).encode()]
    (folder / "b.csv").write_bytes(b"\n".join(rows) + b"\n")
    with gzip.open(folder / "c.csv.gz", "wb") as zipped:
        zipped.write(f"{HEADER}\n{_good(6)}\n".encode())
        zipped.write(b"cz,q,\x80\x81 two," + PASSAGES.encode() + b",2026-11-01\n")
    db = tmp_path / "f.duckdb"
    argv = ["score", str(folder), "--db", str(db), "--prefect", "no"]
    done = faith_here(capsys, *argv, "--max-quarantine-share", "0.5")
    assert done.returncode == 0, done.stderr
    quarantined = query(
        db, 'SELECT "check", case_id, value, source_file FROM quarantine ORDER BY case_id'
    )
    assert quarantined == [
        ("case_id_not_utf8", r"c\xe9x", r"c\xe9x", str(folder / "b.csv")),
        ("retrieval_context_not_utf8", "cp", r'["caf\xe9"]', str(folder / "b.csv")),
        ("actual_output_not_utf8", "cz", r"\x80\x81 two", str(folder / "c.csv.gz")),
    ]
    assert query(db, "SELECT rows_in, rows_scored, rows_quarantined FROM runs") == [(10, 7, 3)]


ANSWERS = st.binary(min_size=1, max_size=12).filter(
    # a field's own syntax left out; so is U+FFFD written before "x" and two hex digits, the
    # mend's own mark, which a valid line holding it would be read as (not_utf8.py)
    lambda raw: not set(raw) & set(b'",\r\n\x00') and b"\xef\xbf\xbdx" not in raw
)


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(answers=st.lists(ANSWERS, min_size=1, max_size=6))
def test_each_row_reads_as_written_or_is_marked_with_its_bytes_escaped(
    tmp_path: Path, answers: list[bytes]
) -> None:
    """Whatever the bytes: a UTF-8 answer reads as its text, and only in a row whose answer is
    not UTF-8 is `actual_output` named, its text the bytes Python escapes (`\\xe9`)."""
    path = tmp_path / "answers.csv"
    rows = [b"case_id,actual_output", *(b"c%d,%s" % (i, raw) for i, raw in enumerate(answers))]
    path.write_bytes(b"\n".join(rows) + b"\n")
    read = pl.concat(
        csv_frames([path], ["case_id", "actual_output"], 1000, None, None), how="diagonal"
    )
    assert read["actual_output"].to_list() == [
        raw.decode("utf-8", errors="backslashreplace") for raw in answers
    ]
    marked = read[NOT_UTF8].to_list() if NOT_UTF8 in read.columns else [[]] * len(answers)
    assert marked == [[] if _utf8(raw) else ["actual_output"] for raw in answers]


def _utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def test_a_conversation_log_holding_such_a_byte_is_exit_3_saying_so_without_its_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Conversations are read whole by one query (flows/read/turns.py): not mended, but named."""
    rows = [
        b"conversation_id,turn,role,content,logged_at,retrieval_context",
        b"k1,1,user,Where is A17?,2026-11-01,",
        b'k1,2,assistant,It shipped on 3 March.,2026-11-01,"[""Order A17 shipped on 3 March.""]"',
        b"k2,1,user,Prix?,2026-11-01,",
        b'k2,2,assistant,Le caf\xe9 co\xfbte 5.,2026-11-01,"[""x""]"',
    ]
    source = tmp_path / "turns.csv"
    source.write_bytes(b"\n".join(rows) + b"\n")
    db = tmp_path / "f.duckdb"
    done = faith_here(capsys, "score", str(source), "--db", str(db), "--prefect", "no")
    assert done.returncode == 3, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"error: {source}: cannot read it as conversations (")
    assert "CSV Error on Line: 5: not UTF-8 text" in line
    assert "iconv -f WINDOWS-1252 -t UTF-8" in line
    assert "Prix" not in line
    assert "caf" not in line


def test_met_after_batches_were_read_the_rest_is_read_once_more_from_the_mend(
    tmp_path: Path,
) -> None:
    """Past its first rows DuckDB stops at the byte mid-stream, after handing out batches: the
    mended copy is read from where those ended, so no row is read twice or lost."""
    path = tmp_path / "late.csv"
    rows = ["case_id,actual_output", *(f"c{i},The answer {i}." for i in range(120_000))]
    path.write_bytes("\n".join(rows).encode() + b"\ncz,caf\xe9 bad\nlast,The end.\n")
    heights: list[int] = []
    frames = duckdb_frames([path], "csv", 10_000, None, names=["case_id", "actual_output"])
    with pytest.raises(InputUnreadable, match="not UTF-8") as stopped:
        heights.extend(frame.height for frame in frames)
    assert isinstance(stopped.value.__cause__, OSError)  # pyarrow's, from the stream
    assert "Invalid unicode" in str(stopped.value.__cause__)
    before = sum(heights)
    assert before > 0  # DuckDB did hand out batches first: the case this test is about
    read = pl.concat(
        list(csv_frames([path], ["case_id", "actual_output"], 10_000, None, None)),
        how="diagonal",
    )
    assert read.height == 120_002
    assert read["case_id"].n_unique() == 120_002
    bad = read.filter(pl.col(NOT_UTF8).list.len() > 0)
    assert bad.select("case_id", "actual_output").rows() == [("cz", r"caf\xe9 bad")]
