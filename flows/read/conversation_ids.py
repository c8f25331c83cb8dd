"""A conversation's id as text, as SQL over the turns the conversation reader gathers
(flows/read/turns.py): a whole number stored as a float is the number's, and a chat log's
line whose id is null or blank (`""`, as exporters write a missing value) is named as a line
without one (flows/read/chat_lines.py)."""

from __future__ import annotations

from flows.read.json_values import quoted


def id_text(kind: str | None) -> str:
    """The conversation id as text: a whole number stored as a float (7.0, as pandas writes an
    integer column holding a missing value) is the id 7, as a turn 2.0 is turn 2; a file of
    such ids beside one of integers made every id `7.0` and each case of the nights before
    new (`7.0:2` beside `7:2`), judged twice. So is its text `7.0`: a CSV export of that
    column (the same log from Parquet was `7:2`), or a JSON file whose ids differ in type
    (`1.0` beside `"abc"`: its turns split from the same conversation's `1`)."""
    if kind in ("FLOAT", "DOUBLE") or (kind or "").startswith("DECIMAL"):
        given = (
            "CASE WHEN isfinite(conversation_id) AND conversation_id = trunc(conversation_id) "
            "AND abs(conversation_id) < 1e18 "
            "THEN CAST(CAST(conversation_id AS BIGINT) AS VARCHAR) "
            "ELSE CAST(conversation_id AS VARCHAR) END"
        )
    else:  # text: 7.0 written so (pandas' to_csv; a JSON column of mixed types) is 7 too
        given = _whole_text("conversation_id")
    # A chat log's line without one is named as turns._chat_fallbacks says, its `id` 7.0 as 7
    # too: the same line alone in its file (its id the conversation_id column) was named so.
    # A blank one is none there (a line is one conversation: its messages were every one
    # quarantined as conversation_id_is_null, where the same log's CSV, its cell empty, read
    # null); a table of turns has no fallback, its blank id quarantined as before (which
    # turns are one conversation cannot be told).
    kept = "trim(CAST(conversation_id AS VARCHAR)) <> '' OR __cid_fallback IS NULL"
    return f"coalesce(CASE WHEN {kept} THEN {given} END, {_whole_text('__cid_fallback')})"


def given_id(column: str) -> str:
    """A chat log's `column` (its `id`) as text, NULL when blank: no name for its line."""
    text = f"CAST({quoted(column)} AS VARCHAR)"
    return f"CASE WHEN trim({text}) <> '' THEN {text} END"


def _whole_text(column: str) -> str:
    """`column` as text, a whole number's text (`7.0`) as the number's (`7`)."""
    text = f"trim(CAST({column} AS VARCHAR))"
    return (
        f"CASE WHEN regexp_full_match({text}, '-?[0-9]+[.]0+') "
        f"THEN regexp_replace({text}, '[.]0+$', '') ELSE CAST({column} AS VARCHAR) END"
    )
