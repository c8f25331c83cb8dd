"""A chat log as Anthropic's Messages API writes it: a tool's results are `tool_result` parts of
a user message, an assistant's call a `tool_use` part. The answer after the results is judged
against them, as after an OpenAI `tool` message; the call alone is a tool-call step."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.db_reading import query
from tests.support.ledger import balanced_run

AT = "2026-11-01T09:00:00Z"
RESULT = "Order B2 left the depot on 4 May."


def _conversation(result: object) -> dict:
    return {
        "conversation_id": "b2",
        "logged_at": AT,
        "system": "You are the shop's assistant.",  # Anthropic's system prompt: a segment
        "messages": [
            {"role": "user", "content": "Where is order B2?"},
            {"role": "assistant", "content": [
                {"type": "tool_use", "id": "toolu_1", "name": "track", "input": {"order": "B2"}},
            ]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": result},
            ]},
            {"role": "assistant", "content": [
                {"type": "text", "text": f"{RESULT} It arrives by drone."},
            ]},
        ],
    }  # fmt: skip


@pytest.mark.parametrize(
    "result",
    [
        RESULT,
        [{"type": "text", "text": RESULT}],
        [
            {"type": "image", "source": {"type": "base64", "data": "..."}},
            {"type": "text", "text": RESULT},
        ],
    ],
    ids=["text", "text parts", "an image and text"],
)
def test_a_tool_result_part_is_the_next_answers_context(tmp_path: Path, result: object) -> None:
    log = tmp_path / "chats.jsonl"
    log.write_text(json.dumps(_conversation(result)) + "\n")
    db = tmp_path / "faith.duckdb"
    run = balanced_run(log, db)
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (1, 1, 0)
    verdicts = query(
        db,
        "SELECT case_id, claim, verdict, supported_by FROM claim_verdicts ORDER BY claim_index",
    )
    assert verdicts == [
        ("b2:4", RESULT, "yes", "passage"),  # the tool result
        ("b2:4", "It arrives by drone.", "idk", None),
    ]
    (segments,) = query(db, "SELECT segments FROM case_scores")[0]
    assert json.loads(json.loads(segments)["context_origins"]) == ["tool", "turn:1:user"]


def test_an_answer_beside_its_tool_call_is_a_case_and_a_user_turn_of_text_stays_a_users(
    tmp_path: Path,
) -> None:
    """Text beside a `tool_use` part is what the user read (as beside OpenAI's tool_calls);
    a user message of text parts is the user's, not a tool's."""
    chat = _conversation(RESULT)
    chat["messages"][1]["content"].insert(0, {"type": "text", "text": "Order B2 is on its way."})
    chat["messages"][0]["content"] = [{"type": "text", "text": "Where is order B2?"}]
    log = tmp_path / "chats.jsonl"
    log.write_text(json.dumps(chat) + "\n")
    db = tmp_path / "faith.duckdb"
    run = balanced_run(log, db, max_invalid_share=1)
    assert run["rows_in"] == 2
    found = query(db, "SELECT case_id, input FROM case_scores ORDER BY case_id")
    assert found == [("b2:2", "Where is order B2?"), ("b2:4", "Where is order B2?")]
