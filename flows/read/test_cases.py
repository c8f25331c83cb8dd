"""DeepEval-style test-case files: CSV, JSON or JSONL read into LLMTestCase objects, as
`EvaluationDataset.add_test_cases_from_csv_file` / `_json_file` read them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from faith_udfs import LLMTestCase
from faith_udfs.dataset import cases_from_records, records_of_text

FORMATS = {".csv": "csv", ".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl"}


def load_test_cases(
    path: str | Path, *, file_format: str | None = None, encoding: str = "utf-8", **fields: Any
) -> list[LLMTestCase]:
    """The test cases of a CSV, JSON or JSONL file (format from the extension, or
    `file_format`: "csv", "json" or "jsonl"; `encoding`: the text's, a UTF-8 byte-order mark
    skipped); `fields` are `cases_from_records`' (input=,
    actual_output=, retrieval_context=, delimiter="|", case_id=, expected_output=, context=,
    ...): a CSV cell's passages are split on `delimiter`, a JSON list is taken as it is (and
    a JSON string of passages refused: one string is no list of passages)."""
    path = Path(path)
    fmt = file_format or FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise ValueError(f"{path.name}: test cases come as .csv, .json or .jsonl")
    records = records_of_text(path.read_text(encoding=_with_bom(encoding)), fmt, path.name)
    return cases_from_records(records, **fields, split_text=fmt == "csv")


def _with_bom(encoding: str) -> str:
    """UTF-8 read as utf-8-sig: a byte-order mark (Excel's) is no part of the first name."""
    return "utf-8-sig" if encoding.lower().replace("_", "-") in ("utf-8", "utf8") else encoding
