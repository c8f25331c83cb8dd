"""The common other spellings of a turn's role are read, not quarantined: LangChain's `human`
and `ai`, OpenAI's `developer` and `function`, in a table of turns and in a chat log alike;
and LangChain's own message dicts in a chat log (`type` where OpenAI has `role`, and
`messages_to_dict()`'s `{type, data}`). Such logs had every message quarantined as
role_not_in_vocabulary (exit 11, nothing scored). Every run here asserts rows in = scored +
invalid + pending + quarantined."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.db_reading import query
from tests.support.ledger import balanced_run

AT = "2026-11-01T12:00:00Z"
QUESTION = "Where is order A17?"
SHIPPED = "Order A17 shipped on 3 March."
PASSAGE = "Order A17 shipped on 3 March by courier."
CASES = "SELECT case_id, input, actual_output, segments ->> 'context_origins' FROM case_scores"


def _run(source: Path, db: Path) -> dict:
    return balanced_run(source, db, max_invalid_share=1, max_quarantine_share=None)


def _jsonl(path: Path, lines: list[dict]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_a_table_of_turns_reads_human_ai_developer_and_function(tmp_path: Path) -> None:
    """The roles LangChain and OpenAI write, any case: the same case as user/assistant."""
    turns = [
        (1, "Developer", "Answer from the order system only."),
        (2, "HUMAN", QUESTION),
        (3, "function", PASSAGE),
        (4, "ai", SHIPPED),
        (5, "narrator", "Once upon a time."),  # no role of any spelling: still quarantined
    ]
    rows = [
        {"conversation_id": "t1", "turn": n, "role": role, "content": text, "logged_at": AT}
        for n, role, text in turns
    ]
    db = tmp_path / "t.duckdb"
    run = _run(_jsonl(tmp_path / "turns.jsonl", rows), db)
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (2, 1, 1)
    assert query(db, CASES) == [
        ("t1:4", QUESTION, SHIPPED, '["tool","turn:1:system","turn:2:user"]')
    ]
    assert query(db, 'SELECT "check", case_id, value FROM quarantine') == [
        ("role_not_in_vocabulary", "t1:5", "narrator")
    ]


def test_a_chat_log_of_langchain_messages_is_read(tmp_path: Path) -> None:
    """`role: human/ai`, LangChain's `type` (model_dump()), and messages_to_dict()'s
    `{type, data}` with a tool call in `data.tool_calls`: three logs of the same exchange,
    each scored as its OpenAI spelling is."""
    call = [{"name": "lookup_order", "args": {"order": "A17"}, "id": "c1", "type": "tool_call"}]
    by_role = [
        {"role": "system", "content": "Answer from the order system only."},
        {"role": "human", "content": QUESTION},
        {"role": "ai", "content": "", "tool_calls": call},
        {"role": "tool", "content": PASSAGE, "tool_call_id": "c1"},
        {"role": "ai", "content": SHIPPED},
    ]
    by_type = [{"type": m["role"], **{k: v for k, v in m.items() if k != "role"}} for m in by_role]
    as_dicts = [{"type": m["type"], "data": {**m, "id": None}} for m in by_type]
    openai = [{**m, "role": {"human": "user", "ai": "assistant"}.get(m["role"], m["role"])}
              for m in by_role]  # fmt: skip
    logs = [
        {"id": name, "logged_at": AT, "messages": messages}
        for name, messages in [("role", by_role), ("type", by_type), ("data", as_dicts)]
    ]
    db = tmp_path / "lc.duckdb"
    run = _run(_jsonl(tmp_path / "chat.jsonl", logs), db)
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (3, 3, 0)
    origins = '["tool","turn:1:system","turn:2:user"]'
    assert query(db, f"{CASES} ORDER BY 1") == [
        (f"{name}:5", QUESTION, SHIPPED, origins) for name in ("data", "role", "type")
    ]
    reference = tmp_path / "openai.duckdb"
    _run(_jsonl(tmp_path / "openai.jsonl", [{"id": "role", "logged_at": AT, "messages": openai}]),
         reference)  # fmt: skip
    hashes = "SELECT DISTINCT content_hash, score FROM case_scores"
    assert query(db, hashes) == query(reference, hashes)


def test_a_support_bots_bot_and_geminis_model_are_the_assistant(tmp_path: Path) -> None:
    """Support platforms (Rasa, Bot Framework, Botpress) log the answer's author as `bot`,
    Gemini as `model`: every answer of such a log was quarantined as role_not_in_vocabulary
    (exit 11 every night, nothing scored, and no option to say what the role means). A
    human support agent's `agent` is no assistant of the bot: still quarantined."""
    turns = [
        (1, "user", QUESTION),
        (2, "Bot", SHIPPED),
        (3, "user", QUESTION),
        (4, "model", SHIPPED),
    ]
    rows = [
        {"conversation_id": "t1", "turn": n, "role": role, "content": text, "logged_at": AT}
        for n, role, text in [*turns, (5, "agent", "A colleague will call you.")]
    ]
    db = tmp_path / "t.duckdb"
    run = _run(_jsonl(tmp_path / "turns.jsonl", rows), db)
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (3, 2, 1)
    assert [case for case, *_ in query(db, CASES + " ORDER BY 1")] == ["t1:2", "t1:4"]
    chat = {
        "id": "c1",
        "logged_at": AT,
        "messages": [{"role": role, "content": text} for _, role, text in turns],
        "retrieval_context": [PASSAGE],
    }
    db = tmp_path / "c.duckdb"
    run = _run(_jsonl(tmp_path / "chats.jsonl", [chat]), db)
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (2, 2, 0)
