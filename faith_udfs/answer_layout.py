"""How an answer lays its claims out: list markers ("1.", "2)", "- ", "Step 3:"), markdown
headings and bold labels ("**Height:** ..."). They order or title what the answer says, so
the grounded judge (since `grounded-v4`) judges a sentence without them: "1)" is no figure the
context lacks. Each item of a list on its own lines is a sentence of its own.

The patterns are plain strings both regex engines read alike (Rust's for the batch path,
Python's for the one-case twin, one_case_grounded.py), as in citations.py.
"""

from __future__ import annotations

import polars as pl

_LETTERED = r"(?:[a-h]|i{1,3}|iv|vi{0,3}|ix|x)\)"  # "b)", "iv)": "A." may be an initial
# Removed from the start of every sentence, in this order.
LAYOUT_PATTERNS: tuple[str, ...] = (
    rf"^(?:[-*•+]+|\(?\d{{1,2}}[.)]|\(?{_LETTERED}|(?i:step)\s+\d{{1,2}}\s*[:.)-]|#{{1,6}})\s+",
    r"^\*\*[^*\n]{1,60}(?::\*\*|\*\*:)\s+",
)
# A sentence that is only a list number: the seed's splitter cuts "1. The tower ..." after
# "1.". Not a claim when another sentence follows it (a last "5." may answer "How many?").
BARE_MARKER_PATTERN = rf"^\(?(?:\d{{1,2}}[.)]|{_LETTERED})$"


# A line that starts a list item ("\n- ", "\n2) ") ends the sentence before it, full stop or
# not: a list's items are claims of their own (the seed's splitter cuts only after . ! ?).
LIST_ITEM_BREAK_PATTERN = r"\n[ \t]*((?:[-*•+]|\(?\d{1,2}[.)])[ \t])"
# Where list_items cuts (a unit separator, which no answer should hold; one it does hold is
# a cut too).
ITEM_BREAK = "\x1f"
# What a list's heading line ends with before its first item ("Key facts:"): not a claim.
LIST_HEADING_PATTERN = r"[^.!?]*:\s*$"


def list_items(text: pl.Expr) -> pl.Expr:
    """The text cut before each line that starts a list item, each piece without a heading
    line ending in ":" that an item follows."""
    pieces = text.str.replace_all(LIST_ITEM_BREAK_PATTERN, ITEM_BREAK + "${1}").str.split(
        ITEM_BREAK
    )
    piece = pl.element()
    headed = piece.shift(-1).is_not_null()
    return pieces.list.eval(
        pl.when(headed).then(piece.str.replace(LIST_HEADING_PATTERN, "")).otherwise(piece)
    )


def without_layout(sentence: pl.Expr) -> pl.Expr:
    """The sentence without its list marker, heading mark or bold label."""
    for pattern in LAYOUT_PATTERNS:
        sentence = sentence.str.replace(pattern, "")
    return sentence


def is_list_number(sentences: pl.Expr) -> pl.Expr:
    """Per sentence of a list (an expression of `pl.element()` in list.eval): a bare list
    number ("1.") that another sentence follows."""
    return sentences.str.contains(BARE_MARKER_PATTERN) & sentences.shift(-1).is_not_null()
