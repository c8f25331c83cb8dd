"""Control characters of user text are shown, never obeyed, in every terminal output (issue
22, item 7): `faith report --segment app_version` printed segment values' raw `ESC[31m` and
`ESC]0;title BEL` to the terminal."""

from __future__ import annotations

from pathlib import Path

import pytest

from flows.cli.commands import main
from flows.printable import printable, printable_line
from tests.support.builders import case_row, cases, write

RED, TITLE = "\x1b[31mred", "\x1b]0;owned\x07"
RAW = ("\x1b", "\x07", "\x9b", "\u202e")


def assert_no_controls(text: str) -> None:
    found = [repr(char) for char in RAW if char in text]
    assert not found, f"{found} reached the terminal: {text!r}"


def test_segment_values_are_escaped_in_the_report(tmp_path: Path, capsys) -> None:
    rows = [
        case_row("a", app_version=RED),
        case_row("b", app_version=TITLE),
        case_row("c", app_version="2.4.0\u202eevil"),
    ]
    # A folder named with an escape sequence: the source path is user text too.
    source = write(cases(rows), tmp_path / "logs\x1b[2J" / "cases.parquet")
    db = tmp_path / "f\x1b[5m.duckdb"
    assert main(["score", str(source.parent), "--db", str(db), "--prefect", "no"]) == 0
    capsys.readouterr()
    assert main(["report", "--db", str(db), "--segment", "app_version"]) == 0
    shown = capsys.readouterr()
    assert_no_controls(shown.out + shown.err)
    assert "\\x1b[31mred" in shown.out
    assert "\\x1b]0;owned\\x07" in shown.out
    assert "\\u202eevil" in shown.out
    assert main(["runs", "--db", str(db)]) == 0
    shown = capsys.readouterr()
    assert_no_controls(shown.out + shown.err)
    assert "\\x1b[5m" in shown.out  # the title names the database


@pytest.mark.parametrize(
    "column",
    [
        pytest.param("[link=https://evil.example/]app[/link]", id="link"),
        pytest.param("[blink]app[/blink]", id="blink"),
        pytest.param("app[/]", id="stray-close"),
    ],
)
def test_a_segment_column_named_in_rich_markup_is_shown_as_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], column: str
) -> None:
    """The segment table's first column is headed by the column's name, which a log names:
    rich read it as markup, so `[link=…]app[/link]` printed `app` as a hidden link to another
    site, `[blink]` made the header blink, and a stray `[/]` ended the report with exit 1."""
    logged = cases([case_row("a")]).rename({"app_version": column})
    source = write(logged, tmp_path / "cases.parquet")
    db = tmp_path / "f.duckdb"
    assert main(["score", str(source), "--db", str(db), "--prefect", "no"]) == 0
    capsys.readouterr()
    assert main(["report", "--db", str(db), "--segment", column]) == 0
    out = capsys.readouterr().out
    header = next(line for line in out.splitlines() if "cases" in line and "failed" in line)
    assert column in header, header


def test_error_lines_and_log_lines_are_escaped(tmp_path: Path, capsys) -> None:
    missing = tmp_path / "no\x1b]0;owned\x07such.parquet"
    assert main(["score", str(missing), "--db", str(tmp_path / "f.duckdb"), "--prefect", "no"]) == 3
    shown = capsys.readouterr()
    assert_no_controls(shown.err)
    assert "no\\x1b]0;owned\\x07such.parquet" in shown.err


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("plain text, tabs\tand\nlines", "plain text, tabs\tand\\nlines"),
        ("breaks \r\x0b\x0c\x85\u2028\u2029", "breaks \\r\\x0b\\x0c\\x85\\u2028\\u2029"),
        ("a\x1b[31mb", "a\\x1b[31mb"),
        ("bell\x07 back\x08 cr\r del\x7f", "bell\\x07 back\\x08 cr\\r del\\x7f"),
        ("c1 csi \x9b31m", "c1 csi \\x9b31m"),
        ("bidi \u202eabc\u2066", "bidi \\u202eabc\\u2066"),
        ("arabic letter mark \u061c1.2", "arabic letter mark \\u061c1.2"),
        ("naïve café 東京", "naïve café 東京"),
    ],
)
def test_printable_escapes_controls_and_keeps_text(text: str, shown: str) -> None:
    assert printable(text) == shown
    assert len(printable(text).splitlines()) == 1
    assert "\n" not in printable_line(text)
    assert "\t" not in printable_line(text)
