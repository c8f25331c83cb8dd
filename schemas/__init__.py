"""Data contracts: Pandera models of every input and output table, and batch validation."""

from schemas.calibrations import Calibrations
from schemas.contract import (
    CONTRACT_TYPES,
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
    "OUTPUT_MODELS",
    "REQUIRED_COLUMNS",
    "Calibrations",
    "CaseScores",
    "Cases",
    "ChatLog",
    "ClaimVerdicts",
    "Contexts",
    "JudgeCache",
    "Outputs",
    "Quarantine",
    "Questions",
    "Runs",
    "SizeLimits",
    "Truths",
    "Turns",
    "ValidatedBatch",
    "content_case_ids",
    "parse_timestamps",
    "validate_cases",
]
