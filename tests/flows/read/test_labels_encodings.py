"""A labels CSV as a spreadsheet saves it: Excel on Windows writes "CSV (Comma delimited)" in
Windows-1252 and "Unicode Text" in UTF-16, Excel for Mac's "CSV (Macintosh)" ends its lines in
a lone CR. A labeller's notes column is ignored, so its "café"
must not refuse the file; an id or a label that is not UTF-8, or a UTF-16 file, is refused
with the way to convert it, not a decoder's message or the header's bytes."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from flows.errors import InputUnreadable
from flows.read.labels import read_labels

ROWS = [("a", "1", "the café is open"), ("b", "0", "“wrong” date – see ticket")]


def spreadsheet_csv(path: Path, encoding: str, rows: list[tuple[str, str, str]] = ROWS) -> Path:
    """`case_id,label,note` with CRLF line ends, in `encoding`."""
    lines = ["case_id,label,note", *(",".join(row) for row in rows)]
    path.write_bytes("\r\n".join(lines).encode(encoding) + b"\r\n")
    return path


def test_a_windows_1252_note_column_is_ignored_as_any_other_column(tmp_path: Path) -> None:
    labels = read_labels(spreadsheet_csv(tmp_path / "labels.csv", "cp1252"))
    assert labels.select("case_id", "label").rows() == [("a", True), ("b", False)]


def test_a_gzip_csv_with_a_windows_1252_note_is_read_too(tmp_path: Path) -> None:
    plain = spreadsheet_csv(tmp_path / "plain.csv", "cp1252")
    packed = tmp_path / "labels.csv.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    assert read_labels(packed).select("case_id", "label").rows() == [("a", True), ("b", False)]


def test_a_case_id_that_is_not_utf8_is_refused_with_the_way_to_convert_the_file(
    tmp_path: Path,
) -> None:
    path = spreadsheet_csv(tmp_path / "labels.csv", "cp1252", [("café-1", "1", "x")])
    with pytest.raises(InputUnreadable) as refused:
        read_labels(path)
    message = str(refused.value)
    assert "case_id holds text that is not UTF-8" in message
    assert "iconv -f WINDOWS-1252 -t UTF-8" in message
    assert "\n" not in message


def test_a_utf16_csv_is_refused_as_utf16_not_by_its_header_bytes(tmp_path: Path) -> None:
    path = spreadsheet_csv(tmp_path / "labels.csv", "utf-16")
    with pytest.raises(InputUnreadable) as refused:
        read_labels(path)
    message = str(refused.value)
    assert "UTF-16 text, not UTF-8" in message
    assert "iconv -f UTF-16 -t UTF-8" in message
    assert "\x00" not in message


@pytest.mark.parametrize("packed", [False, True], ids=["csv", "csv.gz"])
def test_a_csv_whose_lines_end_in_a_lone_cr_is_read(tmp_path: Path, packed: bool) -> None:
    """Excel for Mac's "CSV (Macintosh)": read as one line, its refusal listed the whole file
    as the header's columns (`found ['case_id', 'label\\ra', '1\\rb', ...]`)."""
    text = b'case_id,label,note\ra,1,"one\rline"\rb,0,x\r'
    path = tmp_path / ("labels.csv.gz" if packed else "labels.csv")
    path.write_bytes(gzip.compress(text) if packed else text)
    labels = read_labels(path)
    assert labels.select("case_id", "label").rows() == [("a", True), ("b", False)]


def test_a_mac_csv_whose_case_id_is_not_utf8_is_refused_with_its_encoding(tmp_path: Path) -> None:
    path = tmp_path / "labels.csv"
    path.write_bytes("case_id,label\rcafé-1,1\r".encode("mac_roman"))
    with pytest.raises(InputUnreadable, match="iconv -f MACINTOSH -t UTF-8"):
        read_labels(path)


def test_a_csv_not_named_csv_is_refused_saying_how_csv_is_told(tmp_path: Path) -> None:
    """A `.txt` export was refused as 'File out of specification: The file must end with PAR1',
    which says nothing of the rule that named it Parquet."""
    path = tmp_path / "labels.txt"
    path.write_text("case_id,label\na,1\n")
    with pytest.raises(InputUnreadable, match=r"read as CSV only when named \.csv or \.csv\.gz"):
        read_labels(path)
    broken = tmp_path / "labels.parquet"
    broken.write_bytes(b"PAR1 cut short")
    with pytest.raises(InputUnreadable) as refused:
        read_labels(broken)
    assert "not readable as Parquet" in str(refused.value)
    assert "named .csv" not in str(refused.value)
