"""Every error line and log line is one line, whatever line breaks user text carries: a
segment value with a newline once split the exit-15 `error:` line (and the log line before
it) in two, the second a forged `error: FAKE …` line."""

from __future__ import annotations

import datetime as dt
import logging
import re
from pathlib import Path

import pytest

from flows.cli.commands import main
from tests.support.builders import ANSWERS, case_row, cases, write

FORGED = "2.4.0\nerror: FAKE second line \x1b[31mred"
BREAKS = ("\r", "\n", "\x0b", "\x0c", "\x85", "\u2028", "\u2029")
# A log line starts with its time; an error line with `error:`.
LINE = re.compile(r"(\d\d:\d\d:\d\d |error: )")


def split_anywhere(text: str) -> list[str]:
    """`text` cut at every line break a terminal or a log viewer would cut at, and more
    (str.splitlines cuts at \\r, \\n, \\x0b, \\x0c, \\x1c-\\x1e, \\x85, \\u2028, \\u2029)."""
    return text.splitlines()


def day_rows(day: dt.date, n: int, answer: str) -> list[dict]:
    start = dt.datetime.combine(day, dt.time(8, 0))
    return [
        case_row(
            f"{day:%m%d}-{i:03d}",
            answer,
            logged_at=start + dt.timedelta(minutes=i),
            app_version=FORGED,
        )
        for i in range(n)
    ]


def test_a_forged_segment_value_cannot_break_the_alert_lines(tmp_path: Path, capsys) -> None:
    source, db = tmp_path / "logs", tmp_path / "n.duckdb"
    first = dt.date(2026, 10, 1)
    history = [row for d in range(10) for row in day_rows(first + dt.timedelta(d), 20, ANSWERS[0])]
    write(cases(history), source / "history.parquet")
    nightly = ["nightly", str(source), "--db", str(db), "--prefect", "no"]
    assert main(nightly) == 0
    capsys.readouterr()
    unfaithful = "The moon is made of green cheese and zebras sing opera."
    write(cases(day_rows(first + dt.timedelta(10), 40, unfaithful)), source / "night.parquet")

    assert main(nightly) == 15
    err = capsys.readouterr().err
    lines = split_anywhere(err)
    assert all(LINE.match(line) for line in lines), lines
    (error,) = [line for line in lines if line.startswith("error:")]
    assert "segment 2.4.0\\nerror: FAKE second line \\x1b[31mred)" in error
    (logged,) = [line for line in lines if "segment 2.4.0" in line and line[0].isdigit()]
    assert "2.4.0\\nerror: FAKE" in logged


def test_every_line_break_of_an_error_line_is_shown(tmp_path: Path, capsys) -> None:
    name = "no" + "".join(f"{c}error: forged{i}" for i, c in enumerate(BREAKS)) + ".parquet"
    code = main(
        ["score", str(tmp_path / name), "--db", str(tmp_path / "f.duckdb"), "--prefect", "no"]
    )
    assert code == 3
    (line,) = split_anywhere(capsys.readouterr().err)
    assert line.startswith("error: ")
    for shown in ("\\r", "\\n", "\\x0b", "\\x0c", "\\x85", "\\u2028", "\\u2029"):
        assert f"{shown}error: forged" in line


@pytest.mark.parametrize("brk", BREAKS)
def test_a_log_line_with_a_line_break_stays_one_line(brk: str, capsys) -> None:
    from flows.cli.output import configure_logging

    configure_logging()
    logging.getLogger("faithpipe").info("segment %s", f"2.4.0{brk}error: FAKE")
    (line,) = split_anywhere(capsys.readouterr().err)
    assert "segment 2.4.0\\" in line
    assert line.endswith("error: FAKE")


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["report", "--periods", "0"], "error: faith report: argument --periods: must be a whole"),
        (["bogus"], "error: faith: argument COMMAND: invalid choice: 'bogus'"),
        (["score"], "error: faith score: the following arguments are required: SOURCE"),
        (["cache", "bogus"], "error: faith cache: argument ACTION: invalid choice"),
        (
            ["score", "logs/", "--batch-size", str(2**64)],  # "all in one batch": was exit 1
            "error: faith score: argument --batch-size: must be a whole number from 1 to",
        ),
    ],
)
def test_a_usage_error_is_one_line_too(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """argparse printed its usage block before the error: five lines of a scheduler's log
    for one mistyped option."""
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    (line,) = split_anywhere(capsys.readouterr().err)
    assert line.startswith(says), line
    assert line.endswith("--help)")
