"""Pandera models of the output tables, named like their DuckDB tables (`CaseScores` is
`case_scores`). A test reads each table of a real run back and validates it, so the SQL
migrations and these contracts cannot drift apart."""

from __future__ import annotations

import datetime as dt

import pandera.polars as pa
import polars as pl

from faith_udfs.judges import VERDICT_VOCABULARY
from schemas.calibrations import Calibrations
from schemas.judge_checks import JudgeChecks, JudgeCheckVerdicts

STATUSES = ["scored", "invalid", "pending"]
RUN_STATUSES = ["running", "completed", "failed", "interrupted", "superseded"]
VERDICTS = list(VERDICT_VOCABULARY)


class Runs(pa.DataFrameModel):
    """`runs`: one row a run of `faith score` or `faith nightly`."""

    run_id: str = pa.Field(unique=True, description="YYYYMMDDTHHMMSS-xxxxxxxx.")
    flow: str = pa.Field(isin=["score", "nightly"], description="Which command ran.")
    config_id: str = pa.Field(description="The metric config scored under.")
    config: str = pa.Field(description="The config's settings as JSON; never a secret.")
    source: str = pa.Field(description="What was read.")
    status: str = pa.Field(isin=RUN_STATUSES, description="Where the run ended.")
    started_at: dt.datetime = pa.Field(description="UTC start.")
    heartbeat_at: dt.datetime = pa.Field(nullable=True, description="UTC, moves every batch.")
    finished_at: dt.datetime = pa.Field(nullable=True, description="UTC end.")
    pid: pl.Int32 = pa.Field(nullable=True, description="The process that ran it.")
    host: str = pa.Field(nullable=True, description="The machine that ran it.")
    batches: pl.Int64 = pa.Field(ge=0, description="Batches committed.")
    rows_in: pl.Int64 = pa.Field(ge=0, description="= scored + invalid + pending + quarantined.")
    rows_scored: pl.Int64 = pa.Field(ge=0, description="Newly plus already scored.")
    rows_newly_scored: pl.Int64 = pa.Field(ge=0, description="Scored by this run.")
    rows_already_scored: pl.Int64 = pa.Field(ge=0, description="Same config and content.")
    rows_invalid: pl.Int64 = pa.Field(ge=0, description="Could not be judged; retried next run.")
    rows_pending: pl.Int64 = pa.Field(ge=0, description="Left for the next run by a cap.")
    rows_quarantined: pl.Int64 = pa.Field(ge=0, description="Broke the input contract.")
    rows_replaced: pl.Int64 = pa.Field(ge=0, description="Re-delivered with new content.")
    rows_passed: pl.Int64 = pa.Field(ge=0, description="Of the newly scored, passed.")
    judge_calls: pl.Int64 = pa.Field(ge=0, description="Calls made to the judge.")
    judge_cached: pl.Int64 = pa.Field(ge=0, description="Answers taken from judge_cache.")
    judge_failed: pl.Int64 = pa.Field(ge=0, description="Calls none of whose answers was used.")
    prompt_tokens: pl.Int64 = pa.Field(ge=0, description="Tokens sent.")
    completion_tokens: pl.Int64 = pa.Field(ge=0, description="Tokens received.")
    seconds_read: float = pa.Field(ge=0, description="Reading Parquet.")
    seconds_validate: float = pa.Field(ge=0, description="Casting and validating.")
    seconds_score: float = pa.Field(ge=0, description="Scoring.")
    seconds_write: float = pa.Field(ge=0, description="Writing to DuckDB.")
    seconds_total: float = pa.Field(nullable=True, ge=0, description="Wall time.")
    error: str = pa.Field(nullable=True, description="Why the run failed.")
    warning: str = pa.Field(nullable=True, description="E.g. judge drift.")
    judge_response_format: str = pa.Field(
        nullable=True, description="json_schema, json_object or text: how the LLM was asked."
    )
    judge_tokens_estimated: pl.Int64 = pa.Field(
        ge=0, description="Calls whose token counts are estimates (no usage sent)."
    )
    price_input_usd: float = pa.Field(nullable=True, ge=0, description="USD per 1M tokens in.")
    price_output_usd: float = pa.Field(nullable=True, ge=0, description="USD per 1M tokens out.")
    cost_usd: float = pa.Field(nullable=True, ge=0, description="Tokens at those prices.")
    dry_run: bool = pa.Field(nullable=True, description="--dry-run: estimates, nothing judged.")
    max_invalid_share: float = pa.Field(nullable=True, description="The run's threshold.")
    max_quarantine_share: float = pa.Field(
        nullable=True, description="Its --max-quarantine-share (issue 22)."
    )
    rows_invalid_again: pl.Int64 = pa.Field(
        ge=0, description="Of the invalid, invalid before with the same content."
    )

    class Config:
        strict = True


class CaseScores(pa.DataFrameModel):
    """`case_scores`: one row a case and metric config."""

    config_id: str = pa.Field(description="The metric config.")
    case_id: str = pa.Field(description="The logged exchange.")
    run_id: str = pa.Field(description="The run that scored it last.")
    content_hash: str = pa.Field(str_length={"min_value": 32, "max_value": 32}, description="md5.")
    logged_at: dt.datetime = pa.Field(nullable=True, description="When it was logged, UTC.")
    input: str = pa.Field(nullable=True, description="The question.")
    actual_output: str = pa.Field(nullable=True, description="The answer.")
    n_truths: pl.Int32 = pa.Field(nullable=True, ge=0, description="Truths of its passages.")
    n_claims: pl.Int32 = pa.Field(nullable=True, ge=0, description="Claims of its answer.")
    n_yes: pl.Int32 = pa.Field(nullable=True, ge=0, description="Claims supported.")
    n_no: pl.Int32 = pa.Field(nullable=True, ge=0, description="Claims contradicted.")
    n_idk: pl.Int32 = pa.Field(nullable=True, ge=0, description="Claims not mentioned.")
    n_dropped: pl.Int32 = pa.Field(nullable=True, ge=0, description="Verdicts off-vocabulary.")
    score: float = pa.Field(nullable=True, in_range={"min_value": 0, "max_value": 1})
    threshold: float = pa.Field(nullable=True, in_range={"min_value": 0, "max_value": 1})
    penalize_ambiguous_claims: bool = pa.Field(nullable=True, description="idk counted as no.")
    strict_mode: bool = pa.Field(nullable=True, description="Threshold 1, below 1 is 0.")
    success: bool = pa.Field(nullable=True, description="score >= threshold; NULL unless scored.")
    no_claims: bool = pa.Field(nullable=True, description="Answer without claims (score 1).")
    status: str = pa.Field(isin=STATUSES, description="scored, invalid or pending.")
    error: str = pa.Field(nullable=True, description="Why it is invalid or pending.")
    reason: str = pa.Field(nullable=True, description="Short explanation of the score.")
    # pandera takes a dtype instance as the annotation; the type checker takes only classes.
    passage_ids: pl.List(pl.UInt64) = pa.Field(  # type: ignore[valid-type]
        nullable=True, description="Its passages."
    )
    # JSON in DuckDB (it rejects text that is not JSON); read as text, so the model checks
    # it is an object.
    segments: str = pa.Field(
        nullable=True,
        str_startswith="{",
        str_endswith="}",
        description="Extra input columns as a JSON object (app_version, model, ...).",
    )
    judge_calls: float = pa.Field(ge=0, description="Its share of the judge calls made.")
    prompt_tokens: pl.Int32 = pa.Field(ge=0, description="Tokens sent for it.")
    completion_tokens: pl.Int32 = pa.Field(ge=0, description="Tokens received for it.")
    scored_at: dt.datetime = pa.Field(description="UTC.")

    class Config:
        strict = True
        unique = ["config_id", "case_id"]  # noqa: RUF012 - pandera reads a plain list


class ClaimVerdicts(pa.DataFrameModel):
    """`claim_verdicts`: one row a claim of a scored case."""

    config_id: str = pa.Field(description="The metric config.")
    case_id: str = pa.Field(description="The case.")
    claim_index: pl.Int32 = pa.Field(ge=0, description="Position in the answer, from 0.")
    claim: str = pa.Field(description="The claim as extracted.")
    verdict: str = pa.Field(nullable=True, isin=VERDICTS, description="NULL: off-vocabulary.")
    reason: str = pa.Field(nullable=True, description="Why no or idk.")
    support: float = pa.Field(
        nullable=True, ge=0.0, le=1.0, description="Share of the claim the context covers."
    )
    evidence: str = pa.Field(
        nullable=True, description="The context sentence that supports or contradicts it."
    )
    context_lacks: pl.List(pl.String) = pa.Field(  # type: ignore[valid-type]
        nullable=True,
        description="Of a no or idk claim: its words, figures and names found nowhere in the "
        "context.",
    )
    supported_by: str = pa.Field(
        nullable=True,
        isin=["passage", "conversation"],
        description="A yes claim's support: its own passages, or only earlier turns.",
    )

    class Config:
        strict = True
        unique = ["config_id", "case_id", "claim_index"]  # noqa: RUF012


class Truths(pa.DataFrameModel):
    """`truths`: one row a truth of a distinct passage."""

    config_id: str = pa.Field(description="The metric config.")
    passage_id: pl.UInt64 = pa.Field(description="Key of the passage (case_scores.passage_ids).")
    truth_index: pl.Int32 = pa.Field(ge=0, description="Position in the passage, from 0.")
    truth: str = pa.Field(description="The factual statement.")

    class Config:
        strict = True
        unique = ["config_id", "passage_id", "truth_index"]  # noqa: RUF012


class Quarantine(pa.DataFrameModel):
    """`quarantine`: one row an input row and the check it failed."""

    row_key: str = pa.Field(description="The input row, stable across runs.")
    check: str = pa.Field(description="The failed check.")
    run_id: str = pa.Field(description="First run that quarantined it.")
    case_id: str = pa.Field(nullable=True, description="As read.")
    column: str = pa.Field(nullable=True, description="The offending column.")
    value: str = pa.Field(nullable=True, description="The offending value, as text.")
    source_file: str = pa.Field(nullable=True, description="Where it was read.")
    row_json: str = pa.Field(description="The whole row as read.")
    quarantined_at: dt.datetime = pa.Field(description="UTC.")

    class Config:
        strict = True
        unique = ["row_key", "check"]  # noqa: RUF012


class JudgeCache(pa.DataFrameModel):
    """`judge_cache`: one row a judge call ever made."""

    cache_key: str = pa.Field(unique=True, description="Hash of model, template, prompt.")
    kind: str = pa.Field(description="Judge kind.")
    model: str = pa.Field(description="Model name.")
    prompt_version: str = pa.Field(description="Template version.")
    schema_name: str = pa.Field(description="Which question.")
    reply: str = pa.Field(description="The reply's JSON.")
    prompt_tokens: pl.Int32 = pa.Field(ge=0, description="Tokens sent.")
    completion_tokens: pl.Int32 = pa.Field(ge=0, description="Tokens received.")
    created_at: dt.datetime = pa.Field(description="UTC.")
    item: str = pa.Field(
        nullable=True,
        description="The item the answer was asked for (what its key hashes); NULL before v18.",
    )

    class Config:
        strict = True


class LegacyPassageKeys(pa.DataFrameModel):
    """`legacy_passage_keys`: passage ids written before migration 007, until `faith rekey`."""

    config_id: str = pa.Field(description="The metric config of the truths that use it.")
    passage_id: pl.UInt64 = pa.Field(description="polars' hash() of the passage (pre-007).")

    class Config:
        strict = True
        unique = ["config_id", "passage_id"]  # noqa: RUF012


class JudgeBatches(pa.DataFrameModel):
    """`judge_batches`: one row a batch submitted with `--judge-mode batch` (migration 010)."""

    batch_id: str = pa.Field(
        unique=True, description="The server's batch id; submitting:<input_file_id> until known."
    )
    input_file_id: str = pa.Field(description="The uploaded JSONL of requests.")
    output_file_id: str = pa.Field(nullable=True, description="Its answers, once there.")
    error_file_id: str = pa.Field(nullable=True, description="Its failed requests, once known.")
    endpoint: str = pa.Field(description="host[:port] only.")
    model: str = pa.Field(description="Model name.")
    config: str = pa.Field(description="JSON: the judge identity its items were asked under.")
    state: str = pa.Field(
        description="The server's status as last seen, or submitting, refused, lost, abandoned."
    )
    requests: pl.Int32 = pa.Field(ge=1, description="Request lines (packs of items).")
    items: pl.Int32 = pa.Field(ge=1, description="Judge items asked.")
    items_answered: pl.Int32 = pa.Field(nullable=True, ge=0, description="Stored in judge_cache.")
    items_failed: pl.Int32 = pa.Field(nullable=True, ge=0, description="Refused or unusable.")
    prompt_tokens: pl.Int64 = pa.Field(nullable=True, ge=0, description="Of its answers.")
    completion_tokens: pl.Int64 = pa.Field(nullable=True, ge=0, description="Of its answers.")
    submitted_at: dt.datetime = pa.Field(description="UTC.")
    checked_at: dt.datetime = pa.Field(nullable=True, description="State last asked, UTC.")
    collected_at: dt.datetime = pa.Field(nullable=True, description="NULL: still waited for.")
    error: str = pa.Field(nullable=True, description="Why the server failed it.")

    class Config:
        strict = True


class JudgeBatchItems(pa.DataFrameModel):
    """`judge_batch_items`: one row an item of a submitted batch."""

    batch_id: str = pa.Field(description="Its batch.")
    custom_id: str = pa.Field(description="Its request line in the batch.")
    position: pl.Int32 = pa.Field(ge=0, description="Its place in that line's pack.")
    stage: str = pa.Field(
        isin=["truths", "claims", "verdicts", "reasons"], description="Which question."
    )
    item: str = pa.Field(description="JSON of the item as it enters the cache key.")
    cache_key: str = pa.Field(description="judge_cache.cache_key of its answer.")
    error: str = pa.Field(nullable=True, description="Why its answer was unusable.")
    error_reported: bool = pa.Field(description="That error made its cases invalid once.")

    class Config:
        strict = True
        unique = ["batch_id", "custom_id", "position"]  # noqa: RUF012


class RunQuarantineChecks(pa.DataFrameModel):
    """`run_quarantine_checks`: rows a run quarantined, by the check they failed."""

    run_id: str = pa.Field(description="The run.")
    check: str = pa.Field(description="quarantine.check.")
    rows: pl.Int64 = pa.Field(ge=1, description="Its rows failing that check in this run.")

    class Config:
        strict = True
        unique = ["run_id", "check"]  # noqa: RUF012


OUTPUT_MODELS: dict[str, type[pa.DataFrameModel]] = {
    "runs": Runs,
    "case_scores": CaseScores,
    "claim_verdicts": ClaimVerdicts,
    "truths": Truths,
    "quarantine": Quarantine,
    "judge_cache": JudgeCache,
    "legacy_passage_keys": LegacyPassageKeys,
    "judge_batches": JudgeBatches,
    "judge_batch_items": JudgeBatchItems,
    "calibrations": Calibrations,
    "run_quarantine_checks": RunQuarantineChecks,
    "judge_checks": JudgeChecks,
    "judge_check_verdicts": JudgeCheckVerdicts,
}
