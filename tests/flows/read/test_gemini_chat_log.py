"""A chat log as Gemini (and Vertex AI) write it: a message's text is in `parts`
(`[{"text": …}]`), not in `content`, and the bot's role is `model`. Every answer of such a log
was read as blank, quarantined as actual_output_is_null, and the run ended exit 11."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tests.support.db_reading import query
from tests.support.ledger import balanced_run

AT = "2026-11-01T10:00:00"
SHIPPED = "Order A17 shipped on 3 March by courier."


def _chat(answer_parts: list[dict], cid: str = "g1") -> dict:
    return {
        "conversation_id": cid,
        "logged_at": AT,
        "retrieval_context": [SHIPPED],
        "messages": [
            {"role": "user", "parts": [{"text": "Where is A17?"}]},
            {"role": "model", "parts": answer_parts},
        ],
    }


def _write(tmp_path: Path, chats: list[dict], form: str) -> Path:
    if form == "JSON text in Parquet":
        rows = [{**chat, "messages": json.dumps(chat["messages"])} for chat in chats]
        source = tmp_path / "gem.parquet"
        pq.write_table(pa.Table.from_pylist(rows), source)
        return source
    source = tmp_path / "gem" / "g.jsonl"
    source.parent.mkdir()
    source.write_text("".join(json.dumps(chat) + "\n" for chat in chats))
    return source.parent


FORMS = ["JSON Lines", "JSON text in Parquet"]


@pytest.mark.parametrize("form", FORMS)
def test_a_gemini_chat_export_is_read_from_its_parts(tmp_path: Path, form: str) -> None:
    """The question and the answer are their parts' texts (one a line; an image part, no
    text, none), judged as any chat log's."""
    image = {"inline_data": {"mime_type": "image/png", "data": "iVBORw0KGgo="}}
    chats = [
        _chat([{"text": "Order A17 shipped on 3 March."}]),
        _chat([image, {"text": "Order A17 shipped on 3 March."}, {"text": "By drone."}], "g2"),
    ]
    db = tmp_path / "g.duckdb"
    run = balanced_run(_write(tmp_path, chats, form), db, max_quarantine_share=0.0)
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (2, 2, 0)
    cases = query(db, "SELECT case_id, input, actual_output FROM case_scores ORDER BY 1")
    assert cases == [
        ("g1:2", "Where is A17?", "Order A17 shipped on 3 March."),
        ("g2:2", "Where is A17?", "Order A17 shipped on 3 March.\nBy drone."),
    ]
    verdicts = query(db, "SELECT case_id, claim, verdict FROM claim_verdicts ORDER BY 1, 2")
    assert verdicts[0] == ("g1:2", "Order A17 shipped on 3 March.", "yes")


@pytest.mark.parametrize("form", FORMS)
def test_a_gemini_answer_past_its_limit_is_quarantined_as_too_large(
    tmp_path: Path, form: str
) -> None:
    """Its parts are held to --max-answer-bytes as content parts are (their JSON text)."""
    long = "Order A17 shipped on 3 March by courier from Leeds. " * 4  # 208 bytes
    chats = [_chat([{"text": long}], "big"), _chat([{"text": "Order A17 shipped."}], "ok")]
    db = tmp_path / "g.duckdb"
    source = _write(tmp_path, chats, form)
    run = balanced_run(source, db, max_quarantine_share=1.0, max_answer_bytes=100)
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (2, 1, 1)
    ((case_id, check, column, value),) = query(
        db, 'SELECT case_id, "check", "column", value FROM quarantine'
    )
    assert (case_id, check, column) == ("big:2", "actual_output_too_large", "content")
    # parts as written: JSON text, or a list of structs as DuckDB writes it (a byte more)
    assert value in [f"{n} bytes, more than --max-answer-bytes 100" for n in (221, 222)]


@pytest.fixture
def small_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    """The conversation reader with 128 MB for both its tries, which a 10 MB value ran out."""
    import flows.read.turns as turns

    monkeypatch.setattr(turns, "_MEMORY", "128MB")
    monkeypatch.setattr(turns, "_LARGE_MEMORY", "128MB")


@pytest.mark.usefixtures("small_reader")
@pytest.mark.parametrize("form", FORMS)
def test_a_huge_gemini_tool_result_is_cut_before_it_is_read(tmp_path: Path, form: str) -> None:
    """A message's parts past its limit are cut before chat_turns.sql's JSON functions read
    them, as its content would be (a 10 MB value ran a 128 MB reader out: exit 7)."""
    huge = "The parcel ships from Leeds. " * 360_000  # 10,440,000 bytes
    chat = _chat([{"text": "Order A17 shipped on 3 March."}], "k1")
    chat["messages"].insert(1, {"role": "function", "parts": [{"text": huge}]})
    db = tmp_path / "g.duckdb"
    source = _write(tmp_path, [chat, _chat([{"text": "Order A17 shipped."}], "k2")], form)
    run = balanced_run(source, db, max_quarantine_share=1.0)
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (3, 2, 1)
    ((case_id, check, column, value, row_json),) = query(
        db, 'SELECT case_id, "check", "column", value, row_json FROM quarantine'
    )
    assert (case_id, check, column) == ("k1:2", "retrieval_context_too_large", "content")
    sizes = (10440013, 10440014)  # JSON text, or a list of structs as DuckDB writes it
    assert value in [f"{n} bytes, more than --max-context-bytes 8388608" for n in sizes]
    assert len(row_json) < 2_000


def _tool_chat(
    response: dict, call: str = "functionCall", result: str = "functionResponse"
) -> dict:
    """Gemini's function calling: the model's `functionCall` part, the result as a
    `functionResponse` part of a user message, then the answer."""
    return {
        "conversation_id": "t1",
        "logged_at": AT,
        "messages": [
            {"role": "user", "parts": [{"text": "Where is A17?"}]},
            {"role": "model", "parts": [{call: {"name": "track", "args": {"order": "A17"}}}]},
            {"role": "user", "parts": [{result: {"name": "track", "response": response}}]},
            {"role": "model", "parts": [{"text": "Order A17 shipped on 3 March."}]},
        ],
    }


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("spelling", ["camelCase", "snake_case"])
def test_a_gemini_function_call_is_a_step_and_its_response_the_answers_context(
    tmp_path: Path, form: str, spelling: str
) -> None:
    """The call was an answer with no text (quarantined, actual_output_is_null), and the
    response a user turn with none: the answer after it was judged without it (score 0)."""
    names = ("functionCall", "functionResponse") if spelling == "camelCase" else (
        "function_call", "function_response")  # fmt: skip
    chat = _tool_chat({"status": SHIPPED}, *names)
    db = tmp_path / "g.duckdb"
    run = balanced_run(_write(tmp_path, [chat], form), db, max_quarantine_share=0.0)
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (1, 1, 0)
    ((case_id, score, segments),) = query(db, "SELECT case_id, score, segments FROM case_scores")
    assert (case_id, score) == ("t1:4", 1.0)
    assert json.loads(json.loads(segments)["context_origins"]) == ["tool", "turn:1:user"]


@pytest.mark.parametrize("form", FORMS)
def test_a_gemini_function_response_is_held_to_a_tools_limit(tmp_path: Path, form: str) -> None:
    """A user message of functionResponse parts is a tool's: --max-context-bytes, not the
    question's --max-answer-bytes."""
    chat = _tool_chat({"status": SHIPPED, "note": "Signed for at the door. " * 6})
    db = tmp_path / "g.duckdb"
    source = _write(tmp_path, [chat], form)
    run = balanced_run(source, db, max_answer_bytes=100, max_context_bytes=400)
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (1, 1, 0)
