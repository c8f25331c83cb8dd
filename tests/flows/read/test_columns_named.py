"""`--columns` naming a column the source has nowhere is exit 3 before anything is read, as a
missing required column is: a conversation's optional columns (its id, its passages, its time
in a chat log) mapped under a misspelt name were ignored without a word, and the log scored
all the same, named by its lines, judged without its passages, or every turn quarantined."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from flows.errors import InputUnreadable
from flows.read.read_options import ReadOptions, parse_columns
from flows.read.source import resolve_source
from tests.support.cli_run import faith_here
from tests.support.db_reading import query
from tests.support.ledger import balanced_run

SHIPPED = "Order A17 shipped on 3 March."
# A support bot's own export: none of its names is the contract's.
CHAT = {
    "session": "s1",
    "created": "2026-11-01T09:00:00Z",
    "msgs": [
        {"role": "user", "content": "Where is A17?"},
        {"role": "assistant", "content": SHIPPED},
    ],
    "docs": [SHIPPED],
}
NAMES = {
    "messages": "msgs",
    "conversation_id": "session",
    "logged_at": "created",
    "retrieval_context": "docs",
}
TURNS = [
    {"thread": "t1", "turn": 1, "role": "user", "content": "Where is A17?"},
    {"thread": "t1", "turn": 2, "role": "assistant", "content": SHIPPED, "docs": [SHIPPED]},
]


def _chat_log(tmp_path: Path) -> Path:
    source = tmp_path / "chats.jsonl"
    source.write_text(json.dumps(CHAT) + "\n")
    return source


def _turns(tmp_path: Path) -> Path:
    source = tmp_path / "turns.jsonl"
    source.write_text(
        "".join(json.dumps({**t, "logged_at": CHAT["created"]}) + "\n" for t in TURNS)
    )
    return source


def test_a_chat_log_mapped_by_its_own_names_scores_its_conversation(tmp_path: Path) -> None:
    db = tmp_path / "f.duckdb"
    run = balanced_run(_chat_log(tmp_path), db, columns=NAMES)
    assert (run["rows_in"], run["rows_scored"]) == (1, 1)
    assert query(db, "SELECT case_id, score FROM case_scores") == [("s1:2", 1.0)]


@pytest.mark.parametrize(
    ("contract", "typo"),
    [("conversation_id", "sesion"), ("retrieval_context", "dcos"), ("logged_at", "created_at")],
    ids=["conversation_id", "retrieval_context", "logged_at"],
)
def test_a_chat_log_mapping_a_misspelt_column_is_refused_naming_it(
    tmp_path: Path, contract: str, typo: str
) -> None:
    """Before: `conversation_id=sesion` named the conversation `line-1`, `retrieval_context=dcos`
    judged its answer against nothing it read (scored 0), `logged_at=created_at` quarantined
    every turn; each a run that wrote its rows."""
    source = _chat_log(tmp_path)
    with pytest.raises(InputUnreadable) as refused:
        resolve_source(str(source), ReadOptions(columns={**NAMES, contract: typo}))
    assert str(refused.value) == (
        f"{source}: --columns {contract}={typo} names no column of it (has: session, created, "
        "msgs, docs): correct the name, or leave the mapping out"
    )


def test_a_table_of_turns_mapping_misspelt_passages_is_refused(tmp_path: Path) -> None:
    source = _turns(tmp_path)
    columns = {"conversation_id": "thread", "retrieval_context": "passages"}
    with pytest.raises(InputUnreadable, match=r"--columns retrieval_context=passages names no"):
        resolve_source(str(source), ReadOptions(columns=columns))


def test_a_mapped_column_one_file_of_a_folder_has_is_read(tmp_path: Path) -> None:
    """A night's export that gained its passages column beside one without it: the mapping
    names a column of the source, so the folder is read, each file as it is."""
    logs = tmp_path / "logs"
    logs.mkdir()
    old = [{k: v for k, v in t.items() if k != "docs"} for t in TURNS]
    (logs / "day1.jsonl").write_text(
        "".join(json.dumps({**t, "thread": "t0", "logged_at": CHAT["created"]}) + "\n" for t in old)
    )
    (_turns(tmp_path)).rename(logs / "day2.jsonl")
    columns = {"conversation_id": "thread", "retrieval_context": "docs"}
    run = balanced_run(logs, tmp_path / "f.duckdb", columns=columns, max_invalid_share=1)
    assert (run["rows_in"], run["rows_scored"]) == (2, 2)


def test_a_column_whose_name_holds_a_comma_is_mapped_in_double_quotes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A pandas or spreadsheet export's column `answer, final` could not be mapped: `--columns`
    split it at its comma (exit 2, `--columns 'final': write CONTRACT_NAME=SOURCE_COLUMN`).
    Written in double quotes (a quote inside doubled), it is one column."""
    source = tmp_path / "logs.csv"
    source.write_text(
        'case_id,question,"answer, final","docs ""v2""",logged_at\n'
        f'c1,Where is A17?,{SHIPPED},"[""{SHIPPED}""]",2026-11-01\n'
    )
    db = tmp_path / "f.duckdb"
    columns = 'input=question,actual_output="answer, final",retrieval_context="docs ""v2"""'
    done = faith_here(capsys, "score", str(source), "--db", str(db), "--columns", columns)
    assert done.returncode == 0, done.stderr
    assert query(db, "SELECT case_id, score FROM case_scores") == [("c1", 1.0)]


def test_a_comma_left_unquoted_says_how_to_quote_it(capsys: pytest.CaptureFixture[str]) -> None:
    done = faith_here(capsys, "score", "x.csv", "--columns", "actual_output=answer, final")
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "error: --columns 'final': write CONTRACT_NAME=SOURCE_COLUMN (a column whose name holds "
        'a comma in double quotes: actual_output="answer, final")'
    )


def test_a_quoted_column_keeps_its_spaces_and_an_unquoted_one_is_trimmed() -> None:
    assert parse_columns('input = " question ", actual_output= answer ') == {
        "input": " question ",
        "actual_output": "answer",
    }


@pytest.mark.parametrize("suffix", ["csv", "jsonl", "parquet"])
def test_two_contract_columns_logged_the_other_way_round_are_mapped_onto_each_other(
    tmp_path: Path, suffix: str
) -> None:
    """An export that wrote the answer under `input` and the question under `actual_output`
    was refused by its own mapping, `--columns input=actual_output,actual_output=input`: it
    `maps onto input, actual_output, which it has already: map that column too`, though each
    was mapped. Each column is renamed once, and the case reads as a clean one does."""
    frame = pl.DataFrame(
        {
            "case_id": ["c1"],
            "input": [SHIPPED],
            "actual_output": ["Where is A17?"],
            "retrieval_context": [[SHIPPED]],
            "logged_at": ["2026-11-01"],
        }
    )
    source = tmp_path / f"logs.{suffix}"
    if suffix == "csv":  # the passages as a JSON list in their cell
        frame.with_columns(retrieval_context=pl.lit(json.dumps([SHIPPED]))).write_csv(source)
    elif suffix == "jsonl":
        frame.write_ndjson(source)
    else:
        frame.write_parquet(source)
    db = tmp_path / "f.duckdb"
    columns = parse_columns("input=actual_output,actual_output=input")
    run = balanced_run(source, db, columns=columns)
    assert (run["rows_in"], run["rows_scored"]) == (1, 1)
    assert query(db, "SELECT input, actual_output, score FROM case_scores") == [
        ("Where is A17?", SHIPPED, 1.0)
    ]


def test_a_table_of_turns_with_two_columns_the_other_way_round_is_mapped(tmp_path: Path) -> None:
    source = tmp_path / "turns.jsonl"
    swapped = [{**t, "role": t["content"], "content": t["role"]} for t in TURNS]
    source.write_text(
        "".join(json.dumps({**t, "logged_at": CHAT["created"]}) + "\n" for t in swapped)
    )
    db = tmp_path / "f.duckdb"
    columns = {
        "conversation_id": "thread",
        "retrieval_context": "docs",
        "role": "content",
        "content": "role",
    }
    run = balanced_run(source, db, columns=columns)
    assert (run["rows_in"], run["rows_scored"]) == (1, 1)
    assert query(db, "SELECT case_id, actual_output, score FROM case_scores") == [
        ("t1:2", SHIPPED, 1.0)
    ]
