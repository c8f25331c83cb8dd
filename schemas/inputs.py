"""Pandera models of the input tables: what a logged case must look like to be judged."""

from __future__ import annotations

import datetime as dt

import pandera.polars as pa
import polars as pl

from faith_udfs.words import is_blank


def _not_blank(data: pa.PolarsData) -> pl.LazyFrame:
    return data.lazyframe.select(~is_blank(pl.col(data.key)))


def _no_blank_passages(data: pa.PolarsData) -> pl.LazyFrame:
    passage_ok = pl.element().is_not_null() & ~is_blank(pl.element())
    return data.lazyframe.select(pl.col(data.key).list.eval(passage_ok).list.all().fill_null(True))


class Cases(pa.DataFrameModel):
    """The wide *cases* table, one row a logged exchange; other columns are segments."""

    case_id: str = pa.Field(nullable=False, description="Unique id of the logged exchange.")
    input: str = pa.Field(nullable=False, description="What the user asked.")
    actual_output: str = pa.Field(nullable=False, description="What the bot answered.")
    retrieval_context: list[str] = pa.Field(
        nullable=False, description="The passages the bot read before answering, in order."
    )
    logged_at: dt.datetime = pa.Field(nullable=False, description="When it was logged (UTC).")

    class Config:
        strict = False  # extra columns are carried through as segments

    @pa.check("case_id", name="case_id_not_blank")
    def _case_id_not_blank(cls, data: pa.PolarsData) -> pl.LazyFrame:
        return _not_blank(data)

    @pa.check("input", name="input_not_blank")
    def _input_not_blank(cls, data: pa.PolarsData) -> pl.LazyFrame:
        return _not_blank(data)

    @pa.check("actual_output", name="actual_output_not_blank")
    def _output_not_blank(cls, data: pa.PolarsData) -> pl.LazyFrame:
        # A blank answer in a log is a logging fault, not an answer without claims.
        return _not_blank(data)

    @pa.check("retrieval_context", name="no_null_or_blank_passages")
    def _passages_not_blank(cls, data: pa.PolarsData) -> pl.LazyFrame:
        return _no_blank_passages(data)


class Questions(pa.DataFrameModel):
    """Three-table form: one row a question; other columns are segments."""

    case_id: str = pa.Field(nullable=False, description="Unique id of the logged exchange.")
    input: str = pa.Field(nullable=False, description="What the user asked.")
    logged_at: dt.datetime = pa.Field(nullable=False, description="When it was logged (UTC).")

    class Config:
        strict = False


class Contexts(pa.DataFrameModel):
    """Three-table form, long: one row a passage read for a case."""

    case_id: str = pa.Field(nullable=False, description="The case that read the passage.")
    position: int = pa.Field(nullable=False, ge=0, description="Order of the passage, from 0.")
    text: str = pa.Field(nullable=True, description="The passage text.")


class Outputs(pa.DataFrameModel):
    """Three-table form: one row an answer; other columns are segments."""

    case_id: str = pa.Field(nullable=False, description="The case answered.")
    actual_output: str = pa.Field(nullable=True, description="What the bot answered.")

    class Config:
        strict = False


class Turns(pa.DataFrameModel):
    """A table of logged conversations, one row a turn; other columns are segments. The
    reader checks its rows (flows/store/sql/checked_turns.sql) and makes every answering
    assistant turn a `Cases` row (read_turns.sql)."""

    conversation_id: str = pa.Field(nullable=False, description="The conversation.")
    turn: int = pa.Field(nullable=False, description="The turn's place in it (an integer).")
    role: str = pa.Field(nullable=False, description="user, assistant, tool or system.")
    content: str = pa.Field(nullable=True, description="What the turn said.")
    logged_at: dt.datetime = pa.Field(nullable=False, description="When it was logged (UTC).")

    class Config:
        strict = False  # retrieval_context (the passages an assistant turn read) is optional


class ChatLog(pa.DataFrameModel):
    """A chat log, one row a conversation: OpenAI `messages` (`role`, `content`, tool results
    as `tool` messages, each maybe with its own `logged_at`); other columns are segments of
    every turn. Without `conversation_id` its `id` names it, else its line number."""

    messages: list[str] = pa.Field(nullable=False, description="Its messages, in order.")
    conversation_id: str | None = pa.Field(nullable=True, description="The conversation.")
    logged_at: dt.datetime | None = pa.Field(
        nullable=True, description="When it was logged (UTC), unless each message says."
    )

    class Config:
        strict = False


# The columns each form must have, from its model: the reader checks them before the join.
REQUIRED_COLUMNS: dict[str, tuple[str, ...]] = {
    table: tuple(model.to_schema().columns)
    for table, model in (
        ("cases", Cases),
        ("questions", Questions),
        ("contexts", Contexts),
        ("outputs", Outputs),
        ("turns", Turns),
    )
}
REQUIRED_COLUMNS["chat"] = ("messages",)  # conversation_id and logged_at have fallbacks
