"""HTML pieces shared by the report's sections."""

from __future__ import annotations

import html
from collections.abc import Sequence


def table_html(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """An HTML table; every cell is escaped here, so callers pass plain text."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
