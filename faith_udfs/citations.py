"""How answers cite their context: citation markers ("[1]", "(Passage 2)") and attribution
phrases ("Based on the provided passages, ...", "..., according to the context."). They say
where a claim comes from, not what it claims: the grounded judge (since `grounded-v4`) judges a
sentence without them, so a RAG bot that cites its sources is not marked down for words and
numbers no passage holds.

The patterns are plain strings both regex engines read alike (Rust's for the batch path,
Python's for the one-case twin, one_case_grounded.py): no look-around, no back-references.
"""

from __future__ import annotations

import polars as pl

# What an answer calls its context (each also plural, but the uncounted ones).
CONTEXT_NOUNS = (
    "passage", "context", "document", "doc", "source", "text", "article", "excerpt", "snippet",
    "extract", "search result", "result", "reference", "material", "information", "data",
    "knowledge base", "record", "paragraph", "section",
)  # fmt: skip
_UNCOUNTED = frozenset({"information", "data", "knowledge base"})
_NOUN = "(?:{})".format(
    "|".join(n.replace(" ", r"\s+") + ("" if n in _UNCOUNTED else "s?") for n in CONTEXT_NOUNS)
)
_BEFORE = (
    r"(?:(?:given|provided|above|retrieved|available|supplied|following|attached|referenced"
    r"|relevant|cited|shared|search|context|retrieval|background)\s+)*"
)
# "passage 1", "documents 2 and 3", "source #4"
_NUMBERS = r"(?:\s*(?:#|no\.?\s*)?\d+(?:\s*(?:,|&|and|-)\s*\d+)*)?"
_AFTER = (
    r"(?:\s+(?:provided|given|above|supplied|available|retrieved|shown|listed|cited|below)"
    r"(?:\s+(?:above|here|to\s+me|below))?)?"
)
_SOURCE = rf"(?:the\s+|these\s+|this\s+|those\s+|my\s+|your\s+)?{_BEFORE}{_NOUN}{_NUMBERS}{_AFTER}"
_VIA = (
    r"(?:based\s+(?:solely\s+|only\s+|entirely\s+|purely\s+)?(?:up)?on|according\s+to"
    r"|as\s+(?:stated|mentioned|described|noted|shown|indicated|explained|outlined|given"
    r"|provided|reported|seen|specified)\s+(?:in|by)|per|going\s+by|judging\s+(?:from|by))"
)
# Only before a comma that ends it does "From the passages, ..." or "In the context, ..." cite.
_VIA_LEADING = rf"(?:{_VIA}|from|in)"
_SAY = (
    r"(?:states?|says?|mentions?|indicates?|suggests?|explains?|notes?|shows?|describes?"
    r"|reports?|confirms?|clarif(?:y|ies)|specif(?:y|ies)|reveals?|highlights?|points?\s+out"
    r"|tells?\s+us)"
)

# Each removed from every sentence, in this order.
CITATION_PATTERNS: tuple[str, ...] = (
    # "[1]", "[1, 2]", "[^3]", "[Doc 2]", "[citation needed]", "【4†source】"
    r"(?i)\s*\[\s*(?:\^?\d+(?:\s*[,;&-]\s*\^?\d+)*|(?:passages?|docs?|documents?|sources?|refs?"
    r"|references?|contexts?|citations?|results?|excerpts?|snippets?)\s*#?\s*\d+"
    r"(?:\s*[,;&-]\s*\d+)*|citation needed)\s*\]|\s*【[^】]*】",
    # "(Passage 1)", "(see the context)", "(source: document 2)"
    rf"(?i)\s*\(\s*(?:(?:see|cf\.?|sources?:?|from|{_VIA})\s+{_SOURCE}"
    rf"|{_BEFORE}{_NOUN}\s*(?:#|no\.?\s*)?\d+(?:\s*(?:,|&|and|-)\s*\d+)*)\s*\)",
    # "Based on the given passages, ..." "According to passage 1, ..."
    rf"(?i)^\W*{_VIA_LEADING}\s+{_SOURCE}\s*,\s*",
    # "The passage states that ...", "Passage 2 says ..."
    rf"(?i)^\W*{_SOURCE}\s+(?:clearly\s+|also\s+|further\s+|explicitly\s+)?{_SAY}\s+(?:that\s+)?",
    # "It is stated in the context that ..."
    r"(?i)^\W*it\s+(?:is|was)\s+(?:stated|mentioned|noted|indicated|explained|said|reported"
    rf"|specified|clear)\s+(?:in|from|by)\s+{_SOURCE}\s+that\s+",
    # "The tower, according to the passage, is ..."
    rf"(?i),\s*{_VIA}\s+{_SOURCE}\s*,",
)
# "..., according to the context." keeps its closing punctuation (group 1).
TRAILING_PATTERN = rf"(?i)\s*,?\s+{_VIA}\s+{_SOURCE}\s*([.!?]*)\s*$"


# A necessary condition of every pattern here and in answer_layout.py: an answer without a
# match cites and lists nothing, and its sentences are judged as they are. One cheap scan of
# the answer instead of a dozen over each sentence (tests/udfs/test_citations.py holds the
# two ways equal).
CUE_PATTERN = r"(?i)[\[(【#\x1f]|\*\*|[-*•+]\s|\d[.)]\s|\)\s|step|" + "|".join(
    n.split()[0] for n in CONTEXT_NOUNS
)


def without_citations(sentence: pl.Expr) -> pl.Expr:
    """The sentence without its citation markers and attribution phrases, stripped."""
    for pattern in CITATION_PATTERNS:
        sentence = sentence.str.replace_all(pattern, "")
    return sentence.str.replace(TRAILING_PATTERN, "${1}").str.strip_chars()


# A letter or a digit: what a sentence cut of its citations must still hold to be a claim.
ALNUM_PATTERN = r"[^\W_]"


def still_says_something(stripped: pl.Expr, sentence: pl.Expr) -> pl.Expr:
    """False for a sentence that was nothing but a citation ("[2]."): not a claim."""
    return (stripped == sentence) | stripped.str.contains(ALNUM_PATTERN)
