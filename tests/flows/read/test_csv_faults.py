"""A CSV file with one line that does not fit (an unbalanced quote, a field too many) is exit 3
naming that line, nothing written. DuckDB's sniffer had given up on the dialect instead: it
read the file without quotes (every row quarantined, exit 11) or as one column named by the
header ('missing required columns case_id, ... (has: case_id,input,...)'). CSV dialects that
fit every line still read. A UTF-16 file is exit 3 saying so and how to convert it (a line that
is not UTF-8 quarantines its row: test_csv_not_utf8.py)."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from tests.support.cli_run import faith_here
from tests.support.db_reading import query

HEADER = "case_id,input,actual_output,retrieval_context,logged_at"
PASSAGES = '"[""Order A17 shipped on 3 March.""]"'


def _csv(path: Path, bad: str | None = None, header: str = HEADER) -> Path:
    """Five rows; the third (line 4 of the file) replaced by `bad` when given."""
    lines = [header]
    for i in range(5):
        good = f"c{i},Where is A17?,Order A17 shipped.,{PASSAGES},2026-11-01"
        lines.append(bad if bad is not None and i == 2 else good)
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize(
    ("bad", "says"),
    [
        (f'c2,Where is A17?,"Order A17 shipped.,{PASSAGES},2026-11-01', "unterminated quote"),
        (f"c2,Where is A17?,Order A17 shipped.,{PASSAGES},2026-11-01,x", "Columns: 5 Found: 6"),
    ],
)
def test_a_line_that_does_not_fit_is_exit_3_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bad: str, says: str
) -> None:
    source = _csv(tmp_path / "logs.csv", bad)
    db = tmp_path / "f.duckdb"
    done = faith_here(capsys, "score", str(source), "--db", str(db), "--prefect", "no")
    assert done.returncode == 3, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"error: {source}: not a readable CSV file (")
    assert "CSV Error on Line: 4: " in line
    assert says in line
    assert not db.exists() or query(db, "SELECT count(*) FROM case_scores") == [(0,)]


@pytest.mark.parametrize("name", ["logs.csv", "logs.csv.gz"])
def test_a_file_cut_inside_a_quoted_answer_is_said_to_be_still_being_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    # An exporter still writing it: the last answer, quoted for its comma, cut in the middle.
    rows = [f'c{i},Where is A17?,"Shipped, on 3 March.",{PASSAGES},2026-11-01' for i in range(3)]
    text = "\n".join([HEADER, *rows]).encode()[: -len(f'March.",{PASSAGES},2026-11-01')]
    source = tmp_path / name
    source.write_bytes(gzip.compress(text) if name.endswith(".gz") else text)
    db = tmp_path / "f.duckdb"
    done = faith_here(capsys, "score", str(source), "--db", str(db), "--prefect", "no")
    assert done.returncode == 3, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert "CSV Error on Line: 4: Value with unterminated quote" in line
    assert line.endswith(
        "; the file ends inside a quoted value: a file still being written, or a copy cut "
        "short? Write it under another name (FILE.tmp) and rename it when complete, or remove it)"
    )
    # an unbalanced quote in the middle of a file is no file cut short
    middle = _csv(tmp_path / "middle.csv", f'c2,Where is A17?,"Order A17,{PASSAGES},2026-11-01')
    done = faith_here(capsys, "score", str(middle), "--db", str(db), "--prefect", "no")
    assert done.returncode == 3
    assert "unterminated quote" in done.stderr
    assert "still being written" not in done.stderr


def test_a_last_line_with_a_field_too_many_is_named_not_taken_for_the_header(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """DuckDB's sniffer took a last line one field wider than the rest for the header line:
    the run said every column was missing and asked whether the header line was missing,
    where the file has it and its line 7 has a field too many."""
    lines = _csv(tmp_path / "clean.csv").read_text().splitlines()
    source = tmp_path / "logs.csv"
    source.write_text("\n".join([*lines, f"c5,Where is A17?,Order A17.,{PASSAGES},2026-11-01,x"]))
    done = faith_here(capsys, "score", str(source), "--db", str(tmp_path / "f.duckdb"))
    assert done.returncode == 3, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"error: {source}: not a readable CSV file (")
    assert "CSV Error on Line: 7: Expected Number of Columns: 5 Found: 6" in line


@pytest.mark.parametrize(
    ("header_end", "rows_end", "read_as"), [("\n", "\r\n", "LF"), ("\r\n", "\n", "CRLF")]
)
def test_lines_ending_both_in_crlf_and_lf_are_exit_3_saying_so(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    header_end: str,
    rows_end: str,
    read_as: str,
) -> None:
    """A header written with "\\n" and rows by Python's csv module (which ends them "\\r\\n"):
    DuckDB reads one line ending a file, and the run said only that its CSV parser 'reached
    an invalid state'."""
    rows = _csv(tmp_path / "clean.csv").read_text().splitlines()
    source = tmp_path / "logs.csv"
    source.write_bytes((rows[0] + header_end + rows_end.join(rows[1:]) + rows_end).encode())
    done = faith_here(capsys, "score", str(source), "--db", str(tmp_path / "f.duckdb"))
    assert done.returncode == 3, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"error: {source}: not a readable CSV file (")
    assert f"lines were read as ending in {read_as}" in line
    assert "do some lines end in CRLF and others in LF?" in line


def test_a_bad_file_among_many_alike_is_exit_3_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder of daily exports sharing one header line is read in one DuckDB query: a line
    with an unbalanced quote in the last one failed inside the stream of batches, where pyarrow
    raises OSError, and the run ended as a bug (exit 1, `error: OSError: ... schema mismatch
    in glob`), or named the folder's first file. hardening.md: a bad file among many fails the
    run with exit 3; input.md: naming the file."""
    folder = tmp_path / "logs"
    folder.mkdir()
    for day in range(1, 41):
        row = f"d{day},Where is A17?,Order A17 shipped.,{PASSAGES},2026-11-01"
        (folder / f"{day:02}.csv").write_text(HEADER + "\n" + row + "\n")
    bad = _csv(folder / "99.csv", f'c2,Where is A17?,"Order A17 shipped.,{PASSAGES},2026-11-01')
    db = tmp_path / "f.duckdb"
    done = faith_here(capsys, "score", str(folder), "--db", str(db), "--prefect", "no")
    assert done.returncode == 3, done.stderr
    line = done.stderr.strip().splitlines()[-1]
    assert line.startswith(f"error: {bad}: "), line
    assert not db.exists() or query(db, "SELECT count(*) FROM case_scores") == [(0,)]


def test_a_bad_file_among_conversation_files_is_exit_3_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Turns logged a file a day: DuckDB sniffs each file of a conversation source, and gave
    up on the one with an unbalanced quote, reading it as one column named by its header line,
    so its turns were quarantined as conversation_id_is_null and the run ended 0. Alone, the
    same file is exit 3 naming the line; in a folder it is too."""
    folder = tmp_path / "turns"
    folder.mkdir()
    header = "conversation_id,turn,role,content,logged_at"
    for day in range(1, 41):
        (folder / f"{day:02}.csv").write_text(
            f"{header}\nk{day},1,user,Where is A17?,2026-11-01\n"
            f"k{day},2,assistant,Order A17 shipped.,2026-11-01\n"
        )
    bad = folder / "99.csv"
    unbalanced = 'z,1,user,"Where is A17?,2026-11-01'
    bad.write_text(f"{header}\n{unbalanced}\nz,2,assistant,Order A17 shipped.,2026-11-01\n")
    db = tmp_path / "f.duckdb"
    done = faith_here(capsys, "score", str(folder), "--db", str(db), "--prefect", "no")
    assert done.returncode == 3, done.stderr
    line = done.stderr.strip().splitlines()[-1]
    assert line.startswith(f"error: {bad}: not a readable CSV file ("), line
    assert "CSV Error on Line: 2: " in line
    assert not db.exists() or query(db, "SELECT count(*) FROM quarantine") == [(0,)]


def test_other_dialects_that_fit_every_line_still_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Semicolons, quotes escaped by a backslash, and a bare quote inside an unquoted field."""
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "semicolon.csv").write_text(
        HEADER.replace(",", ";") + '\ns1;q;"Order A17; shipped.";' + PASSAGES + ";2026-11-01\n"
    )
    (folder / "backslash.csv").write_text(
        HEADER + '\nb1,q,"He said \\"shipped\\".","[\\"Order A17 shipped.\\"]",2026-11-01\n'
    )
    (folder / "inch.csv").write_text(HEADER + f'\ni1,q,A 5" screen.,{PASSAGES},2026-11-01\n')
    db = tmp_path / "f.duckdb"
    done = faith_here(capsys, "score", str(folder), "--db", str(db), "--prefect", "no")
    assert done.returncode == 0, done.stderr
    stored = query(db, "SELECT case_id, actual_output FROM case_scores ORDER BY case_id")
    assert stored == [
        ("b1", 'He said "shipped".'),
        ("i1", 'A 5" screen.'),
        ("s1", "Order A17; shipped."),
    ]


def test_lines_ending_in_a_lone_cr_read_as_any_other(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Excel for Mac's "CSV (Macintosh)" ends every line with a lone CR, which DuckDB reads:
    the header was split by Python's csv module as one line holding CRs, and the run ended
    with exit 1 and `new-line character seen in unquoted field`. A line of such a file that
    does not fit is named as in any other (exit 3)."""
    lines = [HEADER.replace(",", ";")]
    lines += [f'm{i};"Where is\rA17?";Order A17 shipped.;{PASSAGES};2026-11-01' for i in range(3)]
    source = tmp_path / "mac.csv"
    source.write_text("\r".join(lines) + "\r", newline="")
    db = tmp_path / "f.duckdb"
    done = faith_here(capsys, "score", str(source), "--db", str(db), "--prefect", "no")
    assert done.returncode == 0, done.stderr
    stored = query(db, "SELECT case_id, input, actual_output FROM case_scores ORDER BY case_id")
    assert stored == [(f"m{i}", "Where is\rA17?", "Order A17 shipped.") for i in range(3)]

    wide = tmp_path / "wide.csv"
    wide.write_text("\r".join([*lines, lines[1] + ";x"]) + "\r", newline="")
    done = faith_here(capsys, "score", str(wide), "--db", str(tmp_path / "g.duckdb"))
    assert done.returncode == 3, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"error: {wide}: not a readable CSV file (")
    assert "CSV Error on Line: 5: Expected Number of Columns: 5 Found: 6" in line


def test_a_utf16_file_is_exit_3_saying_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "export.csv"
    source.write_text(_csv(tmp_path / "plain.csv").read_text(), encoding="utf-16")
    done = faith_here(capsys, "score", str(source), "--db", str(tmp_path / "f.duckdb"))
    assert done.returncode == 3, done.stderr
    assert done.stderr.strip() == (
        f"error: {source}: UTF-16 text, not UTF-8; save the file as UTF-8, "
        "e.g. iconv -f UTF-16 -t UTF-8 FILE > NEW"
    )


@pytest.mark.parametrize("cut", ["short", "corrupt"])
def test_a_gzip_csv_cut_short_or_corrupt_is_exit_3_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cut: str
) -> None:
    """A .csv.gz whose stream ends before its end marker (a copy cut short) or whose deflate
    data is corrupt, in its header line: its header was read by Python's gzip, whose EOFError
    (or zlib.error) was exit 1, a bug's, with no file named."""
    packed = gzip.compress(_csv(tmp_path / "logs.csv").read_bytes())
    if cut == "short":
        packed = packed[:30]
    else:
        packed = packed[:12] + bytes(b ^ 0xFF for b in packed[12:40]) + packed[40:]
    source = tmp_path / "logs.csv.gz"
    source.write_bytes(packed)
    db = tmp_path / "f.duckdb"
    done = faith_here(capsys, "score", str(source), "--db", str(db), "--prefect", "no")
    assert done.returncode == 3, done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith(f"error: {source}: ")


def test_a_csv_without_its_header_line_is_exit_3_without_the_rows_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """DuckDB reads the first row as the header: its values were listed as the columns the file
    has, a log's text in the run's error line. A header that names other columns is listed."""
    rows = _csv(tmp_path / "with-header.csv").read_text().splitlines()[1:]
    source = tmp_path / "export.csv"
    source.write_text("\n".join(rows) + "\n")
    done = faith_here(capsys, "score", str(source), "--db", str(tmp_path / "f.duckdb"))
    assert done.returncode == 3, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert "(has: 5 columns whose names read as a row of data" in line
    assert "is the header line missing?" in line
    assert "Where is A17" not in line
    assert "Order A17" not in line
    renamed = tmp_path / "renamed.csv"
    renamed.write_text("\n".join(["id,question,answer,contexts,logged_at", *rows]) + "\n")
    done = faith_here(capsys, "score", str(renamed), "--db", str(tmp_path / "g.duckdb"))
    assert done.returncode == 3, done.stderr
    assert "(has: id, question, answer, contexts, logged_at)" in done.stderr


def test_a_line_past_16_mb_among_the_first_is_named_not_an_error_sniffing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """DuckDB's sniffer gives up on a file whose first lines hold one past the line limit and
    says only 'Error when sniffing file': no line, no reason. The line is named with its size
    (docs/hardening.md), as a later line is."""
    answer = "Order A17 shipped on 3 March. " * (17 * 1024 * 1024 // 30 + 1)
    bad = f"c2,Where is A17?,{answer},{PASSAGES},2026-11-01"
    source = _csv(tmp_path / "logs.csv", bad)
    db = tmp_path / "f.duckdb"
    done = faith_here(capsys, "score", str(source), "--db", str(db), "--prefect", "no")
    assert done.returncode == 3, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"error: {source}: not a readable CSV file (")
    size = len(bad.encode())
    assert f"(line 4 is {size:,} bytes: a CSV line past 16 MiB is not read: " in line
    assert "Order A17" not in line
