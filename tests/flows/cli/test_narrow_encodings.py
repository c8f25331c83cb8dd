"""A terminal or pipe whose encoding cannot hold every character (PYTHONIOENCODING=ascii, a
latin-1 terminal) gets '?' for what it cannot show: `faith report` failed half-way through
its output with exit 1 on the first en dash."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from flows.printable import lossy_where_unencodable
from tests.support.cli_run import faith_here

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = str(ROOT / "data" / "sample" / "cases.parquet")


def test_a_report_printed_to_an_ascii_stream_shows_question_marks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "faith.duckdb"
    assert faith_here(capsys, "score", SAMPLE, "--db", str(db), "--prefect", "no").returncode == 0
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    done = subprocess.run(
        [sys.executable, "-m", "flows", "report", "--db", str(db)],
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    shown = done.stdout.decode("ascii")  # every byte is ASCII
    assert "?" in shown
    assert "pass rate" in shown.lower()


def test_only_a_stream_that_cannot_hold_every_character_is_made_lossy() -> None:
    narrow = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    lossy_where_unencodable(narrow)
    narrow.write("8–12 😊\n")
    narrow.flush()
    assert narrow.buffer.getvalue() == b"8?12 ?\n"  # type: ignore[attr-defined]
    wide = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    lossy_where_unencodable(wide)
    assert wide.errors == "strict"  # a UTF-8 stream is left as it is


def test_json_for_machines_is_escaped_not_made_lossy(monkeypatch: pytest.MonkeyPatch) -> None:
    """`faith compare --json` to an ASCII stream: every character escaped (the same JSON to
    a parser), where the stream's '?' would have changed a claim's text."""
    from flows.cli.compare_command import json_for_terminal

    result = {"claim": "Café au lait 😊 is free."}
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BytesIO(), encoding="ascii"))
    text = json_for_terminal(result)
    assert text.isascii()
    assert json.loads(text) == result
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BytesIO(), encoding="utf-8"))
    assert "Café au lait 😊" in json_for_terminal(result)  # a UTF-8 stream gets the text
