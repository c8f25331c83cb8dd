"""Data contracts: Pandera models of every input and output table, and batch validation."""

from schemas.batches import JudgeCheck, ScoredBatch, ValidatedRows
from schemas.calibrations import Calibrations
from schemas.contract import (
    CONTRACT_TYPES,
    LONE_SURROGATES,
    NOT_UTF8,
    NOT_UTF8_MARK,
    WRONG_TYPE,
    ValidatedBatch,
    content_case_ids,
    parse_timestamps,
    validate_cases,
)
from schemas.inputs import REQUIRED_COLUMNS, Cases, ChatLog, Contexts, Outputs, Questions, Turns
from schemas.outputs import (
    OUTPUT_MODELS,
    CaseScores,
    ClaimVerdicts,
    JudgeCache,
    Quarantine,
    Runs,
    Truths,
)
from schemas.sizes import SizeLimits

__all__ = [
    "CONTRACT_TYPES",
    "LONE_SURROGATES",
    "NOT_UTF8",
    "NOT_UTF8_MARK",
    "OUTPUT_MODELS",
    "REQUIRED_COLUMNS",
    "WRONG_TYPE",
    "Calibrations",
    "CaseScores",
    "Cases",
    "ChatLog",
    "ClaimVerdicts",
    "Contexts",
    "JudgeCache",
    "JudgeCheck",
    "Outputs",
    "Quarantine",
    "Questions",
    "Runs",
    "ScoredBatch",
    "SizeLimits",
    "Truths",
    "Turns",
    "ValidatedBatch",
    "ValidatedRows",
    "content_case_ids",
    "parse_timestamps",
    "validate_cases",
]
