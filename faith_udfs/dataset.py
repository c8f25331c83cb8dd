"""Test cases from rows, as DeepEval's dataset loaders read CSV and JSON files (the file is
opened in flows: `flows.run.deepeval.load_test_cases`); pure: text or records in, cases out."""

from __future__ import annotations

import ast
import csv
import io
import json
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from faith_udfs.api import LLMTestCase
from faith_udfs.errors import ConfigError

FileLoader = Callable[..., list[LLMTestCase]]
_LOADERS: list[FileLoader] = []
LOADING_NEEDS_FLOWS = (
    "load_test_cases reads a file, which faith_udfs (no I/O) does not: `import "
    "flows.run.deepeval` first (it installs the file reader), or call "
    "flows.run.deepeval.load_test_cases"
)


def register_test_case_loader(loader: FileLoader) -> None:
    """Install what reads a test-case file (flows installs flows.read.test_cases')."""
    if loader not in _LOADERS:
        _LOADERS.append(loader)


def load_test_cases(path: str | Path, **fields: Any) -> list[LLMTestCase]:
    """The test cases of a CSV, JSON or JSONL file, as DeepEval's dataset loaders read them
    (`input=`, `actual_output=`, `retrieval_context=`, `delimiter="|"`, `case_id=`), through
    the reader flows installs: faith_udfs opens no file itself."""
    if not _LOADERS:
        raise ConfigError(LOADING_NEEDS_FLOWS)
    return _LOADERS[-1](path, **fields)


def cases_from_records(
    records: Iterable[Mapping[str, Any]],
    *,
    input: str = "input",
    actual_output: str = "actual_output",
    retrieval_context: str | None = "retrieval_context",
    delimiter: str = "|",
    case_id: str | None = None,
    expected_output: str | None = None,
    context: str | None = None,
    context_delimiter: str = "|",
    additional_metadata: str | None = None,
    name: str | None = None,
    split_text: bool = True,
) -> list[LLMTestCase]:
    """One LLMTestCase a record; a text retrieval_context is split on `delimiter` (as
    DeepEval's `retrieval_context_col_delimiter`), a list is taken as it is; None: no passages.
    `expected_output`, `context` (split on `context_delimiter`), `additional_metadata` (a dict,
    or a CSV cell holding one as a Python literal, as DeepEval reads it) and `name` name the
    fields DeepEval's loaders also fill: kept on the case, never read by the metric.
    `split_text=False` (records of a JSON file, which can hold a list): a text of passages
    is a ValueError naming the record, as one string is no list of passages elsewhere."""
    cases = []
    for index, record in enumerate(records):
        if actual_output not in record:
            raise ValueError(f"record {index} has no {actual_output!r} field")
        passages = _listed(record, retrieval_context, delimiter, index, split_text)
        given = record.get(case_id) if case_id else None
        try:  # a passage stays as logged: an object ({"text": ...}) is refused, not its repr
            case = LLMTestCase(
                input=record.get(input),  # type: ignore[arg-type]  # DeepEval: input may be absent
                actual_output=record[actual_output],
                # a null passage stays None (a blank passage: the case is invalid), not 'None'
                retrieval_context=passages,
                case_id=str(given) if given is not None else "case",
                expected_output=_text(record, expected_output),
                # a column the file lacks: None, as DeepEval's (a metric needing it says so)
                context=_listed(record, context, context_delimiter, index, split_text)
                if context and context in record
                else None,
                additional_metadata=_metadata(record, additional_metadata, index),
                name=_text(record, name),
            )
        except TypeError as exc:  # which of the file's records, for one line
            raise TypeError(f"record {index}: {exc}") from None
        cases.append(case)
    return cases


def _listed(
    record: Mapping[str, Any], field: str | None, delimiter: str, index: int, split_text: bool
) -> list | None:
    """The field's passages: a list as it is, a text split on `delimiter` (a CSV cell), none
    when absent: None in a JSON record (missing, as DeepEval's JSON loader reads it), [] in a
    CSV row (an empty cell, as DeepEval's CSV loader reads it)."""
    passages = record.get(field) if field else None
    if passages is None and not split_text:
        return None
    if passages is None or passages == "":
        return []
    if isinstance(passages, str) and not split_text:
        raise ValueError(
            f"record {index}: {field!r} is one string, not a list of passages: write it as "
            'a JSON list (["..."]); only a CSV cell is split, on its delimiter'
        )
    if isinstance(passages, str):
        return [p.strip() for p in passages.split(delimiter) if p.strip()]
    if not isinstance(passages, list):
        raise ValueError(f"record {index}: {field!r} must be text or a list")
    return passages


def _text(record: Mapping[str, Any], field: str | None) -> str | None:
    value = record.get(field) if field else None
    return None if value is None or value == "" else str(value)


def _metadata(record: Mapping[str, Any], field: str | None, index: int) -> dict | None:
    value = record.get(field) if field else None
    if value is None or value == "":
        return None
    if isinstance(value, str):
        try:
            value = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            raise ValueError(
                f"record {index}: {field!r} is no dict literal ({{'key': 'value'}})"
            ) from None
    if not isinstance(value, dict):
        raise ValueError(f"record {index}: {field!r} must be a dict, got {type(value).__name__}")
    return value


def records_of_text(text: str, fmt: str, source: str = "the text") -> list[dict[str, Any]]:
    """The records a CSV (header row), JSON (an array of objects) or JSONL text holds; text
    that is no JSON is a ValueError naming `source` (a file's name) and the line that breaks,
    the file's line for JSONL (json's own says line 1 of that line)."""
    if fmt == "csv":
        return list(csv.DictReader(io.StringIO(text)))
    if fmt == "json":
        value = _json(text, source, 0)
        if not isinstance(value, list):
            raise ValueError("a JSON test-case file holds an array of objects")
        return value
    if fmt == "jsonl":
        # lines end at a line feed alone: JSON text may hold U+2028 or U+0085 raw, which
        # str.splitlines() ends a line at too (a good record refused as no JSON)
        lines = text.split("\n")
        return [_json(line, source, n) for n, line in enumerate(lines) if line.strip()]
    raise ValueError(f"format {fmt!r}: choose csv, json or jsonl")


def _json(text: str, source: str, lines_before: int) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(
            f"{source}, line {lines_before + exc.lineno}: not JSON ({exc.msg}, column {exc.colno})"
        ) from None
