"""A turn's `content` given as a list (QA defect): content parts (strings, or OpenAI's
`{type, text}` objects) are read as their text, one part a line, in a table of turns as in a
chat log; any other list (`[1, 2]`) is quarantined as `content_wrong_type`, never judged as
its JSON text. A turns file of list contents only failed the run (exit 1, BinderException
on trim(VARCHAR[])); now its turns are read or quarantined and the run goes on. Every run
here asserts rows in = scored + invalid + pending + quarantined."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from flows.read.turns import USER_QUARANTINED
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.db_reading import query

AT = "2026-11-01T12:00:00Z"
SHIPPED = "Order A17 shipped on 3 March."
PASSAGES = [f"{SHIPPED[:-1]} by courier."]
ANSWERS = "SELECT case_id, actual_output FROM case_scores ORDER BY 1"
QUARANTINED = 'SELECT "check", case_id, "column", value FROM quarantine ORDER BY 2'


def _turns(contents: list[tuple[object, object]]) -> list[dict]:
    """One conversation a pair (the user's content, the assistant's)."""
    rows = []
    for n, (question, answer) in enumerate(contents, start=1):
        base = {"conversation_id": f"c{n}", "logged_at": AT}
        rows.append({**base, "turn": 1, "role": "user", "content": question})
        rows.append(
            {
                **base,
                "turn": 2,
                "role": "assistant",
                "content": answer,
                "retrieval_context": PASSAGES,
            }
        )
    return rows


def _write(rows: list[dict], path: Path) -> Path:
    if path.suffix == ".jsonl":
        path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    else:
        path.write_text(json.dumps(rows))
    return path


def _score(source: Path, db: Path) -> dict:
    run = run_score(ScoreSettings(source=str(source), db=str(db), max_quarantine_share=None))
    assert run["rows_in"] == (
        run["rows_scored"] + run["rows_invalid"] + run["rows_pending"] + run["rows_quarantined"]
    )
    return run


@pytest.mark.parametrize("suffix", [".json", ".jsonl"])
def test_lists_among_text_contents_are_parts_or_quarantined(tmp_path: Path, suffix: str) -> None:
    source = _write(
        _turns(
            [
                ("Where is A17?", SHIPPED),
                ("Where is A17?", [{"type": "text", "text": SHIPPED}]),
                ("Where is A17?", ["Order A17 shipped", "on 3 March."]),
                ("Where is A17?", [1, 2]),
                ("Where is A17?", [{"type": "text", "text": 5}]),
            ]
        ),
        tmp_path / f"turns{suffix}",
    )
    run = _score(source, tmp_path / "t.duckdb")
    assert run["rows_in"] == 5
    assert run["rows_quarantined"] == 2
    assert query(tmp_path / "t.duckdb", ANSWERS) == [
        ("c1:2", SHIPPED),
        ("c2:2", SHIPPED),
        ("c3:2", "Order A17 shipped\non 3 March."),
    ]
    assert query(tmp_path / "t.duckdb", QUARANTINED) == [
        ("content_wrong_type", "c4:2", "content", "[1,2]"),
        ("content_wrong_type", "c5:2", "content", '[{"type":"text","text":5}]'),
    ]


@pytest.mark.parametrize("suffix", [".json", ".jsonl"])
def test_a_file_of_list_contents_only_is_read(tmp_path: Path, suffix: str) -> None:
    """Every content a list of strings: DuckDB types the column VARCHAR[], and the run failed
    on trim(VARCHAR[]) (exit 1)."""
    source = _write(
        _turns([(["Where is A17?"], [SHIPPED]), (["Where", "is A17?"], ["It shipped", "today."])]),
        tmp_path / f"lists{suffix}",
    )
    run = _score(source, tmp_path / "l.duckdb")
    assert (run["rows_in"], run["rows_quarantined"]) == (2, 0)
    assert query(tmp_path / "l.duckdb", ANSWERS) == [
        ("c1:2", SHIPPED),
        ("c2:2", "It shipped\ntoday."),
    ]
    assert query(tmp_path / "l.duckdb", "SELECT input FROM case_scores ORDER BY case_id") == [
        ("Where is A17?",),
        ("Where\nis A17?",),
    ]


QUESTION_WITH_IMAGE = [
    {"type": "text", "text": "Where is A17? Here is my receipt."},
    {"type": "image_url", "image_url": {"url": "https://example.com/receipt.png"}},
]


@pytest.mark.parametrize("suffix", [".json", ".jsonl", ".parquet"])
def test_text_and_image_parts_in_a_file_of_parts_only_are_read(tmp_path: Path, suffix: str) -> None:
    """Every content a list of parts: DuckDB reads them as structs (Parquet holds them so),
    each part with every key, an image's `text` null; the question of text and image was
    quarantined as content_wrong_type, and the answer to it lost its question and passages
    (invalid). The image adds no text, as when the part has no `text` key."""
    rows = _turns([(QUESTION_WITH_IMAGE, [{"type": "text", "text": SHIPPED}])])
    rows[0]["retrieval_context"] = PASSAGES
    rows[1]["retrieval_context"] = None
    if suffix == ".parquet":
        pl.DataFrame(rows).write_parquet(source := tmp_path / "parts.parquet")
    else:
        source = _write(rows, tmp_path / f"parts{suffix}")
    run = _score(source, tmp_path / "p.duckdb")
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (1, 1, 0)
    assert query(
        tmp_path / "p.duckdb", "SELECT case_id, input, actual_output FROM case_scores"
    ) == [("c1:2", "Where is A17? Here is my receipt.", SHIPPED)]


def test_text_and_image_parts_in_a_chat_log_of_parts_only_are_read(tmp_path: Path) -> None:
    """The same in a chat log whose every message's content is parts (read as structs)."""
    messages = [
        {"role": "user", "content": QUESTION_WITH_IMAGE, "retrieval_context": PASSAGES},
        {"role": "assistant", "content": [{"type": "text", "text": SHIPPED}]},
    ]
    source = tmp_path / "chat.jsonl"
    source.write_text(json.dumps({"id": "x1", "logged_at": AT, "messages": messages}) + "\n")
    run = _score(source, tmp_path / "c.duckdb")
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (1, 1, 0)
    assert query(tmp_path / "c.duckdb", "SELECT input, score FROM case_scores") == [
        ("Where is A17? Here is my receipt.", 1.0)
    ]


@pytest.mark.parametrize("suffix", [".json", ".jsonl"])
def test_a_file_of_number_lists_only_is_quarantined(tmp_path: Path, suffix: str) -> None:
    """No content of the file can be read as text: every turn quarantined, the run complete."""
    source = _write(_turns([([1], [2, 3])]), tmp_path / f"numbers{suffix}")
    run = _score(source, tmp_path / "n.duckdb")
    assert (run["status"], run["rows_in"], run["rows_quarantined"]) == ("completed", 2, 2)
    assert query(tmp_path / "n.duckdb", QUARANTINED) == [
        ("content_wrong_type", "c1:1", "content", "[1]"),
        ("content_wrong_type", "c1:2", "content", "[2,3]"),
    ]


def test_a_chat_message_of_a_number_list_is_quarantined(tmp_path: Path) -> None:
    """A chat log's content parts keep their text; `[1, 2]` was read as a blank answer."""
    line = {
        "id": "x1",
        "logged_at": AT,
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "Where is A17?"}]},
            {
                "role": "assistant",
                "content": [{"type": "text", "text": SHIPPED}],
                "retrieval_context": PASSAGES,
            },
            {"role": "user", "content": "And B2?"},
            {"role": "assistant", "content": [1, 2], "retrieval_context": PASSAGES},
        ],
    }
    source = tmp_path / "chat.jsonl"
    source.write_text(json.dumps(line) + "\n")
    run = _score(source, tmp_path / "c.duckdb")
    assert (run["rows_in"], run["rows_quarantined"]) == (2, 1)
    assert query(tmp_path / "c.duckdb", ANSWERS) == [("x1:2", SHIPPED)]
    assert query(tmp_path / "c.duckdb", QUARANTINED) == [
        ("content_wrong_type", "x1:4", "content", "[1,2]")
    ]


def test_an_answer_after_a_quarantined_question_is_not_given_an_earlier_one(
    tmp_path: Path,
) -> None:
    """The user turn before the answer is quarantined (content `[1, 2]`): the answer's input
    was the question before that, which it does not answer (the docs say: never)."""
    rows = _turns([("Where is A17?", SHIPPED)])
    base = {"conversation_id": "c1", "logged_at": AT, "retrieval_context": PASSAGES}
    rows.append({**base, "turn": 3, "role": "user", "content": [1, 2]})
    rows.append({**base, "turn": 4, "role": "assistant", "content": SHIPPED})
    rows.append({**base, "turn": 5, "role": "user", "content": "And B2?"})
    rows.append({**base, "turn": 6, "role": "assistant", "content": SHIPPED})
    run = _score(_write(rows, tmp_path / "turns.jsonl"), tmp_path / "q.duckdb")
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (4, 3, 1)
    assert query(tmp_path / "q.duckdb", "SELECT case_id, input FROM case_scores ORDER BY 1") == [
        ("c1:2", "Where is A17?"),
        ("c1:4", USER_QUARANTINED),
        ("c1:6", "And B2?"),
    ]
