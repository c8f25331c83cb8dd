"""HTML pieces shared by the report's sections."""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Sequence

# Logged text is shown up to this many characters in a cell or line of the HTML report: the
# passages read for each top claim, 1 MB each, made a report of 11 MB (the tables keep the
# text whole: SQL reads it there).
SHOWN_CHARS = 2_000


def shown(text: str) -> str:
    """Logged text cut to SHOWN_CHARS, saying how much was left out (plain text)."""
    if len(text) <= SHOWN_CHARS:
        return text
    return f"{text[:SHOWN_CHARS]}… ({len(text) - SHOWN_CHARS:,} more characters)"


# Characters no HTML page may hold (a parse error: a browser drops them or draws U+FFFD, so a
# case id shown was not the one stored): the C0 controls but HTML's whitespace (tab, newline,
# form feed, CR), DEL and the C1 controls. Logged text shows each as its escape (`\x00`,
# `\x1b`), as the terminal report does.
_NOT_IN_HTML = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]")


def visible(text: str) -> str:
    """`text` with each character of _NOT_IN_HTML written as its escape (plain text)."""
    return _NOT_IN_HTML.sub(lambda match: f"\\x{ord(match.group()):02x}", text)


def logged(text: str | None) -> str:
    """Logged text as HTML: cut (shown), its controls visible, and escaped."""
    return html.escape(visible(shown(text or "")))


def table_head(headers: Sequence[str], caption: str, *, shown_caption: bool = False) -> str:
    """A table's start, up to its body: its caption, which a screen reader names it by (shown
    only with `shown_caption`: most tables are named by the heading above them already), and
    its column headers, each `scope="col"`, which a screen reader reads each cell with."""
    hidden = "" if shown_caption else " class=named-above"
    head = "".join(f'<th scope="col">{html.escape(h)}</th>' for h in headers)
    return f"<table><caption{hidden}>{html.escape(caption)}</caption><thead><tr>{head}</tr></thead>"


def table_html(
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    caption: str,
    *,
    shown_caption: bool = False,
) -> str:
    """An HTML table (`table_head`); every cell is cut and escaped here, so callers pass plain
    text."""
    body = "".join(
        "<tr>" + "".join(f"<td>{logged(cell)}</td>" for cell in row) + "</tr>" for row in rows
    )
    head = table_head(headers, caption, shown_caption=shown_caption)
    return f"{head}<tbody>{body}</tbody></table>"


def isolated(text: str) -> str:
    """Logged text escaped and set apart (`<bdi>`) inside a line of the report's own words: a
    right-to-left override it carries (U+202E) reorders itself only, not the score after it."""
    return f"<bdi>{logged(text)}</bdi>"


# A word the judge found nowhere in the context, as the claim may write it: a number with its
# thousands' commas ("1,000" is lacked as "1000") and a sign for its word ("$" as "dollar",
# grounded-v9's word_rules.number_forms).
_SIGNS = {"dollar": "$", "euro": "€", "pound": "£", "percent": "%"}
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _lacked_pattern(word: str) -> str:
    if _NUMBER.fullmatch(word):
        whole, _, decimals = word.partition(".")
        digits = ",?".join(re.escape(digit) for digit in whole)
        number = digits + (r"\." + decimals if decimals else "")
        return rf"(?<![\d.,]){number}(?![\d]|[.,]\d)"
    word_pattern = rf"(?<!\w){re.escape(word)}(?!\w)"
    sign = _SIGNS.get(word.lower())
    return f"{word_pattern}|{re.escape(sign)}" if sign else word_pattern


def marked_claim(claim: str, lacks: Sequence[str]) -> str:
    """The claim as HTML, cut as `shown` cuts it, each word of `lacks` (what the context lacks)
    found in it marked (`<mark>`), matched in any case (the first word of a sentence is stored
    lower-cased) and as the judge read it (composed, without format characters). The note of
    what was cut is never marked: its "more" and its count are the report's words, not the
    claim's. Its controls are escapes, as `logged` writes them."""
    claim = visible(claim)
    kept = claim[:SHOWN_CHARS]
    note = shown(claim)[len(kept) :]
    return _marked(kept, lacks) + html.escape(note)


def _clusters(claim: str) -> list[tuple[int, int]]:
    """The claim's characters, each with the combining marks after it ("e" and U+0301)."""
    spans, at = [], 0
    while at < len(claim):
        end = at + 1
        while end < len(claim) and unicodedata.combining(claim[end]):
            end += 1
        spans.append((at, end))
        at = end
    return spans


def _as_read(claim: str) -> tuple[str, list[tuple[int, int]]]:
    """The claim as the judge reads its words, lower-cased: composed (NFC), without format
    characters (a soft hyphen), and for each of its characters the claim's characters it comes
    from. Lower-casing may lengthen a character ("İ" is "i" and a combining dot)."""
    read, origin = [], []
    for at, end in _clusters(claim):
        composed = unicodedata.normalize("NFC", claim[at:end]).lower()
        kept = "".join(c for c in composed if unicodedata.category(c) != "Cf")
        read.append(kept)
        origin += [(at, end)] * len(kept)
    return "".join(read), origin


def _whole(origin: list[tuple[int, int]], start: int, end: int) -> bool:
    """Whether read[start:end] is read from whole characters of the claim (not the "i" of an
    "İ" alone)."""
    starts = start == 0 or origin[start - 1] != origin[start]
    return starts and (end == len(origin) or origin[end] != origin[end - 1])


def _marked(claim: str, lacks: Sequence[str]) -> str:
    spans: list[tuple[int, int]] = []
    read, origin = _as_read(claim)
    for word in lacks:
        if word:
            pattern = re.compile(_lacked_pattern(word), flags=re.IGNORECASE)
            spans += [
                match.span() for match in pattern.finditer(claim) if match.end() > match.start()
            ]
            if read != claim:  # also as the judge read it (composed, lower-cased, ...)
                spans += [
                    (origin[match.start()][0], origin[match.end() - 1][1])
                    for match in pattern.finditer(read)
                    if match.end() > match.start() and _whole(origin, *match.span())
                ]
    pieces, at = [], 0
    for start, end in sorted(spans, key=lambda span: (span[0], -span[1])):  # longest first
        if start < at:
            continue  # inside a span marked already
        pieces += [html.escape(claim[at:start]), f"<mark>{html.escape(claim[start:end])}</mark>"]
        at = end
    return "".join([*pieces, html.escape(claim[at:])])
