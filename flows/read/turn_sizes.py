"""Turns too large to read whole: a message or a turn's passages past the run's size limits is
cut to its start and marked before the reader's JSON functions see it, and the turn is then
quarantined as a case's row past them is (schemas/sizes.py). DuckDB's JSON functions ask
several times a value's size at once: one 50 MB passage ran the reader out of 2 GB, and a log
read every night failed every night with exit 7, nothing scored. A chat log's messages are
cut inside their list (cap_oversized_messages), before chat_turns.sql reads them as JSON.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from flows.read.json_values import quoted
from flows.read.message_text_sizes import CONTEXT_ROLES, cap_oversized_message_text
from schemas import SizeLimits
from schemas.sizes import KEPT_CHARS, KEPT_PASSAGES

if TYPE_CHECKING:
    import duckdb

# message_text_sizes.CONTEXT_ROLES as a SQL list
_CONTEXT_ROLES = "(" + ", ".join(f"'{role}'" for role in CONTEXT_ROLES) + ")"
_LIST_OF_TEXT = "VARCHAR[]"
# JSON a chat log's turns hold (chat_turns.sql), read whole already: measured as its values,
# a string its text and a list of strings its passages added up, as a list of message objects'
# VARCHAR and VARCHAR[] are (their JSON text's quotes and escapes quarantined a tool's JSON
# result within its limit)
_READ_JSON = "JSON read"
# A content part `{"type": "tool_result", ...}` in a message's JSON text, or Gemini's
# `{"functionResponse": {...}}` (`function_response` as its Python SDK dumps it).
_TOOL_RESULT_PART = r'"type"\s*:\s*"tool_result"|"function_?[rR]esponse"\s*:\s*\{'
# Gemini's names of a function response part (chat_turns.sql reads either as a tool's).
_FUNCTION_RESPONSES = ("functionResponse", "function_response")
# The reader's own columns this adds, left out of a turn's JSON (its quarantine key).
TOO_LARGE_COLUMNS = ("__too_large", "__too_large_column", "__too_large_value")


def cap_oversized_turns(
    con: duckdb.DuckDBPyConnection, types: dict[str, str], limits: SizeLimits
) -> None:
    """`named_turns` (of column `types`) with each turn's text past its limit cut to its start
    (1,024 characters, at most 16 passages, then its size) and TOO_LARGE_COLUMNS more:
    the check (the case's own names, by the turn's role), the column and how large it was,
    NULL for a turn within its limits (a chat message's, cut before, kept)."""
    chat = "__too_large" in types  # a chat log's turns, marked by chat_turns.sql
    kinds = {
        name: _READ_JSON if chat and types.get(name) == "JSON" else types.get(name)
        for name in ("content", "retrieval_context")
    }
    sized = _sized(
        "role" if "role" in types else None,
        ("content", kinds["content"]),
        ("retrieval_context", kinds["retrieval_context"]),
    )
    replaced = [
        f"{sized[name]} AS {name}" for name in ("content", "retrieval_context") if name in sized
    ]
    found = [
        f"coalesce({name}, {sized[name]})" if name in types else sized[name]
        for name in TOO_LARGE_COLUMNS
    ]
    con.execute(
        "CREATE OR REPLACE TEMP TABLE named_turns AS SELECT * "
        + (f"EXCLUDE ({', '.join(TOO_LARGE_COLUMNS)}) " if "__too_large" in types else "")
        + (f"REPLACE ({', '.join(replaced)}) " if replaced else "")
        + "".join(
            f", {expr} AS {name}" for expr, name in zip(found, TOO_LARGE_COLUMNS, strict=True)
        )
        + " FROM named_turns",
        _limits(limits),
    )


def cap_oversized_messages(
    con: duckdb.DuckDBPyConnection,
    table: str,
    names: tuple[str, str],
    types: dict[str, Any],
    limits: SizeLimits,
) -> None:
    """A chat log's rows (`table`, columns of DuckDB `types`; `names`: its messages and its
    passages columns) with each message past its limit cut and marked as cap_oversized_turns
    does, and the conversation's own passages past --max-context-bytes cut and told in
    `__conversation_too_large` (chat_turns.sql carries both marks to the turns they are
    read into). Messages as JSON text are cut so as they are given (message_text_sizes.py)."""
    messages, passages = names
    replaced = []
    if str(types.get(messages)) in ("VARCHAR", "JSON"):
        cap_oversized_message_text(con, table, messages, limits)
    cut = _cut_messages(types.get(messages))
    if cut is not None:
        replaced.append(
            f"list_transform({quoted(messages)}, lambda m: {cut}) AS {quoted(messages)}"
        )
    told = "CAST(NULL AS VARCHAR)"
    kind = str(types[passages]) if passages in types else None
    if kind is not None:
        size = _bytes(quoted(passages), kind)
        replaced.append(
            f"CASE WHEN {size} > $context_bytes THEN {_cut(quoted(passages), kind, size)} "
            f"ELSE {quoted(passages)} END AS {quoted(passages)}"
        )
        told = (
            f"CASE WHEN {size} > $context_bytes THEN CAST({size} AS VARCHAR) || ' bytes, more "
            "than --max-context-bytes ' || CAST($context_bytes AS VARCHAR) END"
        )
    statement = (
        f"CREATE OR REPLACE TEMP TABLE {table} AS SELECT * "
        + (f"REPLACE ({', '.join(replaced)}) " if replaced else "")
        + f", {told} AS __conversation_too_large FROM {table}"
    )
    # only the limits the statement names: DuckDB refuses a parameter it does not use
    con.execute(statement, {k: v for k, v in _limits(limits).items() if f"${k}" in statement})


def _cut_messages(kind: Any) -> str | None:
    """struct_update of one message `m` (of a list of DuckDB type `kind`) cut to its limits
    and marked; None for messages of no struct type, or without content."""
    if getattr(kind, "id", None) != "list" or getattr(kind.child, "id", None) != "struct":
        return None
    fields = {name: str(field) for name, field in kind.child.children}
    # Gemini's (Vertex AI's) messages hold their text in `parts`, read as content where
    # there is none (chat_turns.sql)
    held = "content" if "content" in fields else "parts"
    if held not in fields:
        return _cut_langchain_messages(dict(kind.child.children))
    # The role as chat_turns.sql reads it: `role`, else LangChain's `type` (a log mixing the
    # two has both keys, one null); an Anthropic user message of tool_result parts is a tool's.
    spelled = [_as_text(f"m.{name}", fields[name]) for name in ("role", "type") if name in fields]
    role = f"coalesce({', '.join(spelled)})" if spelled else None
    passages = fields.get("retrieval_context")
    sized = _sized(
        role,
        (f"m.{held}", fields[held]),
        ("m.retrieval_context", passages) if passages == _LIST_OF_TEXT else ("", None),
        tool_results=_tool_results(f"m.{held}", kind.child.children, held),
    )
    updates = ", ".join(f"{name.removeprefix('m.')} := {expr}" for name, expr in sized.items())
    # A log mixing OpenAI's messages and LangChain's messages_to_dict has both forms' keys:
    # its LangChain messages' `data` is cut too (it was read whole: exit 7 on a 50 MB result)
    cut = f"struct_update(m, {updates})"
    return _cut_langchain_messages(dict(kind.child.children), cut) or cut


def _cut_langchain_messages(fields: dict[str, Any], base: str = "m") -> str | None:
    """struct_update of `base` (one message `m`, or it cut already) of LangChain's
    messages_to_dict form (`{type, data: {content, ...}}`, read by chat_turns.sql as `data`
    under its `type`): its data cut and marked inside `data`, where chat_turns.sql reads the
    marks (a message without `data` keeps none)."""
    data: Any = fields.get("data")
    if getattr(data, "id", None) != "struct" or "type" not in fields:
        return None
    inner = {name: str(field) for name, field in data.children}
    if "content" not in inner:
        return None
    passages = inner.get("retrieval_context")
    sized = _sized(
        _as_text("m.type", str(fields["type"])),
        ("m.data.content", inner["content"]),
        ("m.data.retrieval_context", passages) if passages == _LIST_OF_TEXT else ("", None),
        tool_results=_tool_results("m.data.content", data.children),
    )
    updates = ", ".join(f"{name.removeprefix('m.data.')} := {expr}" for name, expr in sized.items())
    cut = f"CASE WHEN m.data IS NOT NULL THEN struct_update(m.data, {updates}) END"
    return f"struct_update({base}, data := {cut})"


def _as_text(name: str, kind: str) -> str:
    """A role field as text: a JSON one (a log mixing types) by its value, not its quotes."""
    return f"({name} ->> '$')" if kind == "JSON" else f"CAST({name} AS VARCHAR)"


def _tool_results(
    content: str, fields: list[tuple[str, Any]], field: str = "content"
) -> str | None:
    """Whether a message's content (its `field`) holds Anthropic tool_result parts, as
    chat_turns.sql reads them, without reading its JSON (a scan of its text; typed parts by
    their `type`)."""
    kind = dict(fields)[field]
    if str(kind) == "JSON":
        return f"regexp_matches(CAST({content} AS VARCHAR), '{_TOOL_RESULT_PART}')"
    parts = getattr(kind, "id", None) == "list" and getattr(kind.child, "id", None) == "struct"
    named = dict(kind.child.children) if parts else {}
    found = [f"p.{name} IS NOT NULL" for name in _FUNCTION_RESPONSES if name in named]
    if "type" in named:
        found.append("p.type = 'tool_result'")
    if found:
        each = f"lambda p: coalesce({' OR '.join(found)}, false)"
        return f"coalesce(list_bool_or(list_transform({content}, {each})), false)"
    return None


def _limits(limits: SizeLimits) -> dict[str, int]:
    return {"answer_bytes": limits.answer_bytes, "context_bytes": limits.context_bytes}


def _sized(
    role: str | None,
    content: tuple[str, str | None],
    passages: tuple[str, str | None],
    tool_results: str | None = None,
) -> dict[str, str]:
    """Expressions of a turn (or message) cut to its limits: its content and passages (keyed
    by the names given), then TOO_LARGE_COLUMNS; sizes in UTF-8 bytes, limits bound as
    $answer_bytes and $context_bytes. A user message whose content `tool_results` holds is
    a tool's (looked at only past --max-answer-bytes)."""
    text, text_kind = content
    listed, list_kind = passages
    spoken = f"lower(trim(CAST({role} AS VARCHAR)))" if role else "''"
    content_size, passages_size = _bytes(text, text_kind), _bytes(listed, list_kind)
    context_role = f"{spoken} IN {_CONTEXT_ROLES}"
    if tool_results is not None:
        context_role = (
            f"(CASE WHEN {context_role} THEN true WHEN {spoken} = 'user' AND {content_size} > "
            f"$answer_bytes THEN coalesce({tool_results}, false) ELSE false END)"
        )
    content_limit = f"CASE WHEN {context_role} THEN $context_bytes ELSE $answer_bytes END"
    content_over = f"{content_size} > {content_limit}"
    passages_over = f"{passages_size} > $context_bytes"
    option = (
        f"CASE WHEN {context_role} THEN '--max-context-bytes ' || CAST($context_bytes AS VARCHAR)"
        " ELSE '--max-answer-bytes ' || CAST($answer_bytes AS VARCHAR) END"
    )
    sized = {
        text: f"CASE WHEN {content_over} THEN {_cut(text, text_kind, content_size)} ELSE {text} END"
    } if text_kind is not None else {}  # fmt: skip
    if list_kind is not None:
        cut = _cut(listed, list_kind, passages_size)
        sized[listed] = f"CASE WHEN {passages_over} THEN {cut} ELSE {listed} END"
    check = (
        f"CASE WHEN {context_role} THEN 'retrieval_context_too_large' "
        f"WHEN {spoken} IN ('user', 'human') THEN 'input_too_large' "
        "ELSE 'actual_output_too_large' END"
    )
    sized["__too_large"] = (
        f"CASE WHEN {content_over} THEN {check} "
        f"WHEN {passages_over} THEN 'retrieval_context_too_large' END"
    )
    sized["__too_large_column"] = (
        f"CASE WHEN {content_over} THEN 'content' WHEN {passages_over} THEN 'retrieval_context' END"
    )
    sized["__too_large_value"] = (
        f"CASE WHEN {content_over} THEN CAST({content_size} AS VARCHAR) || ' bytes, more than ' "
        f"|| {option} WHEN {passages_over} THEN CAST({passages_size} AS VARCHAR) || ' bytes, "
        "more than --max-context-bytes ' || CAST($context_bytes AS VARCHAR) END"
    )
    return sized


def _bytes(name: str, kind: str | None) -> str:
    """UTF-8 bytes of a value (a list's passages added up; 0 for none)."""
    if kind is None:
        return "0"
    if kind == "VARCHAR":
        return f"coalesce(strlen({name}), 0)"
    if kind == _LIST_OF_TEXT:
        return f"coalesce(list_sum(list_transform({name}, lambda p: coalesce(strlen(p), 0))), 0)"
    written = f"coalesce(strlen(CAST({name} AS VARCHAR)), 0)"  # JSON, content parts: as written
    if kind != _READ_JSON:
        return written
    texts = (
        f"list_bool_and(list_transform(from_json({name}, '[\"JSON\"]'), "
        "lambda p: coalesce(json_type(p) = 'VARCHAR', true)))"
    )
    passages = _bytes(f"from_json({name}, '[\"VARCHAR\"]')", _LIST_OF_TEXT)
    return (
        f"coalesce(CASE json_type({name}) WHEN 'VARCHAR' THEN strlen({name} ->> '$') "
        f"WHEN 'ARRAY' THEN CASE WHEN {texts} THEN {passages} END END, {written})"
    )


def _cut(name: str, kind: str | None, size: str) -> str:
    """What the quarantine keeps of an oversized value: its start and its size, as a case's
    (schemas/sizes.py: capped); JSON as a JSON string of its start, another type none."""
    told = f"'… [' || CAST({size} AS VARCHAR) || ' bytes]'"
    if kind == "VARCHAR":
        return f"left({name}, {KEPT_CHARS}) || {told}"
    if kind in ("JSON", _READ_JSON):
        return f"to_json(left(CAST({name} AS VARCHAR), {KEPT_CHARS}) || {told})"
    if kind == _LIST_OF_TEXT:
        first = f"list_slice({name}, 1, {KEPT_PASSAGES})"
        kept = f"list_transform({first}, lambda p: left(p, {KEPT_CHARS}))"
        said = (
            f"'… [' || CAST({size} AS VARCHAR) || ' bytes in ' || CAST(len({name}) AS VARCHAR)"
            " || ' passages]'"
        )
        return f"list_concat({kept}, [{said}])"
    return f"CAST(NULL AS {kind})"
