"""Data contracts: Pandera models of every input and output table, and batch validation."""

from schemas.contract import CONTRACT_TYPES, ValidatedBatch, validate_cases
from schemas.inputs import REQUIRED_COLUMNS, Cases, Contexts, Outputs, Questions

__all__ = [
    "CONTRACT_TYPES",
    "REQUIRED_COLUMNS",
    "Cases",
    "Contexts",
    "Outputs",
    "Questions",
    "ValidatedBatch",
    "validate_cases",
]
