"""Pandera models of `judge_checks` and `judge_check_verdicts`: the judge-drift watch of
`faith nightly` (docs/nightly.md), one row a night's check and one row an item it compared."""

from __future__ import annotations

import datetime as dt

import pandera.polars as pa
import polars as pl

from faith_udfs.judges import VERDICT_VOCABULARY

VERDICTS = list(VERDICT_VOCABULARY)


class JudgeChecks(pa.DataFrameModel):
    """`judge_checks`: one row a nightly run's check of its judge on the golden set."""

    run_id: str = pa.Field(unique=True, description="The nightly run (runs.run_id).")
    config_id: str = pa.Field(description="The metric config the golden set was scored under.")
    golden: str = pa.Field(description="Path of the golden set.")
    golden_hash: str = pa.Field(
        str_length={"min_value": 32, "max_value": 32},
        description="md5 of its cases and expected verdicts.",
    )
    checked_at: dt.datetime = pa.Field(description="UTC.")
    cases: pl.Int32 = pa.Field(ge=1, description="Golden cases scored.")
    cases_invalid: pl.Int32 = pa.Field(ge=0, description="The judge could not handle them.")
    cases_pending: pl.Int32 = pa.Field(ge=0, description="Left unjudged: the check incomplete.")
    items: pl.Int32 = pa.Field(ge=0, description="Items compared.")
    agreed: pl.Int32 = pa.Field(ge=0, description="Of them, agreed.")
    agreement: float = pa.Field(
        nullable=True,
        in_range={"min_value": 0, "max_value": 1},
        description="agreed / items; NULL when the check is incomplete.",
    )
    floor: float = pa.Field(
        in_range={"min_value": 0, "max_value": 1}, description="--agreement-floor."
    )
    passed: bool = pa.Field(nullable=True, description="agreement >= floor; NULL: incomplete.")
    seconds: float = pa.Field(ge=0, description="How long the check took.")
    judge_calls: pl.Int64 = pa.Field(ge=0, description="Calls it asked an LLM judge.")
    prompt_tokens: pl.Int64 = pa.Field(ge=0, description="Tokens sent.")
    completion_tokens: pl.Int64 = pa.Field(ge=0, description="Tokens received.")

    class Config:
        strict = True

    @pa.dataframe_check(name="agreed_at_most_items")
    def _agreed_at_most_items(cls, data: pa.PolarsData) -> pl.LazyFrame:
        return data.lazyframe.select(pl.col("agreed") <= pl.col("items"))


class JudgeCheckVerdicts(pa.DataFrameModel):
    """`judge_check_verdicts`: one row an item a check compared."""

    run_id: str = pa.Field(description="The check's run.")
    case_id: str = pa.Field(description="The golden case.")
    claim_index: pl.Int32 = pa.Field(
        nullable=True, ge=0, description="NULL: no claim on either side."
    )
    claim: str = pa.Field(nullable=True, description="As the judge extracted it.")
    expected: str = pa.Field(
        nullable=True, isin=VERDICTS, description="NULL: no claim expected there."
    )
    verdict: str = pa.Field(nullable=True, isin=VERDICTS, description="The judge's; NULL: none.")
    agreed: bool = pa.Field(description="The judge's verdict is the expected one.")

    class Config:
        strict = True
        unique = ["run_id", "case_id", "claim_index"]  # noqa: RUF012 - pandera reads a plain list
