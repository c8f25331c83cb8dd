"""A chat log's messages given as JSON text (a Parquet string column, a CSV cell, a JSON log
whose messages differ in type), cut to the size limits before chat_turns.sql reads them. Its
JSON functions ask several times a value's size at once: one 50 MB tool result ran the reader
out of 2 GB, exit 7 on every night. Only a conversation whose text is longer than the smaller
limit can hold a message past one; such conversations are read here, 32 MB of them at a
time, and each message past its limit cut to its start and marked as turn_sizes.py marks one
of a list of objects. Sizes are those of a message object's (turn_sizes.py): a string's UTF-8
bytes, a list of strings' added up, another value's JSON text; not a string's JSON text, whose
quotes and escapes held a message within its limit as an object past it as text."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from flows.read.json_values import quoted
from schemas.sizes import KEPT_CHARS, KEPT_PASSAGES

if TYPE_CHECKING:
    import duckdb

    from schemas import SizeLimits

# The roles whose content is context (a tool's result, a system prompt), as checked_turns.sql
# reads them: held to --max-context-bytes; a question or an answer to --max-answer-bytes.
CONTEXT_ROLES = ("tool", "function", "system", "developer")
# Gemini's names of a function response part, a tool's result (chat_turns.sql).
_FUNCTION_RESPONSES = ("functionResponse", "function_response")
# The long conversations' text fetched and cut at a time, at most.
_CHUNK_BYTES = 32 * 1024 * 1024


def cap_oversized_message_text(
    con: duckdb.DuckDBPyConnection, table: str, column: str, limits: SizeLimits
) -> int:
    """Cut, in `table`, each message of `column` (JSON text, or JSON) past its limit; the
    number of conversations rewritten. The long ones are fetched, parsed and written back
    up to _CHUNK_BYTES of their text at a time (one larger alone), so memory holds a bounded
    part of the log and the statements do not grow with its conversations."""
    name = quoted(column)
    text = f"CAST({name} AS VARCHAR)"
    smaller = {"smaller": min(limits.answer_bytes, limits.context_bytes)}
    long_rows = con.execute(
        f"SELECT rowid, strlen({text}) FROM {table} WHERE strlen({text}) > $smaller ORDER BY rowid",
        smaller,
    ).fetchall()
    rewritten = 0
    for first, last in _chunks(long_rows):
        found = con.execute(
            f"SELECT rowid, {text} FROM {table} "
            f"WHERE rowid BETWEEN $first AND $last AND strlen({text}) > $smaller",
            {"first": first, "last": last, **smaller},
        ).fetchall()
        cuts = [(row, cut) for row, given in found if (cut := cut_messages_text(given, limits))]
        if cuts:
            con.execute(
                f"UPDATE {table} SET {name} = c.cut FROM (SELECT unnest($rows) AS row, "
                f"unnest($cuts) AS cut) AS c WHERE {table}.rowid = c.row",
                {"rows": [row for row, _ in cuts], "cuts": [cut for _, cut in cuts]},
            )
            rewritten += len(cuts)
    return rewritten


def _chunks(long_rows: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """(first, last) rowids of runs of the long rows (rowid, bytes) holding up to
    _CHUNK_BYTES together, a row larger than that alone."""
    chunks: list[tuple[int, int]] = []
    held = 0
    for row, size in long_rows:
        if chunks and held + size <= _CHUNK_BYTES:
            chunks[-1], held = (chunks[-1][0], row), held + size
        else:
            chunks.append((row, row))
            held = size
    return chunks


def cut_messages_text(given: str, limits: SizeLimits) -> str | None:
    """`given` (a list of messages as JSON text, or a JSON string of that text) with each
    message past its limit cut and marked, in the form it was given; None when none is past
    one, or when it is no list of messages (chat_turns.sql quarantines it as it is). Text
    that is no JSON DuckDB reads, longer than the smaller limit, is cut to its start and its
    size: chat_turns.sql quarantines it as messages_not_a_list all the same, where reading it
    whole (a truncated export of a 50 MB tool result) ran the reader out of memory, exit 7
    every night."""
    nested = False
    try:
        value = json.loads(given)
        nested = isinstance(value, str)
        messages = json.loads(value) if nested else value
        if not isinstance(messages, list):
            return None
        cut = [_cut_message(m, limits) if isinstance(m, dict) else None for m in messages]
        if all(c is None for c in cut):
            return None
        text = _json([c if c is not None else m for m, c in zip(messages, cut, strict=True)])
        text.encode()
    except (ValueError, RecursionError):
        # JSON DuckDB reads as none: broken JSON, or half a character Python's json reads (a
        # lone `\ud83d`, a text cut in an emoji by JavaScript) and no UTF-8 text holds
        size = len(given.encode())
        if size <= min(limits.answer_bytes, limits.context_bytes):
            return None
        kept = (value if nested else given)[:KEPT_CHARS] + f"… [{size} bytes]"
        return json.dumps(kept) if nested else kept
    return json.dumps(text, ensure_ascii=False) if nested else text


def _cut_message(message: dict[str, Any], limits: SizeLimits) -> dict[str, Any] | None:
    """The message cut and marked (`__too_large`, `__too_large_column`, `__too_large_value`,
    read by chat_turns.sql), or None when within its limits. LangChain's messages_to_dict
    form keeps its fields, and so the marks, under `data`."""
    langchain = (
        message.get("role") is None
        and message.get("content") is None
        and isinstance(message.get("data"), dict)
    )
    fields: dict[str, Any] = dict(message["data"]) if langchain else dict(message)
    role = message.get("role") if message.get("role") is not None else message.get("type")
    spoken = str(role).strip().lower() if role is not None else ""
    # Gemini's (Vertex AI's) text is in `parts` where there is no content (chat_turns.sql)
    gemini = fields.get("content") is None and isinstance(fields.get("parts"), list)
    held = "parts" if gemini else "content"
    content, passages = fields.get(held), fields.get("retrieval_context")
    content_size, passages_size = _size(content), _size(passages)
    context = spoken in CONTEXT_ROLES or (
        spoken == "user" and content_size > limits.answer_bytes and _tool_results(content)
    )
    content_limit = limits.context_bytes if context else limits.answer_bytes
    if content_size > content_limit:
        option = "--max-context-bytes" if context else "--max-answer-bytes"
        check = (
            "retrieval_context_too_large"
            if context
            else "input_too_large"
            if spoken in ("user", "human")
            else "actual_output_too_large"
        )
        column, size, limit = "content", content_size, f"{option} {content_limit}"
    elif passages_size > limits.context_bytes:
        check, column, size = "retrieval_context_too_large", "retrieval_context", passages_size
        limit = f"--max-context-bytes {limits.context_bytes}"
    else:
        return None
    given = held if column == "content" else column
    fields[given] = _kept(fields[given], size)
    fields |= {
        "__too_large": check,
        "__too_large_column": column,
        "__too_large_value": f"{size} bytes, more than {limit}",
    }
    return {**message, "data": fields} if langchain else fields


def _tool_results(content: Any) -> bool:
    """Whether a user message's content holds Anthropic `tool_result` parts, or Gemini's
    function responses (`functionResponse`, `function_response`): a tool's."""
    return isinstance(content, list) and any(
        isinstance(part, dict)
        and (
            part.get("type") == "tool_result"
            or any(isinstance(part.get(name), dict) for name in _FUNCTION_RESPONSES)
        )
        for part in content
    )


def _texts(value: Any) -> list[str] | None:
    """A string, or a list of strings (nulls none), as its texts; None for any other value."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(v, str) or v is None for v in value):
        return [v for v in value if v is not None]
    return None


def _size(value: Any) -> int:
    """UTF-8 bytes of a value as turn_sizes.py measures a message object's: a string's text,
    a list of strings' texts added up, another value's JSON text (0 for none)."""
    texts = _texts(value)
    if texts is not None:
        return sum(len(text.encode()) for text in texts)
    return 0 if value is None else len(_json(value).encode())


def _kept(value: Any, size: int) -> Any:
    """What the quarantine keeps of a value past its limit, as turn_sizes.py keeps a message
    object's: a string's start, a list's first passages' starts, else its JSON text's start;
    then its size."""
    if isinstance(value, str):
        return value[:KEPT_CHARS] + f"… [{size} bytes]"
    if _texts(value) is not None:
        kept = [(v or "")[:KEPT_CHARS] for v in value[:KEPT_PASSAGES]]
        return [*kept, f"… [{size} bytes in {len(value)} passages]"]
    return _json(value)[:KEPT_CHARS] + f"… [{size} bytes]"


def _json(value: Any) -> str:
    """JSON text as DuckDB writes it: compact, UTF-8 kept."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
