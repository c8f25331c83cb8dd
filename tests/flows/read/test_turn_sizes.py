"""A turn past the size limits, in a table of turns: cut to its start before the reader's
JSON functions see it and quarantined as a case's row past them is, with the case's check
names by the turn's role. One 50 MB passage had run the reader out of 2 GB: exit 7 on every
night the log was read, nothing scored. Here the reader has 128 MB (both its tries), which a
value of 10 MB ran out of the same way: the same failure at a fifth of the suite's time."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.db_reading import query

AT = dt.datetime(2026, 11, 1, 9, 0)
SHIPS = "The parcel ships from Leeds."
HUGE = f"{SHIPS} " * 360_000  # 10,440,000 bytes: past --max-context-bytes' 8 MiB
TOO_LARGE = "10440000 bytes, more than --max-context-bytes 8388608"


@pytest.fixture
def small_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    """The conversation reader with 128 MB for both its tries, which a 10 MB value ran out."""
    import flows.read.turns as turns

    monkeypatch.setattr(turns, "_MEMORY", "128MB")
    monkeypatch.setattr(turns, "_LARGE_MEMORY", "128MB")


def _turn(cid: str, turn: int, role: str, content: str, passages: list[str] | None = None) -> dict:
    return {"conversation_id": cid, "turn": turn, "role": role, "content": content,
            "retrieval_context": passages, "logged_at": AT}  # fmt: skip


def _score(tmp_path: Path, rows: list[dict], **limits: int) -> tuple[dict, list, list]:
    source = tmp_path / "turns.parquet"
    pq.write_table(pa.Table.from_pylist(rows), source)
    db = tmp_path / "f.duckdb"
    run = run_score(
        ScoreSettings(source=str(source), db=str(db), max_quarantine_share=1.0, **limits)
    )
    quarantined = query(
        db, 'SELECT case_id, "check", "column", value, row_json FROM quarantine ORDER BY 1'
    )
    scored = query(db, "SELECT case_id, status FROM case_scores ORDER BY 1")
    return run, quarantined, scored


@pytest.mark.usefixtures("small_reader")
def test_a_huge_passage_in_a_table_of_turns_is_quarantined_and_the_rest_scored(
    tmp_path: Path,
) -> None:
    rows = [
        _turn("c1", 1, "user", "Where does it ship from?"),
        _turn("c1", 2, "assistant", "It ships from Leeds.", [HUGE]),
        _turn("c2", 1, "user", "Where does it ship from?"),
        _turn("c2", 2, "assistant", "It ships from Leeds.", [SHIPS]),
    ]
    run, quarantined, scored = _score(tmp_path, rows)
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (2, 1, 1)
    assert scored == [("c2:2", "scored")]
    ((case_id, check, column, value, row_json),) = quarantined
    assert (case_id, check, column) == ("c1:2", "retrieval_context_too_large", "retrieval_context")
    assert value == TOO_LARGE
    assert "bytes in 1 passages]" in row_json
    assert len(row_json) < 2_000


def test_each_role_is_held_to_its_limit_under_the_checks_a_case_has(tmp_path: Path) -> None:
    long = "The parcel ships from Leeds on weekdays only. " * 4  # 184 bytes
    rows = [
        _turn("q", 1, "user", long),  # a question: --max-answer-bytes
        _turn("q", 2, "assistant", "It ships from Leeds.", [SHIPS]),
        _turn("a", 1, "user", "Where?"),
        _turn("a", 2, "assistant", long, [SHIPS]),  # an answer: --max-answer-bytes
        _turn("t", 1, "user", "Where?"),
        _turn("t", 2, "tool", long * 2),  # a tool's result is context: --max-context-bytes
        _turn("t", 3, "assistant", "It ships from Leeds.", [SHIPS]),
        _turn("p", 1, "user", "Where?"),
        _turn("p", 2, "assistant", "It ships from Leeds.", [long, long]),  # passages, added up
        _turn("w", 1, "user", "Where?"),
        _turn("w", 2, "tool", long),  # within --max-context-bytes
        _turn("w", 3, "assistant", "It ships from Leeds.", [SHIPS]),
    ]
    run, quarantined, scored = _score(tmp_path, rows, max_answer_bytes=100, max_context_bytes=300)
    checks = {case_id: (check, column, value) for case_id, check, column, value, _ in quarantined}
    answer_limit = "184 bytes, more than --max-answer-bytes 100"
    assert checks == {
        "q:1": ("input_too_large", "content", answer_limit),
        "a:2": ("actual_output_too_large", "content", answer_limit),
        "t:2": ("retrieval_context_too_large", "content",
                "368 bytes, more than --max-context-bytes 300"),
        "p:2": ("retrieval_context_too_large", "retrieval_context",
                "368 bytes, more than --max-context-bytes 300"),
    }  # fmt: skip
    # Each kept value is its start and its size: 184 bytes is within KEPT_CHARS whole.
    row_json = {case_id: text for case_id, *_, text in quarantined}
    assert "… [184 bytes]" in row_json["a:2"]
    assert run["rows_in"] == run["rows_scored"] + run["rows_quarantined"]
    assert {("w:3", "scored"), ("t:3", "scored")} <= set(scored)


# A chat log's answer with its own passage.
ANSWER = {"role": "assistant", "content": "It ships from Leeds.", "retrieval_context": [SHIPS]}


def _score_chat(tmp_path: Path, chats: list[dict], **limits: int) -> tuple[dict, list, list]:
    source = tmp_path / "chat.jsonl"
    source.write_text("".join(json.dumps(chat) + "\n" for chat in chats))
    db = tmp_path / "chat.duckdb"
    run = run_score(
        ScoreSettings(source=str(source), db=str(db), max_quarantine_share=1.0, **limits)
    )
    quarantined = query(
        db, 'SELECT case_id, "check", "column", value, row_json FROM quarantine ORDER BY 1'
    )
    return run, quarantined, query(db, "SELECT case_id, status FROM case_scores ORDER BY 1")


OWN = {"role": "assistant", "content": "It is insured.", "retrieval_context": ["It is insured."]}
# (chat log, the cases scored, the quarantined case and its column): a huge tool result, and
# huge passages of the conversation's own, copied onto each answer without passages of its own
HUGE_CHATS = {
    "tool result": ([
        {"conversation_id": "k1", "logged_at": "2026-11-01T09:00:00", "messages": [
            {"role": "user", "content": "Where does it ship from?"},
            {"role": "tool", "content": HUGE},
            {"role": "assistant", "content": "It ships from Leeds."}]},
        {"conversation_id": "k2", "logged_at": "2026-11-01T09:00:00", "messages": [
            {"role": "user", "content": "Where does it ship from?"}, ANSWER]},
    ], ["k1:3", "k2:2"], ("k1:2", "content")),
    "conversation passages": ([
        {"conversation_id": "k1", "logged_at": "2026-11-01T09:00:00",
         "retrieval_context": [HUGE], "messages": [
            {"role": "user", "content": "Where does it ship from?"},
            {"role": "assistant", "content": "It ships from Leeds."},
            {"role": "user", "content": "Is it insured?"}, OWN]},
        {"conversation_id": "k2", "logged_at": "2026-11-01T09:00:00",
         "retrieval_context": [SHIPS], "messages": [
            {"role": "user", "content": "Where does it ship from?"},
            {"role": "assistant", "content": "It ships from Leeds."}]},
    ], ["k1:4", "k2:2"], ("k1:2", "retrieval_context")),
}  # fmt: skip


@pytest.mark.usefixtures("small_reader")
@pytest.mark.parametrize("huge", ["tool result", "conversation passages"])
def test_a_huge_value_in_a_chat_log_is_quarantined_and_the_rest_scored(
    tmp_path: Path, huge: str
) -> None:
    """The same in a chat log: its messages, and the conversation's passages, are cut before
    chat_turns.sql reads them as JSON (exit 7 before, after a second try with 2 GB); the
    answers read with cut passages are quarantined, one with passages of its own scored."""
    chats, scored_ids, (quarantined_id, column) = HUGE_CHATS[huge]
    run, quarantined, scored = _score_chat(tmp_path, chats)
    assert run["rows_in"] == run["rows_scored"] + run["rows_quarantined"] == 3
    assert scored == [(case_id, "scored") for case_id in scored_ids]
    ((case_id, check, where, value, row_json),) = quarantined
    assert (case_id, check, where) == (quarantined_id, "retrieval_context_too_large", column)
    assert value == TOO_LARGE
    assert len(row_json) < 2_000


def test_a_chat_logs_messages_are_held_to_their_roles_limits(tmp_path: Path) -> None:
    long = "The parcel ships from Leeds on weekdays only. " * 4  # 184 bytes
    parts = [{"type": "text", "text": long}]  # content parts: a JSON value, cut as its text
    chats = [
        {"conversation_id": "q", "messages": [
            {"role": "user", "content": long},
            ANSWER]},
        {"conversation_id": "a", "messages": [
            {"role": "user", "content": "Where?"},
            {"role": "assistant", "content": parts, "retrieval_context": [SHIPS]}]},
        {"conversation_id": "p", "messages": [
            {"role": "user", "content": "Where?"},
            {"role": "assistant", "content": "It ships.", "retrieval_context": [long, long]}]},
        {"conversation_id": "w", "messages": [
            {"role": "user", "content": "Where?"},
            {"role": "tool", "content": long},
            ANSWER]},
    ]  # fmt: skip
    for chat in chats:
        chat["logged_at"] = "2026-11-01T09:00:00"
    run, quarantined, scored = _score_chat(
        tmp_path, chats, max_answer_bytes=100, max_context_bytes=300
    )
    checks = {case_id: (check, column) for case_id, check, column, _, _ in quarantined}
    assert checks == {
        "q:1": ("input_too_large", "content"),
        "a:2": ("actual_output_too_large", "content"),
        "p:2": ("retrieval_context_too_large", "retrieval_context"),
    }
    assert run["rows_in"] == run["rows_scored"] + run["rows_quarantined"]
    assert ("w:3", "scored") in scored


def test_langchain_types_and_anthropic_tool_results_are_held_to_a_tools_limit(
    tmp_path: Path,
) -> None:
    """A message's role read as chat_turns.sql reads it: LangChain's `type` where a log mixes
    it with OpenAI's `role` (its messages then have both keys, one null), and an Anthropic
    user message of `tool_result` parts, which is a tool's turn. Each was held to
    --max-answer-bytes and quarantined as an answer or a question within the tool's limit."""
    long = "The parcel ships from Leeds on weekdays only. " * 4  # 184 bytes
    result = [{"type": "tool_result", "tool_use_id": "t1", "content": long}]
    call = [{"type": "tool_use", "id": "t1", "name": "stock", "input": {}}]
    chats = [
        {"conversation_id": "o", "messages": [
            {"role": "user", "content": "Where?"},
            ANSWER]},
        {"conversation_id": "l", "messages": [
            {"type": "human", "content": "Where?"},
            {"type": "tool", "content": long},  # within --max-context-bytes
            {"type": "ai", "content": "It ships from Leeds.", "retrieval_context": [SHIPS]}]},
        {"conversation_id": "a", "messages": [
            {"role": "user", "content": "Where?"},
            {"role": "assistant", "content": call},
            {"role": "user", "content": result},  # within --max-context-bytes
            {"role": "assistant", "content": "It ships from Leeds."}]},
        {"conversation_id": "q", "messages": [
            {"type": "human", "content": long},  # a question: --max-answer-bytes
            {"type": "ai", "content": "It ships from Leeds.", "retrieval_context": [SHIPS]}]},
    ]  # fmt: skip
    for chat in chats:
        chat["logged_at"] = "2026-11-01T09:00:00"
    run, quarantined, scored = _score_chat(
        tmp_path, chats, max_answer_bytes=100, max_context_bytes=300
    )
    assert [(case_id, check) for case_id, check, *_ in quarantined] == [("q:1", "input_too_large")]
    assert {("l:3", "scored"), ("a:4", "scored")} <= set(scored)
    assert run["rows_in"] == run["rows_scored"] + run["rows_quarantined"]


def _chat_parquet(tmp_path: Path, chats: list[dict]) -> Path:
    """A chat log as a Parquet file whose `messages` is a string column of JSON text."""
    rows = [{**chat, "messages": json.dumps(chat["messages"])} for chat in chats]
    source = tmp_path / "chat.parquet"
    pq.write_table(pa.Table.from_pylist(rows), source)
    return source


def _langchain(chat: dict) -> dict:
    """A chat log's conversation with its messages as LangChain's messages_to_dict writes
    them: `{type, data: {content, ...}}`."""
    types = {"user": "human", "assistant": "ai", "tool": "tool", "system": "system"}
    messages = [
        {"type": types[m["role"]], "data": {k: v for k, v in m.items() if k != "role"}}
        for m in chat["messages"]
    ]
    return {**chat, "messages": messages}


@pytest.mark.usefixtures("small_reader")
@pytest.mark.parametrize(
    "form", ["JSON text in Parquet", "LangChain messages_to_dict", "OpenAI and LangChain mixed"]
)
def test_a_huge_tool_result_in_a_chat_log_of_any_form_is_quarantined_unread(
    tmp_path: Path, form: str
) -> None:
    """Messages as JSON text (a Parquet string column, a CSV cell) and LangChain's
    `{type, data: {content}}` were read whole by chat_turns.sql's JSON functions: a 50 MB tool
    result was exit 7 on every night (here 10 MB against 128 MB). Each message past its limit
    is now cut and marked before they read it, as a list of message objects' is. So is a
    log that holds both OpenAI's messages and LangChain's (an app that moved to LangChain's
    chat histories): its messages have both forms' keys, and `data` was read whole."""
    chats, scored_ids, (quarantined_id, column) = HUGE_CHATS["tool result"]
    if form == "JSON text in Parquet":
        source = _chat_parquet(tmp_path, chats)
    else:
        source = tmp_path / "chat.jsonl"
        mixed = form == "OpenAI and LangChain mixed"
        lines = [_langchain(chat) if i == 0 or not mixed else chat for i, chat in enumerate(chats)]
        source.write_text("".join(json.dumps(line) + "\n" for line in lines))
    db = tmp_path / "chat.duckdb"
    run = run_score(ScoreSettings(source=str(source), db=str(db), max_quarantine_share=1.0))
    assert run["rows_in"] == run["rows_scored"] + run["rows_quarantined"] == 3
    scored = query(db, "SELECT case_id, status FROM case_scores ORDER BY 1")
    assert scored == [(case_id, "scored") for case_id in scored_ids]
    ((case_id, check, where, value, row_json),) = query(
        db, 'SELECT case_id, "check", "column", value, row_json FROM quarantine'
    )
    assert (case_id, check, where) == (quarantined_id, "retrieval_context_too_large", column)
    # JSON text is measured as a list of message objects is: a string's text, no quotes
    assert value == TOO_LARGE
    assert len(row_json) < 2_000


def test_messages_as_json_text_are_held_to_their_roles_limits(tmp_path: Path) -> None:
    """The roles' limits and checks of a list of message objects, for JSON text: a question
    and an answer --max-answer-bytes, a tool's result and an Anthropic user message of
    tool_result parts --max-context-bytes, a message's own passages added up."""
    long = "The parcel ships from Leeds on weekdays only. " * 4  # 184 bytes
    result = [{"type": "tool_result", "tool_use_id": "t1", "content": long}]
    chats = [
        {"conversation_id": "q", "messages": [{"role": "user", "content": long}, ANSWER]},
        {"conversation_id": "a", "messages": [
            {"role": "user", "content": "Where?"},
            {"role": "assistant", "content": [{"type": "text", "text": long}],
             "retrieval_context": [SHIPS]}]},
        {"conversation_id": "p", "messages": [
            {"role": "user", "content": "Where?"},
            {"role": "assistant", "content": "It ships.", "retrieval_context": [long, long]}]},
        {"conversation_id": "t", "messages": [
            {"role": "user", "content": "Where?"},
            {"role": "tool", "content": long * 2},
            ANSWER]},
        {"conversation_id": "w", "messages": [
            {"role": "user", "content": "Where?"},
            {"role": "user", "content": result},  # within --max-context-bytes
            ANSWER]},
        {"conversation_id": "l", "messages": [
            {"type": "human", "content": "Where?"},
            {"type": "tool", "content": long},  # LangChain's type: within it too
            ANSWER]},
    ]  # fmt: skip
    for chat in chats:
        chat["logged_at"] = "2026-11-01T09:00:00"
    source = _chat_parquet(tmp_path, chats)
    db = tmp_path / "chat.duckdb"
    limits = {"max_answer_bytes": 100, "max_context_bytes": 300}
    run = run_score(
        ScoreSettings(source=str(source), db=str(db), max_quarantine_share=1.0, **limits)
    )
    quarantined = query(db, 'SELECT case_id, "check", "column", value FROM quarantine ORDER BY 1')
    # Sizes as a list of message objects': a string's text (184 bytes, not its JSON's 186),
    # passages added up; content parts their JSON text.
    answer_limit = "184 bytes, more than --max-answer-bytes 100"
    assert quarantined == [
        ("a:2", "actual_output_too_large", "content",  # parts: their JSON text
         "211 bytes, more than --max-answer-bytes 100"),
        ("p:2", "retrieval_context_too_large", "retrieval_context",  # added up
         "368 bytes, more than --max-context-bytes 300"),
        ("q:1", "input_too_large", "content", answer_limit),
        ("t:2", "retrieval_context_too_large", "content",
         "368 bytes, more than --max-context-bytes 300"),
    ]  # fmt: skip
    assert run["rows_in"] == run["rows_scored"] + run["rows_quarantined"]
    assert {("w:3",), ("l:3",)} <= set(query(db, "SELECT case_id FROM case_scores"))


def test_messages_text_is_cut_in_the_form_it_was_given() -> None:
    """A list's JSON text stays a list's, a JSON string holding it (a JSON log whose
    messages differ in type) stays a string; no message past its limit, or no list of
    messages, is left to chat_turns.sql as it is (None)."""
    from flows.read.message_text_sizes import cut_messages_text
    from schemas import SizeLimits

    limits = SizeLimits(answer_bytes=100, context_bytes=300)
    tool = {"role": "tool", "content": "x" * 400}
    listed = json.dumps([{"role": "user", "content": "Where?"}, tool])
    cut = json.loads(cut_messages_text(listed, limits) or "null")
    assert cut[0] == {"role": "user", "content": "Where?"}
    assert cut[1]["content"] == "x" * 400 + "… [400 bytes]"  # a string's start: all 400
    assert cut[1]["__too_large_value"] == "400 bytes, more than --max-context-bytes 300"
    nested = cut_messages_text(json.dumps(listed), limits)
    assert json.loads(json.loads(nested or "null")) == cut
    assert cut_messages_text(json.dumps([{"role": "tool", "content": "x" * 200}]), limits) is None
    assert cut_messages_text('{"role": "user"}', limits) is None
    assert cut_messages_text("user: hi", limits) is None


def test_a_long_conversation_holding_half_a_utf16_pair_is_quarantined_as_a_short_one_is(
    tmp_path: Path,
) -> None:
    """A message's JSON text escaping half a UTF-16 pair (`\\ud83d`, an emoji cut by a
    logger) is malformed JSON to chat_turns.sql: a short conversation so is quarantined as
    messages_not_a_list. One longer than the smaller limit, read in Python to be cut, raised
    UnicodeEncodeError measuring it (or DuckDB refused it cut, the half pair in a field no
    size reads): exit 1 on every night, nothing scored."""
    ships = {"role": "assistant", "content": "It ships.", "retrieval_context": [SHIPS]}
    half = '{"role": "user", "content": "Where does it ship \\ud83d from?"}'
    long = json.dumps({"role": "tool", "content": "x" * 400})
    rows = [
        {"conversation_id": cid, "logged_at": "2026-11-01T09:00:00", "messages": messages}
        for cid, messages in (
            ("short", f"[{half}, {json.dumps(ships)}]"),
            ("long", f"[{half}, {long}, {json.dumps(ships)}]"),
            ("named", f'[{{"role": "user", "name": "a\\ud83d", "content": "Where?"}}, {long}]'),
            ("fine", json.dumps([{"role": "user", "content": "Where?"}, ships])),
        )
    ]
    source = tmp_path / "chat.parquet"
    pq.write_table(pa.Table.from_pylist(rows), source)
    db = tmp_path / "chat.duckdb"
    limits = {"max_answer_bytes": 100, "max_context_bytes": 300}
    run = run_score(
        ScoreSettings(source=str(source), db=str(db), max_quarantine_share=1.0, **limits)
    )
    assert query(db, 'SELECT case_id, "check" FROM quarantine ORDER BY 1') == [
        ("long", "messages_not_a_list"),
        ("named", "messages_not_a_list"),
        ("short", "messages_not_a_list"),
    ]
    assert query(db, "SELECT case_id, status FROM case_scores") == [("fine:2", "scored")]
    assert run["rows_in"] == run["rows_scored"] + run["rows_quarantined"]


def test_long_conversations_of_json_text_are_cut_a_chunk_at_a_time_not_one_each() -> None:
    """Each conversation longer than the smaller limit was fetched and written back by two
    statements of its own (4.5 ms a conversation: hours for a log of a million read with a
    lowered --max-answer-bytes, what the exit 7 line advises). The cuts are the same; the
    statements no longer grow with the conversations."""
    import duckdb

    from flows.read.message_text_sizes import cap_oversized_message_text, cut_messages_text
    from schemas import SizeLimits

    limits = SizeLimits(answer_bytes=100, context_bytes=300)
    short = json.dumps([{"role": "user", "content": "Where?"}])
    long = json.dumps(
        [{"role": "user", "content": "Where?"}, {"role": "tool", "content": "x" * 400}]
    )
    within = json.dumps(
        [{"role": "user", "content": "Where?"}, {"role": "tool", "content": "x" * 90}]
    )
    con = duckdb.connect()
    con.execute(
        "CREATE TEMP TABLE chats AS SELECT i, CASE i % 3 WHEN 0 THEN $short WHEN 1 THEN $long "
        "ELSE $within END AS messages FROM range(3000) AS t(i)",
        {"short": short, "long": long, "within": within},
    )
    statements = []

    class Counted:
        def execute(self, query: str, parameters: dict | None = None) -> duckdb.DuckDBPyConnection:
            statements.append(query)
            return con.execute(query, parameters)

    counted: Any = Counted()
    assert cap_oversized_message_text(counted, "chats", "messages", limits) == 1000
    assert len(statements) < 10
    kept = "SELECT i % 3, messages, count(*) FROM chats GROUP BY ALL ORDER BY 1"
    cut = cut_messages_text(long, limits)
    assert con.execute(kept).fetchall() == [(0, short, 1000), (1, cut, 1000), (2, within, 1000)]
