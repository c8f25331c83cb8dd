"""A file DuckDB cannot describe is asked about once: the failure was dropped by the facts
gathered for the source, and the file described again (as long again) when it was checked:
a CSV of 34 MB lines took 8 s more to end exit 3."""

from __future__ import annotations

from pathlib import Path

import pytest

import flows.read.file_facts as file_facts
from tests.support.cli_run import faith_here

HEADER = "case_id,input,actual_output,retrieval_context,logged_at\n"
GOOD = '{"case_id": "c1", "input": "q", "actual_output": "A.", "retrieval_context": ["A."]}\n'


@pytest.mark.parametrize(
    ("name", "text", "says"),
    [
        ("logs.csv", HEADER + 'c1,q,"A.,"[""A.""]",2026-11-01\n', "unterminated quote"),
        ("logs.jsonl", GOOD + '{"case_id": "c2", "input": bad json\n', "Malformed JSON"),
    ],
    ids=["csv", "json"],
)
def test_a_file_duckdb_cannot_describe_is_asked_about_once(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    name: str,
    text: str,
    says: str,
) -> None:
    described: list[Path] = []
    real = file_facts._described

    def counted(con: object, path: Path, fmt: str) -> object:
        described.append(path)
        return real(con, path, fmt)

    monkeypatch.setattr(file_facts, "_described", counted)
    source = tmp_path / name
    source.write_text(text)
    db = str(tmp_path / "f.duckdb")
    done = faith_here(capsys, "score", str(source), "--db", db, "--prefect", "no")
    assert done.returncode == 3, done.stderr
    assert says in done.stderr
    assert described == [source]
