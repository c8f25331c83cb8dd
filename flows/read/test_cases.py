"""DeepEval-style test-case files: CSV, JSON or JSONL read into LLMTestCase objects, as
`EvaluationDataset.add_test_cases_from_csv_file` / `_json_file` read them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from faith_udfs import LLMTestCase
from faith_udfs.dataset import cases_from_records, records_of_text

FORMATS = {".csv": "csv", ".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl"}


def load_test_cases(
    path: str | Path, *, file_format: str | None = None, **fields: Any
) -> list[LLMTestCase]:
    """The test cases of a CSV, JSON or JSONL file (format from the extension, or
    `file_format`: "csv", "json" or "jsonl"); `fields` are `cases_from_records`' (input=,
    actual_output=, retrieval_context=, delimiter="|", case_id=, expected_output=, context=,
    ...): a CSV cell's passages are split on `delimiter`, a JSON list is taken as it is."""
    path = Path(path)
    fmt = file_format or FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise ValueError(f"{path.name}: test cases come as .csv, .json or .jsonl")
    return cases_from_records(records_of_text(path.read_text(encoding="utf-8-sig"), fmt), **fields)
