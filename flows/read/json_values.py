"""How a JSON column whose values differ in type (read_json types it JSON) is read: each value
as its text, as from a file of such values alone, and the values no contract column can hold
as text (a list, an object, true/false) named for the contract, which quarantines them."""

from __future__ import annotations

from duckdb.sqltypes import DuckDBPyType

from schemas import WRONG_TYPE

# JSON values a file of them alone gives a column no text can be cast from (a list, a struct,
# a boolean): the contract quarantines them as `<column>_wrong_type`.
_NOT_TEXT = "('ARRAY', 'OBJECT', 'BOOLEAN')"


def json_values_as_text(
    columns: list[str], types: list[DuckDBPyType], keep: str | None = None
) -> str:
    """The `REPLACE` items that read each JSON-typed column (read_json's type for a column
    whose values differ in type: "a", 42) as its values' text: "a", not the JSON '"a"', so
    a row reads the same from a file of mixed types as from a clean one. `keep`: the
    passages' column, whose JSON text the contract parses as a list; '' when none is JSON.
    A passages column read as a list of JSON values (`["A.", 5]` in one row: JSON[]) is read
    as the list's JSON text, which the contract parses: a list holding a non-string is
    quarantined, and the other rows' passages are their text, not '"A."'. One whose values
    differ in type (a list in one row, a list's JSON text as a string in another: JSON) is
    read value by value: a string as its text, as in a file of strings alone."""
    items = []
    for name, kind in zip(columns, types, strict=True):
        column = quoted(name)
        if str(kind) == "JSON" and name != keep:
            items.append(f"{column} ->> '$' AS {column}")
        elif str(kind) == "JSON" and name == keep:
            items.append(
                f"CASE WHEN json_type({column}) = 'VARCHAR' THEN {column} ->> '$' "
                f"ELSE CAST({column} AS VARCHAR) END AS {column}"
            )
        elif str(kind) == "JSON[]" and name == keep:
            items.append(f"CAST(to_json({column}) AS VARCHAR) AS {column}")
    return ", ".join(items)


def json_wrong_types(
    columns: list[str], types: list[DuckDBPyType], keep: str | None, names: dict[str, str]
) -> str:
    """The select item naming, under WRONG_TYPE, each row's JSON-typed columns (but `keep`,
    the passages) whose value is a list, an object or true/false; '' when none is JSON. Read as
    text (json_values_as_text), `["a", "b"]` among text answers would be judged as the answer
    '["a","b"]', where a file of such answers alone has them quarantined as
    `actual_output_wrong_type`. `names`: a column's name in the file, where DuckDB's differs
    (json_keys_renamed). The contract keeps the marks of its own columns only: a segment may
    hold anything."""
    cases = [
        f"CASE WHEN json_type({quoted(name)}) IN {_NOT_TEXT} "
        f"THEN {_literal(names.get(name, name))} END"
        for name, kind in zip(columns, types, strict=True)
        if str(kind) == "JSON" and name != keep
    ]
    if not cases:
        return ""
    return f"list_filter([{', '.join(cases)}], lambda x: x IS NOT NULL) AS {quoted(WRONG_TYPE)}"


def content_as_text(kind: str | None) -> tuple[str, str, str]:
    """(a turn's `content` as text, whether it cannot be read as text, its JSON text when it
    cannot) for the column's type, in a table of turns and a chat log alike: text as it is;
    content parts (a list of strings, or of `{type, text}` objects: LangChain's, OpenAI's)
    their texts one a line, a part without text (an image) none; any other value (a number,
    a tool's object) its JSON text. A list holding anything else (`[1, 2]`, a list in a
    list, a part whose `text` is no string) is no message content: the turn is quarantined
    as `content_wrong_type`, not judged as its JSON text (nor, in a file of list contents
    alone, a failed run on trim(VARCHAR[]))."""
    if kind is None or kind == "VARCHAR":
        return "content", "false", "CAST(NULL AS VARCHAR)"
    given = "to_json(content)"
    parts = f"from_json({given}, '[\"JSON\"]')"
    text = (
        f"CASE WHEN json_type({given}) = 'ARRAY' THEN array_to_string(list_transform({parts}, "
        "lambda part: CASE json_type(part) WHEN 'VARCHAR' THEN part ->> '$' "
        "ELSE part ->> 'text' END), chr(10)) "
        f"ELSE {given} ->> '$' END"
    )
    is_part = (
        "json_type(part) = 'VARCHAR' OR (json_type(part) = 'OBJECT' "
        "AND coalesce(json_type(part -> 'text'), 'VARCHAR') = 'VARCHAR')"
    )
    each_a_part = f"list_transform({parts}, lambda part: coalesce({is_part}, false))"
    bad = (
        f"coalesce(json_type({given}) = 'ARRAY' "
        f"AND NOT coalesce(list_bool_and({each_a_part}), true), false)"
    )
    return text, bad, f"CASE WHEN {bad} THEN CAST({given} AS VARCHAR) END"


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def quoted(name: str) -> str:
    """A column name as a DuckDB identifier, whatever characters it holds."""
    return '"' + name.replace('"', '""') + '"'
