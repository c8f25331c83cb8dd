"""How a chat log's conversation is named when the log gives it no `conversation_id`: by its
`id`, else by its line in its own file, so a folder of nightly logs keeps every
conversation's name (and score) as files are added beside it or rotated away."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.db_reading import query
from tests.support.ledger import balanced_run

AT = "2026-11-01T09:00:00Z"


def _chat(question: str, answer: str, passage: str) -> dict:
    return {
        "logged_at": AT,
        "messages": [
            {"role": "user", "content": question},
            {"role": "assistant", "content": answer, "retrieval_context": [passage]},
        ],
    }


A17 = _chat("Where is A17?", "Order A17 shipped on 3 March.", "Order A17 shipped on 3 March.")
VISA = _chat("Card?", "We accept Visa.", "We accept Visa and Mastercard.")
MASTERCARD = _chat("Card?", "We accept Mastercard.", "We accept Visa and Mastercard.")


def _write(path: Path, chats: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(chat) + "\n" for chat in chats))


def _scored(db: Path) -> list[tuple]:
    return query(db, "SELECT case_id, actual_output FROM case_scores ORDER BY case_id")


def test_a_folders_chats_without_ids_are_named_by_their_line_in_their_own_file(
    tmp_path: Path,
) -> None:
    """Numbered over the whole folder, day 2's first chat was `line-2` beside day 1's file and
    `line-1` once log rotation removed it: it took day 1's case `line-1:2`, whose score it
    replaced, and was stored a second time. Named by its file, each keeps its name."""
    logs, db = tmp_path / "logs", tmp_path / "f.duckdb"
    _write(logs / "day1.jsonl", [A17])
    _write(logs / "day2.jsonl", [VISA, MASTERCARD])
    balanced_run(logs, db)
    named = [
        ("day1.jsonl:line-1:2", "Order A17 shipped on 3 March."),
        ("day2.jsonl:line-1:2", "We accept Visa."),
        ("day2.jsonl:line-2:2", "We accept Mastercard."),
    ]
    assert _scored(db) == named

    (logs / "day1.jsonl").unlink()  # rotated away
    _write(logs / "day0.jsonl", [VISA])  # a late file whose name sorts first
    again = balanced_run(logs, db)
    assert (again["rows_in"], again["rows_replaced"]) == (3, 0)
    assert _scored(db) == [("day0.jsonl:line-1:2", "We accept Visa."), *named]


def test_a_chat_log_read_alone_is_named_by_its_lines_and_a_hive_folders_by_path(
    tmp_path: Path,
) -> None:
    """SOURCE a file: `line-N`, as always; a file below `key=value` folders is named by its
    path under SOURCE."""
    day = tmp_path / "logs" / "day=2026-11-01" / "part-0.jsonl"
    _write(day, [A17, VISA])
    balanced_run(day, tmp_path / "one.duckdb")
    assert [case for case, _ in _scored(tmp_path / "one.duckdb")] == ["line-1:2", "line-2:2"]
    balanced_run(tmp_path / "logs", tmp_path / "all.duckdb")
    assert [case for case, _ in _scored(tmp_path / "all.duckdb")] == [
        "day=2026-11-01/part-0.jsonl:line-1:2",
        "day=2026-11-01/part-0.jsonl:line-2:2",
    ]


def test_each_line_without_a_conversation_id_is_named_by_its_id_else_its_line(
    tmp_path: Path,
) -> None:
    """A JSON Lines log whose exporter changed keys: a line with `id` alone beside one with
    `conversation_id` had its every message quarantined as conversation_id_is_null (alone in
    its file, it was scored under its id). Each line falls back by itself."""
    log = tmp_path / "chats.jsonl"
    _write(log, [{**A17, "id": "a1"}, {**VISA, "conversation_id": "c2"}, MASTERCARD])
    db = tmp_path / "f.duckdb"
    run = balanced_run(log, db)
    assert (run["rows_in"], run["rows_quarantined"]) == (3, 0)
    assert [case for case, _ in _scored(db)] == ["a1:2", "c2:2", "line-3:2"]
    conversations = "SELECT conversation_id FROM conversation_scores ORDER BY 1"
    assert query(db, conversations) == [("a1",), ("c2",), ("line-3",)]


def test_a_lines_whole_float_id_is_the_same_number_beside_a_conversation_id(
    tmp_path: Path,
) -> None:
    """A line's `id` 7.0 (pandas' float column) names it 7 alone in its file; beside a line
    with `conversation_id` its fallback was taken as written, `7.0:2`: the same turn under a
    second name, scored twice once the other line came or went."""
    alone, beside = tmp_path / "alone.jsonl", tmp_path / "beside.jsonl"
    _write(alone, [{**VISA, "id": 7.0}])
    _write(beside, [{**VISA, "id": 7.0}, {**A17, "conversation_id": 2}])
    balanced_run(alone, tmp_path / "alone.duckdb")
    balanced_run(beside, tmp_path / "beside.duckdb")
    assert [case for case, _ in _scored(tmp_path / "alone.duckdb")] == ["7:2"]
    assert [case for case, _ in _scored(tmp_path / "beside.duckdb")] == ["2:2", "7:2"]


def test_a_blank_conversation_id_is_no_id_and_the_line_is_named_as_without_one(
    tmp_path: Path,
) -> None:
    """An exporter writing "" for a missing id (a CSV cell left empty reads as null, and was
    named by its line): in JSON Lines every message of such a line was quarantined as
    conversation_id_is_null, the log's answers unscored. A blank id, `conversation_id` or
    `id`, is none: each line is its own conversation, named by its `id`, else its line."""
    log = tmp_path / "chats.jsonl"
    blank = [
        {**A17, "conversation_id": ""},
        {**VISA, "conversation_id": " ", "id": "x9"},
        {**MASTERCARD, "conversation_id": "", "id": ""},
    ]
    _write(log, blank)
    db = tmp_path / "f.duckdb"
    run = balanced_run(log, db)
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (3, 3, 0)
    assert _scored(db) == [
        ("line-1:2", "Order A17 shipped on 3 March."),
        ("line-3:2", "We accept Mastercard."),
        ("x9:2", "We accept Visa."),
    ]
