"""Turns too large to read whole: a message or a turn's passages past the run's size limits is
cut to its start and marked before the reader's JSON functions see it, and the turn is then
quarantined as a case's row past them is (schemas/sizes.py). DuckDB's JSON functions ask
several times a value's size at once: one 50 MB passage ran the reader out of 2 GB, and a log
read every night failed every night with exit 7, nothing scored.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from schemas import SizeLimits
from schemas.sizes import KEPT_CHARS, KEPT_PASSAGES

if TYPE_CHECKING:
    import duckdb

# The roles whose content is context (a tool's result, a system prompt), as checked_turns.sql
# reads them: held to --max-context-bytes; a question or an answer to --max-answer-bytes.
_CONTEXT_ROLES = "('tool', 'function', 'system', 'developer')"
_LIST_OF_TEXT = "VARCHAR[]"
# The reader's own columns this adds, left out of a turn's JSON (its quarantine key).
TOO_LARGE_COLUMNS = ("__too_large", "__too_large_column", "__too_large_value")


def cap_oversized_turns(
    con: duckdb.DuckDBPyConnection, types: dict[str, str], limits: SizeLimits
) -> None:
    """`named_turns` (of column `types`) with each turn's text past its limit cut to its start
    (1,024 characters, at most 16 passages, then its size) and three columns more:
    `__too_large` (the check: the case's own names, by the turn's role), `__too_large_column`
    and `__too_large_value` (how large it was), NULL for a turn within its limits."""
    content, passages = types.get("content"), types.get("retrieval_context")
    role = f"lower(trim(CAST(role AS VARCHAR))) IN {_CONTEXT_ROLES}" if "role" in types else "false"
    content_limit = f"CASE WHEN {role} THEN $context_bytes ELSE $answer_bytes END"
    content_check = (
        f"CASE WHEN {role} THEN 'retrieval_context_too_large' "
        "WHEN lower(trim(CAST(role AS VARCHAR))) IN ('user', 'human') THEN 'input_too_large' "
        "ELSE 'actual_output_too_large' END"
        if "role" in types
        else "'actual_output_too_large'"
    )
    content_over = f"__content_bytes > {content_limit}"
    passages_over = "__passages_bytes > $context_bytes"
    replaced = [
        f"CASE WHEN {over} THEN {_cut(name, kind, size)} ELSE {name} END AS {name}"
        for name, kind, over, size in (
            ("content", content, content_over, "__content_bytes"),
            ("retrieval_context", passages, passages_over, "__passages_bytes"),
        )
        if kind is not None
    ]
    content_said = (
        "CAST(__content_bytes AS VARCHAR) || ' bytes, more than ' || "
        f"CASE WHEN {role} THEN '--max-context-bytes ' || CAST($context_bytes AS VARCHAR) "
        "ELSE '--max-answer-bytes ' || CAST($answer_bytes AS VARCHAR) END"
    )
    passages_said = (
        "CAST(__passages_bytes AS VARCHAR) || ' bytes, more than --max-context-bytes ' || "
        "CAST($context_bytes AS VARCHAR)"
    )
    con.execute(
        "CREATE OR REPLACE TEMP TABLE named_turns AS "
        "SELECT * EXCLUDE (__content_bytes, __passages_bytes)"
        + (f" REPLACE ({', '.join(replaced)})" if replaced else "")
        + f", CASE WHEN {content_over} THEN {content_check} "
        f"WHEN {passages_over} THEN 'retrieval_context_too_large' END AS __too_large, "
        f"CASE WHEN {content_over} THEN 'content' "
        f"WHEN {passages_over} THEN 'retrieval_context' END AS __too_large_column, "
        f"CASE WHEN {content_over} THEN {content_said} "
        f"WHEN {passages_over} THEN {passages_said} END AS __too_large_value "
        f"FROM (SELECT *, {_bytes('content', content)} AS __content_bytes, "
        f"{_bytes('retrieval_context', passages)} AS __passages_bytes FROM named_turns)",
        {"answer_bytes": limits.answer_bytes, "context_bytes": limits.context_bytes},
    )


def _bytes(name: str, kind: str | None) -> str:
    """UTF-8 bytes of a column's value (a list's passages added up; 0 for none)."""
    if kind is None:
        return "0"
    if kind == "VARCHAR":
        return f"coalesce(strlen({name}), 0)"
    if kind == _LIST_OF_TEXT:
        return f"coalesce(list_sum(list_transform({name}, lambda p: coalesce(strlen(p), 0))), 0)"
    return f"coalesce(strlen(CAST({name} AS VARCHAR)), 0)"  # JSON, content parts: as written


def _cut(name: str, kind: str | None, size: str) -> str:
    """What the quarantine keeps of an oversized value: its start and its size, as a case's
    (schemas/sizes.py: capped); a value of another type (JSON, content parts) none."""
    if kind == "VARCHAR":
        return f"left({name}, {KEPT_CHARS}) || '… [' || CAST({size} AS VARCHAR) || ' bytes]'"
    if kind == _LIST_OF_TEXT:
        first = f"list_slice({name}, 1, {KEPT_PASSAGES})"
        kept = f"list_transform({first}, lambda p: left(p, {KEPT_CHARS}))"
        told = (
            f"'… [' || CAST({size} AS VARCHAR) || ' bytes in ' || CAST(len({name}) AS VARCHAR)"
            " || ' passages]'"
        )
        return f"list_concat({kept}, [{told}])"
    return f"CAST(NULL AS {kind})"
