"""docs/conversations.md's examples run as written (issue 23): the `faith score` line with
--columns and --case-id content, the warehouse export recipe, and the conversation_scores
query; and `faith nightly` takes the same read options as `faith score`."""

from __future__ import annotations

import datetime as dt
import json
import re
import shlex
from pathlib import Path

import duckdb
import polars as pl
import pytest

from flows.cli.commands import build_parser, main
from flows.cli.settings import run_settings
from tests.support.builders import many_cases
from tests.support.db_reading import query

DOC = Path(__file__).parents[3] / "docs" / "conversations.md"
TESTED = re.compile(r"<!-- tested: [^>]+ -->\n```(\w+)\n(.*?)```", re.DOTALL)


def _tested_blocks(language: str) -> list[str]:
    return [code for lang, code in TESTED.findall(DOC.read_text()) if lang == language]


def test_the_score_line_with_columns_and_content_ids(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (line,) = [block for block in _tested_blocks("shell") if "--case-id content" in block]
    frame = many_cases(8).drop("case_id")
    frame = frame.rename(
        {"input": "question", "actual_output": "answer", "retrieval_context": "contexts"}
    ).rename({"logged_at": "ts"})
    texts = [json.dumps(v) for v in frame["contexts"].to_list()]
    frame.with_columns(contexts=pl.Series(texts)).write_csv(tmp_path / "logs.csv")
    monkeypatch.chdir(tmp_path)
    args = shlex.split(line)
    assert args[:2] == ["faith", "score"]
    assert main([*args[1:], "--db", str(tmp_path / "doc.duckdb"), "--prefect", "no"]) == 0
    assert query(tmp_path / "doc.duckdb", "SELECT count(*) FROM case_scores") == [(8,)]


def test_the_score_line_with_a_column_name_holding_a_comma(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (line,) = [block for block in _tested_blocks("shell") if "answer, final" in block]
    frame = many_cases(3).rename(
        {"input": "question", "actual_output": "answer, final", "retrieval_context": 'docs "v2"'}
    )
    texts = [json.dumps(v) for v in frame['docs "v2"'].to_list()]
    frame.with_columns(pl.Series('docs "v2"', texts)).write_csv(tmp_path / "logs.csv")
    monkeypatch.chdir(tmp_path)
    args = shlex.split(line)
    assert main([*args[1:], "--db", str(tmp_path / "doc.duckdb"), "--prefect", "no"]) == 0
    assert query(tmp_path / "doc.duckdb", "SELECT count(*) FROM case_scores") == [(3,)]


def test_the_warehouse_export_and_the_conversation_query(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocks = _tested_blocks("sql")
    export = next(block for block in blocks if "COPY" in block)
    report = next(block for block in blocks if "conversation_scores" in block)
    warehouse = duckdb.connect(str(tmp_path / "warehouse.duckdb"))
    at = dt.datetime(2026, 11, 2, 9, 0)
    warehouse.execute(
        "CREATE TABLE chat_messages (thread_id VARCHAR, seq INTEGER, author VARCHAR, "
        "body VARCHAR, passages VARCHAR[], created_at TIMESTAMP, app_version VARCHAR)"
    )
    rows = [
        ("t1", 1, "user", "Where is order A17?", None),
        ("t1", 2, "assistant", "Order A17 was cancelled.", ["Order A17 shipped on 3 March."]),
        ("t2", 1, "user", "Where is order A17?", None),
        ("t2", 2, "assistant", "Order A17 shipped on 3 March.", ["Order A17 shipped on 3 March."]),
    ]
    warehouse.executemany(
        "INSERT INTO chat_messages VALUES (?, ?, ?, ?, ?, ?, '2.5.0')",
        [(*row, at) for row in rows],
    )
    warehouse.close()
    monkeypatch.chdir(tmp_path)
    con = duckdb.connect()
    con.execute(export)
    con.close()
    assert main(["score", "turns.parquet", "--db", "doc.duckdb", "--prefect", "no"]) == 0
    found = query(tmp_path / "doc.duckdb", report)
    assert [(row[0], row[-1]) for row in found] == [("t1", 2)]
    # the same conversations at another pass mark, over the day they were logged
    at_zero = next(block for block in blocks if "conversation_results(" in block)
    assert query(tmp_path / "doc.duckdb", at_zero) == [("t1", True, None), ("t2", True, None)]


def test_nightly_and_serve_take_the_read_options() -> None:
    for command in ("nightly", "serve", "score"):
        options = ["--columns", "input=question", "--format", "csv", "--case-id", "content"]
        args = build_parser().parse_args([command, "logs/", *options, "--conversation-window", "6"])
        settings = run_settings(args, flow="nightly" if command != "score" else "score")
        assert settings.columns == {"input": "question"}
        assert (settings.format, settings.case_id, settings.conversation_window) == (
            "csv",
            "content",
            6,
        )


def test_prefect_yaml_shows_the_read_options_as_settings_take_them() -> None:
    import yaml

    from flows.run.settings import ScoreSettings

    text = (DOC.parents[1] / "prefect.yaml").read_text()
    keys = ("columns", "format", "case_id", "conversation_window")
    shown = [
        line.strip().removeprefix("# ")
        for line in text.splitlines()
        if line.strip().removeprefix("# ").split(":")[0] in keys
    ]
    settings = ScoreSettings(source="logs/", **yaml.safe_load("\n".join(shown)))
    assert settings.columns["input"] == "question"
    assert (settings.format, settings.case_id, settings.conversation_window) == (
        "csv",
        "content",
        4,
    )


def test_the_content_id_the_doc_spells_out_is_the_one_a_run_stores(tmp_path: Path) -> None:
    """The doc's example row, logged with an offset in a CSV file, has the id it says."""
    said = re.search(r"is the case\s+`([0-9a-f]{32})`", DOC.read_text())
    assert said is not None
    (tmp_path / "logs.csv").write_text(
        "input,actual_output,retrieval_context,logged_at\n"
        "Where is order A17?,Order A17 shipped on 3 March.,"
        '"[""Order A17 shipped on 3 March by courier.""]",2026-11-01T10:00:00.5+01:00\n'
    )
    db = tmp_path / "doc.duckdb"
    argv = ["score", str(tmp_path / "logs.csv"), "--case-id", "content", "--db", str(db)]
    assert main([*argv, "--prefect", "no"]) == 0
    assert query(db, "SELECT case_id FROM case_scores") == [(said.group(1),)]
