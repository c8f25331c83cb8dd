"""How many (answer sentence, context sentence) pairs a case asks the judge to weigh, and the
limit past which a case is not judged. The grounded judge weighs each claim against each
context sentence, so its time and memory grow with that product, not with the text's bytes:
one 44 KB answer of 2,000 sentences against a 110 KB context of 5,000 took `measure()` 39 s
and `score_cases` 1.9 GB. `faith score` quarantines such a row (`too_many_sentence_pairs`,
schemas/sizes.py); `score_cases`, `evaluate()` and `measure()` refuse it here, with the same
limit and the same count.
"""

from __future__ import annotations

import re

import polars as pl

from faith_udfs.errors import ConfigError, FaithError

# A RAG answer of 30 sentences against a context of 30,000 (about 3 MB) stays within it.
DEFAULT_MAX_SENTENCE_PAIRS = 1_000_000
# Where the judge cuts sentences (faith_udfs/sentences.py), and an answer also its list items.
CONTEXT_BREAK = r"[.!?]\s"
ANSWER_BREAK = r"[.!?]\s|\n"
# The same in Python's `re`, whose `\s` also takes \x1c-\x1f (polars' Rust regex does not).
_PY_CONTEXT_BREAK = re.compile(r"[.!?][^\S\x1c-\x1f]")
_PY_ANSWER_BREAK = re.compile(r"[.!?][^\S\x1c-\x1f]|\n")


class TooManySentencePairs(FaithError, ValueError):
    """A case's answer sentences times its context sentences pass the metric's
    `max_sentence_pairs`: `measure()` raises it before judging anything (`evaluate()` and
    `score_cases` make the case `invalid` with this message instead)."""

    def __init__(self, answer_sentences: int, context_sentences: int, limit: int) -> None:
        super().__init__(pairs_message(answer_sentences, context_sentences, limit))
        self.answer_sentences = answer_sentences
        self.context_sentences = context_sentences
        self.limit = limit


_ADVICE = (
    ": the judge weighs each claim against each context sentence, so its time and memory grow "
    "with their product; split the case, or raise the limit "
    "(FaithfulnessMetric(max_sentence_pairs=N), score_cases(..., max_sentence_pairs=N); None: "
    "no limit)"
)


def checked_limit(limit: object) -> int | None:
    """`limit` as a max_sentence_pairs: a whole number of at least 1, or None (no limit); else
    ConfigError. Checked where the limit is used, not only where a metric is built: a limit of
    0 made every case `invalid`, and "1000" failed in polars with a message of many lines."""
    if limit is None:
        return None
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise ConfigError(
            "max_sentence_pairs must be a whole number of at least 1, or None for no limit; "
            f"got {limit!r}"
        )
    return limit


def pairs_message(answer_sentences: int, context_sentences: int, limit: int) -> str:
    """What a case past the limit is told, counts first, as `faith score`'s quarantine says."""
    return (
        f"{_sentences(answer_sentences, 'answer')} x {_sentences(context_sentences, 'context')}, "
        f"more than max_sentence_pairs {limit}{_ADVICE}"
    )


def _sentences(count: int, kind: str) -> str:
    """`1 answer sentence`, `2 answer sentences`."""
    return f"{count} {kind} sentence{'' if count == 1 else 's'}"


def sentence_counts(answer: str | None, passages: list[str]) -> tuple[int, int]:
    """Answer sentences and list items, and context sentences (each passage's added up), as
    many as the judge cuts at most: breaks plus one, as `sentence_pairs_error` counts them."""
    answer_sentences = len(_PY_ANSWER_BREAK.findall(answer)) + 1 if answer is not None else 0
    context_sentences = sum(
        len(_PY_CONTEXT_BREAK.findall(p)) + 1 for p in passages if p is not None
    )
    return answer_sentences, context_sentences


def check_sentence_pairs(answer: str | None, passages: list[str], limit: int | None) -> None:
    """Raise TooManySentencePairs when the case is past `limit` (None: no limit). Counted only
    when its bytes allow that many pairs (a break is at least one byte of an answer, two of a
    passage): a real case is never counted. Bytes as UTF-8 with a lone surrogate's three kept,
    so such a text reaches the check that names its case and field (case_results.cases_frame)
    rather than failing here with a bare UnicodeEncodeError."""
    limit = checked_limit(limit)
    if limit is None or answer is None:
        return
    most = (len(answer.encode(errors="surrogatepass")) + 1) * (
        sum(len(p.encode(errors="surrogatepass")) for p in passages if p is not None) // 2
        + len(passages)
    )
    if most <= limit:
        return
    answer_sentences, context_sentences = sentence_counts(answer, passages)
    if answer_sentences * context_sentences > limit:
        raise TooManySentencePairs(answer_sentences, context_sentences, limit)


def sentences_expr(column: str, dtype: pl.DataType, pattern: str) -> pl.Expr:
    """How many sentences a text (or a list of texts, added up) holds at most: breaks plus one."""
    if isinstance(dtype, pl.List):
        each = pl.element().str.count_matches(pattern).cast(pl.Int64) + 1
        return pl.col(column).list.eval(each).list.sum().fill_null(0)
    return pl.col(column).str.count_matches(pattern).cast(pl.Int64).fill_null(0) + 1


def text_bytes(column: str, dtype: pl.DataType) -> pl.Expr:
    """UTF-8 bytes of a text column, or of a list of texts added up; null where the value is
    (the contract's size checks count that 0, schemas/sizes.py)."""
    if isinstance(dtype, pl.List):
        return pl.col(column).list.eval(pl.element().str.len_bytes()).list.sum()
    return pl.col(column).str.len_bytes()


def past_sentence_pairs(frame: pl.DataFrame, limit: int) -> pl.DataFrame:
    """The rows of `frame` (`actual_output` text, `retrieval_context` a list of texts or one
    text) whose answer sentences times context sentences pass `limit`, with those counts
    (`answer_sentences`, `context_sentences`): what `faith score` quarantines and the library
    refuses. Sentences are counted only in the rows whose bytes allow that many pairs (a break
    is at least one byte of an answer, two of a passage): a real batch has none, and counting
    is a regex pass over every text."""
    schema = frame.schema
    answer_type, context_type = schema["actual_output"], schema["retrieval_context"]
    passages = pl.col("retrieval_context").list.len() if isinstance(context_type, pl.List) else 1
    # a null answer's bound stays null: no pairs
    most = (text_bytes("actual_output", answer_type).cast(pl.Int64) + 1) * (
        text_bytes("retrieval_context", context_type).cast(pl.Int64).fill_null(0) // 2 + passages
    )
    answers = sentences_expr("actual_output", answer_type, ANSWER_BREAK)
    contexts = sentences_expr("retrieval_context", context_type, CONTEXT_BREAK)
    return (
        frame.filter(most.fill_null(0) > limit)
        .with_columns(answer_sentences=answers, context_sentences=contexts)
        .filter(pl.col("answer_sentences") * pl.col("context_sentences") > limit)
    )


def sentence_pairs_error(cases: pl.DataFrame, limit: int | None) -> pl.Series:
    """Per case (`actual_output`, `retrieval_context`), `TooManySentencePairs: <message>`
    when it is past `limit` (past_sentence_pairs), else null."""
    limit = checked_limit(limit)
    errors = pl.repeat(None, cases.height, dtype=pl.String, eager=True).alias("pairs_error")
    if limit is None or cases.height == 0:
        return errors
    indexed = cases.select("actual_output", "retrieval_context").with_row_index("at")
    past = past_sentence_pairs(indexed, limit)
    if past.height == 0:
        return errors
    told = [
        f"{TooManySentencePairs.__name__}: {pairs_message(answers, contexts, limit)}"
        for answers, contexts in past.select("answer_sentences", "context_sentences").iter_rows()
    ]
    return errors.scatter(past["at"], pl.Series(told, dtype=pl.String))
