"""A CSV cell holding a list as Python writes it (`['Line one.\\nLine two.']`: pandas'
`to_csv` of a list column, the common export of a RAG evaluation set). DuckDB's list syntax
reads the same brackets and quotes, but a backslash escapes the next character there, so
"\\n" was read as "n" and "\\xa0" as "xa0": passages silently altered. A cell holding a
backslash is read as a Python literal when it is one (a list of strings), else as DuckDB reads
it; its JSON text is what the contract parses.
"""

from __future__ import annotations

import ast
import json
import re

import duckdb
import polars as pl

from faith_udfs.words import is_utf8
from schemas import NOT_UTF8_MARK

# An item of a Python list that is no string, as pandas writes it (`None`, `nan`, `5`, `True`,
# a list): DuckDB's syntax read `['a', None]` as the strings "a" and "None". A cell holding one
# is read here (in DuckDB's regex syntax and Python's alike); a string's text may match it too
# (`['Items 1, 2, 3.']`), read as any Python list then.
NON_STRING_ITEM = (
    r"[\[,]\s*(?:(?:None|nan|NaN|inf|True|False|[-+]?\.?[0-9][0-9_.eE+-]*)\s*[,\]]|[\[{(])"
)

# ast.literal_eval holds ~200 times a cell of many tiny strings (a review: 860 MB for 4 MB of
# ['\n', '\n', ...]); a longer cell holding escapes DuckDB never writes is quarantined.
_LITERAL_CHARS = 2 * 1024 * 1024


def python_lists_as_json(frame: pl.DataFrame, column: str) -> pl.DataFrame:
    """The frame with each cell of `column` that holds a backslash and is no JSON as the JSON
    text of the list it writes (formats._duckdb_lists_as_json left those cells as written)."""
    if column not in frame.columns or frame.schema[column] != pl.String:
        return frame
    cells = frame[column]
    # a cell of a mended file holding a byte that is not UTF-8 is left as written: its row is
    # quarantined, its mark read (not_utf8.marked)
    mended = cells.str.contains(NOT_UTF8_MARK, literal=True).fill_null(False)
    escaped = cells.str.contains("\\", literal=True).fill_null(False) & ~mended
    escaped |= cells.str.contains(NON_STRING_ITEM).fill_null(False) & ~mended
    if not escaped.any():
        return frame
    values = cells.to_list()
    con = duckdb.connect()  # its own: a frame may be read on another thread than the run's
    try:
        for at in escaped.arg_true().to_list():
            values[at] = _as_json(values[at], con)
    finally:
        con.close()
    return frame.with_columns(pl.Series(column, values, dtype=pl.String))


_DUCKDB_LIST = "SELECT CAST(to_json(TRY_CAST($cell AS VARCHAR[])) AS VARCHAR)"


def _as_json(cell: str, con: duckdb.DuckDBPyConnection) -> str:
    try:
        json.loads(cell)
    except ValueError:
        pass
    except RecursionError:
        return cell  # the contract says it is no list of strings
    else:
        return cell  # JSON text already
    items = _python_list(cell)
    if items is not None:
        text = json.dumps(items, ensure_ascii=False)
        # half a UTF-16 pair ('\ud83d'), which no UTF-8 text holds: the contract says it is no
        # list of strings, its text as written
        return text if is_utf8(text) else cell
    if _holds_a_non_string(cell):
        # a Python list holding None, a number or a list: no list of strings, as its JSON
        # would be; the contract quarantines it as written
        return cell
    if not _duckdb_escapes_only(cell):
        # an escape DuckDB never writes ("\\n" in `['a\\n', 1]`, a Python list that is no list
        # of strings): its syntax would drop the backslash; the contract says what it is
        return cell
    found = con.execute(_DUCKDB_LIST, {"cell": cell}).fetchone()
    return found[0] if found and found[0] is not None else cell


# DuckDB's COPY escapes a backslash and a quote, nothing else ("\\\\", "\\'")
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)


def _duckdb_escapes_only(cell: str) -> bool:
    return all(found.group(1) in "\\'" for found in _ESCAPE.finditer(cell))


def _python_list(cell: str) -> list[str] | None:
    """The list of strings a Python literal writes, else None."""
    if len(cell) > _LITERAL_CHARS or not cell.lstrip().startswith("["):
        return None
    try:
        value = ast.literal_eval(cell.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return value
    return None


# The names pandas writes a float's NaN and infinity under, no literal of Python's.
_FLOAT_NAMES = ("nan", "NaN", "inf")


def _holds_a_non_string(cell: str) -> bool:
    """Whether the cell is a Python list literal (a float's `nan` and `inf` too) holding an
    item that is no string. DuckDB's syntax (`[a b, 'x, y']`) is no Python."""
    if len(cell) > _LITERAL_CHARS:
        return False
    try:
        tree = ast.parse(cell.strip(), mode="eval").body
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False
    if not isinstance(tree, ast.List):
        return False
    items = [item.operand if isinstance(item, ast.UnaryOp) else item for item in tree.elts]
    literal = (ast.Constant, ast.List, ast.Tuple, ast.Dict, ast.Set)
    if not all(
        isinstance(item, literal) or (isinstance(item, ast.Name) and item.id in _FLOAT_NAMES)
        for item in items
    ):
        return False
    strings = [isinstance(item, ast.Constant) and isinstance(item.value, str) for item in items]
    return not all(strings)
