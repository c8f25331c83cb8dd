"""The HTML report as markup: `faith report --html` on a store `faith score` made of logs
carrying hostile text, read back with Python's own HTML parser."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from flows.cli import main
from tests.support.builders import CONTEXT, case_row, cases, write

# Logged text a browser cannot show as written: HTML forbids these characters (a NUL, an ESC,
# the C1 controls); its whitespace (tab, newline, form feed, CR) it takes.
NOT_IN_HTML = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]")
# Elements with no end tag.
VOID = frozenset({"br", "col", "hr", "img", "input", "link", "meta", "source", "wbr"})


class Markup(HTMLParser):
    """Each element's start and end, the unbalanced ones and each table's headers."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.unbalanced: list[str] = []
        self.headers: list[dict[str, str | None]] = []
        self.tables = self.captions = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "th":
            self.headers.append(dict(attrs))
        self.tables += tag == "table"
        self.captions += tag == "caption"
        if tag not in VOID:
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open.pop() != tag:
            self.unbalanced.append(tag)


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The report of cases whose ids, answers and passages carry a NUL, an ESC colour code,
    a C1 control and markup, each with an unsupported claim, and a case with no answer,
    quarantined: every table of the page has a row."""
    folder = tmp_path_factory.mktemp("markup")
    hostile = ["order\x00A17", "\x1b[31mred\x1b[0m", "next\x85line", "<td>'\"&"]
    rows = [
        case_row(
            f"case-{text}",
            f"Order A17 shipped on 3 March. {text} ships free to Mars.",
            retrieval_context=[*CONTEXT, f"Passage {text}."],
            input=f"Where is {text}?",
        )
        for text in hostile
    ]
    rows.append(case_row("no-answer", None))  # quarantined: the page's quarantine tables
    source = write(cases(rows), folder / "cases.parquet")
    db = folder / "faith.duckdb"
    score = ["score", str(source), "--db", str(db), "--prefect", "no"]
    assert main([*score, "--max-quarantine-share", "1"]) == 0
    html = folder / "report.html"
    assert main(["report", "--db", str(db), "--html", str(html)]) == 0
    return html.read_text(encoding="utf-8")


def test_logged_control_characters_are_shown_as_escapes_not_written_raw(page: str) -> None:
    """A NUL or an ESC in a case id, an answer or a passage reached the page as it was: no
    HTML (a parse error a browser drops or turns into U+FFFD, so the id shown was not the
    stored one). Each is shown as its escape, as the terminal report shows it."""
    body = page.split("</head>", 1)[1]
    assert NOT_IN_HTML.findall(body) == []
    for shown in ("case-order\\x00A17", "\\x1b[31mred\\x1b[0m", "next\\x85line"):
        assert shown in body
    assert "&lt;td&gt;&#x27;&quot;&amp;" in body


def test_the_page_is_balanced_markup(page: str) -> None:
    markup = Markup()
    markup.feed(page)
    markup.close()
    assert (markup.open, markup.unbalanced) == ([], [])
    assert '<html lang="en">' in page


def test_every_table_names_itself_and_its_column_headers(page: str) -> None:
    """A screen reader reads a cell with its column's header and a table by its caption:
    the report's tables had headers without a scope and no caption."""
    markup = Markup()
    markup.feed(page)
    assert markup.tables >= 4
    assert markup.captions == markup.tables
    assert markup.headers
    assert {header.get("scope") for header in markup.headers} == {"col"}
