"""Data contracts: Pandera models of every input and output table, and batch validation."""

from schemas.calibrations import Calibrations
from schemas.contract import CONTRACT_TYPES, ValidatedBatch, parse_timestamps, validate_cases
from schemas.inputs import REQUIRED_COLUMNS, Cases, Contexts, Outputs, Questions
from schemas.outputs import (
    OUTPUT_MODELS,
    CaseScores,
    ClaimVerdicts,
    JudgeCache,
    Quarantine,
    Runs,
    Truths,
)

__all__ = [
    "CONTRACT_TYPES",
    "OUTPUT_MODELS",
    "REQUIRED_COLUMNS",
    "Calibrations",
    "CaseScores",
    "Cases",
    "ClaimVerdicts",
    "Contexts",
    "JudgeCache",
    "Outputs",
    "Quarantine",
    "Questions",
    "Runs",
    "Truths",
    "ValidatedBatch",
    "parse_timestamps",
    "validate_cases",
]
