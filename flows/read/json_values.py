"""How a JSON column whose values differ in type (read_json types it JSON) is read: each value
as its text, as from a file of such values alone, and the values no contract column can hold
as text (a list, an object, true/false) named for the contract, which quarantines them."""

from __future__ import annotations

from duckdb.sqltypes import DuckDBPyType

from schemas import WRONG_TYPE

# JSON values a file of them alone gives a column no text can be cast from (a list, a struct,
# a boolean): the contract quarantines them as `<column>_wrong_type`.
_NOT_TEXT = "('ARRAY', 'OBJECT', 'BOOLEAN')"
# What read_json types a string as when every value of a column reads as one, with no switch
# to turn it off (dates and timestamps have theirs: formats.py's NO_TIME_FORMAT): a UUID, stored
# lower-cased, and a time of day (`09:30`), stored as `09:30:00`.
_TEXT_LOOKALIKES = ("uuid", "time")


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


def text_kept_columns(
    keys: list[str], types: list[DuckDBPyType], texts: frozenset[str] = frozenset()
) -> str:
    """read_json's `columns := {...}` for these keys (the file's, in order) read as typed
    but for a UUID or a time of day, at any depth, read as the text written: left to
    read_json, a file's ids `0E8F…` were stored as `0e8f…` and a segment `09:30` as
    `09:30:00`, yet kept as written once another file read with it held a non-UUID id (a new
    night's file re-scored the old night's cases under new ids). The keys in `texts` (the
    case id) read as a float are read as the number written: read_json types an id past
    every integer type (2**64 and up) or a pandas id `7.0` DOUBLE, and the contract
    quarantined each row of the file, its id stored as `1.8446744073709552e+19`. '' when no
    type holds them, or when two keys differ only in case, which a struct literal cannot
    name apart."""
    numbers = {key for key, kind in zip(keys, types, strict=False) if _float_text(key, kind, texts)}
    if not numbers and not any(_holds_lookalike(kind) for kind in types):
        return ""
    if len({key.casefold() for key in keys}) != len(keys) or len(keys) != len(types):
        return ""
    fields = ", ".join(
        f"{_literal(key)}: {_literal('VARCHAR' if key in numbers else _as_text_type(kind))}"
        for key, kind in zip(keys, types, strict=True)
    )
    return f"{{{fields}}}"


def _float_text(key: str, kind: DuckDBPyType, texts: frozenset[str]) -> bool:
    return key in texts and kind.id in ("double", "float")


def _holds_lookalike(kind: DuckDBPyType) -> bool:
    if kind.id in _TEXT_LOOKALIKES:
        return True
    return any(_holds_lookalike(child) for _, child in _children(kind))


def _children(kind: DuckDBPyType) -> list[tuple[str, DuckDBPyType]]:
    """A struct's fields, a list's element, a map's key and value (read_json's nested types)."""
    if kind.id not in ("struct", "list", "map"):
        return []
    return [(name, child) for name, child in kind.children if isinstance(child, DuckDBPyType)]


def _as_text_type(kind: DuckDBPyType) -> str:
    """The type, written as DuckDB reads it, with each UUID and TIME in it VARCHAR."""
    if kind.id in _TEXT_LOOKALIKES:
        return "VARCHAR"
    if not _holds_lookalike(kind):
        return str(kind)
    children = _children(kind)
    if kind.id == "list":
        return f"{_as_text_type(children[0][1])}[]"
    if kind.id == "map":
        return f"MAP({_as_text_type(children[0][1])}, {_as_text_type(children[1][1])})"
    fields = ", ".join(f"{quoted(name)} {_as_text_type(child)}" for name, child in children)
    return f"STRUCT({fields})"


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
    their texts one a line, an OpenAI refusal part (`{type: refusal, refusal}`) its refusal,
    what the bot said (it was quarantined as a blank answer), a part without text (an image,
    its `text` absent or null, as a Parquet struct or a JSON file DuckDB reads as structs
    holds it) none; any other value (a number,
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
        "ELSE coalesce(part ->> 'text', part ->> 'refusal') END), chr(10)) "
        f"ELSE {given} ->> '$' END"
    )
    is_part = (
        "json_type(part) = 'VARCHAR' OR (json_type(part) = 'OBJECT' "
        "AND coalesce(json_type(part -> 'text'), 'VARCHAR') IN ('VARCHAR', 'NULL') "
        "AND coalesce(json_type(part -> 'refusal'), 'VARCHAR') IN ('VARCHAR', 'NULL'))"
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
