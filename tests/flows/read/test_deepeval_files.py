"""Issue 24: test-case files read as DeepEval's dataset loaders read them (CSV, JSON, JSONL)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from flows.run.deepeval import DisplayConfig, FaithfulnessMetric, evaluate, load_test_cases

ROWS = [
    {"question": "When?", "answer": "Refunds within 30 days.", "ctx": ["Refunds within 30 days."]},
    {"question": "Where?", "answer": "We ship to Mars.", "ctx": ["We ship to Spain.", "Free."]},
]


def write(tmp_path: Path, fmt: str) -> Path:
    path = tmp_path / f"cases.{fmt}"
    if fmt == "csv":
        lines = ["question,answer,ctx", *(f'{r["question"]},{r["answer"]},"{"|".join(r["ctx"])}"'
                                          for r in ROWS)]  # fmt: skip
        path.write_text("\n".join(lines) + "\n")
    elif fmt == "json":
        path.write_text(json.dumps(ROWS))
    else:
        path.write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    return path


@pytest.mark.parametrize("fmt", ["csv", "json", "jsonl"])
def test_each_format_gives_the_same_cases(tmp_path: Path, fmt: str) -> None:
    cases = load_test_cases(
        write(tmp_path, fmt), input="question", actual_output="answer", retrieval_context="ctx"
    )
    assert [(c.input, c.actual_output, c.retrieval_context) for c in cases] == [
        (r["question"], r["answer"], r["ctx"]) for r in ROWS
    ]
    result = evaluate(
        cases, [FaithfulnessMetric()], display_config=DisplayConfig(print_results=False)
    )
    assert [t.metrics_data[0].score for t in result.test_results] == [1.0, 0.0]  # Mars is not Spain


def test_a_null_passage_is_blank_not_the_text_none(tmp_path: Path) -> None:
    """It was read as the passage 'None', which the answer 'None of it.' then matched."""
    path = tmp_path / "cases.json"
    path.write_text(json.dumps([{"input": "q", "actual_output": "None of it.",
                                 "retrieval_context": [None]}]))  # fmt: skip
    (case,) = load_test_cases(path)
    assert case.retrieval_context == [None]
    metric = FaithfulnessMetric()
    assert metric.measure(case) is None
    assert metric.status == "invalid"


def test_another_extension_is_refused_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"come as \.csv, \.json or \.jsonl"):
        load_test_cases(tmp_path / "cases.parquet")


def test_a_file_that_is_no_json_is_named_with_the_line_that_breaks(tmp_path: Path) -> None:
    """A JSONL line that is no JSON (a log cut mid-write) said only "Expecting ',' delimiter:
    line 1 column 40", line 1 of that line's text, naming neither the file nor its line."""
    lines = [json.dumps(r) for r in ROWS] * 3
    lines[4] = lines[4][:40]  # the fifth line cut short
    path = tmp_path / "log.jsonl"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(ValueError, match=r"^log\.jsonl, line 5: not JSON \(.*, column \d+\)$"):
        load_test_cases(path, input="question", actual_output="answer", retrieval_context="ctx")
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(ROWS, indent=1)[:-30])
    with pytest.raises(ValueError, match=r"^cases\.json, line \d+: not JSON \("):
        load_test_cases(path, input="question", actual_output="answer", retrieval_context="ctx")


def test_a_jsonl_line_holding_a_line_separator_in_its_text_is_one_record(tmp_path: Path) -> None:
    """JSON text may hold U+2028 or U+0085 raw (json.dumps(..., ensure_ascii=False) writes
    them so: text pasted from a web page or a PDF). The lines were split on them as well as on
    line feeds, so a good log was refused as 'not JSON', naming a line that was not its."""
    rows = [{**ROWS[0], "answer": "Refunds\u2028within 30 days."}, {**ROWS[1], "question": "\x85"}]
    path = tmp_path / "log.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\r\n" for r in rows * 2), "utf-8")
    cases = load_test_cases(path, input="question", actual_output="answer", retrieval_context="ctx")
    assert [c.actual_output for c in cases] == [r["answer"] for r in rows * 2]
    lines = [json.dumps(r, ensure_ascii=False) for r in rows * 2]
    lines[3] = lines[3][:20]  # the fourth line cut short: still named as the fourth
    path.write_text("\n".join(lines) + "\n", "utf-8")
    with pytest.raises(ValueError, match=r"^log\.jsonl, line 4: not JSON"):
        load_test_cases(path, input="question", actual_output="answer", retrieval_context="ctx")


LOADER = """
import sys
from pathlib import Path
import faith_udfs
from faith_udfs import ConfigError, load_test_cases
try:
    load_test_cases(sys.argv[1])
except ConfigError as exc:
    print("refused:", exc)
import flows.run.deepeval
cases = faith_udfs.load_test_cases(
    Path(sys.argv[1]), actual_output="answer", retrieval_context="ctx"
)
print([c.actual_output for c in cases])
"""


def test_faith_udfs_load_test_cases_reads_files_once_flows_installs_the_reader(
    tmp_path: Path,
) -> None:
    from tests.conftest import run_python

    done = run_python("-c", LOADER, str(write(tmp_path, "jsonl")))
    assert done.returncode == 0, done.stderr[-2000:]
    refused, loaded = done.stdout.splitlines()
    assert refused.startswith("refused: load_test_cases reads a file, which faith_udfs (no I/O)")
    assert loaded == str([r["answer"] for r in ROWS])


@pytest.mark.parametrize("fmt", ["json", "jsonl"])
def test_one_string_of_passages_in_a_json_file_is_refused_naming_the_record(
    tmp_path: Path, fmt: str
) -> None:
    """A JSON string was split on `|` as a CSV cell is: a passage holding a markdown table
    ('| Plan | Price |') became its cells, without a word, where one string is no list of
    passages at every other entry point (docs/conversations.md) and DeepEval refuses it."""
    rows = [ROWS[0], {**ROWS[1], "ctx": "| Plan | Price |\n| Basic | 10 EUR |"}]
    path = tmp_path / f"cases.{fmt}"
    path.write_text(
        json.dumps(rows) if fmt == "json" else "".join(json.dumps(r) + "\n" for r in rows)
    )
    with pytest.raises(ValueError, match=r"^record 1: 'ctx' is one string, not a list of passag"):
        load_test_cases(path, input="question", actual_output="answer", retrieval_context="ctx")


def test_a_record_that_is_no_test_case_is_named_and_its_passages_never_stringified(
    tmp_path: Path,
) -> None:
    """A passage logged as an object ({"text": ..., "score": 0.8}, as retrievers return
    them) was scored as the text of its Python repr, and an answer that is no string raised
    LLMTestCase's TypeError naming no record of the file."""
    path = tmp_path / "cases.jsonl"
    docs = {"input": "q", "actual_output": "Refunds within 30 days."}
    passage = {"text": "Refunds within 30 days.", "score": 0.8}
    rows = [{**docs, "retrieval_context": [passage["text"]]},
            {**docs, "retrieval_context": [passage]}]  # fmt: skip
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    with pytest.raises(TypeError, match=r"^record 1: retrieval_context must be a list of strings"):
        load_test_cases(path)
    path.write_text(json.dumps({**docs, "actual_output": {"text": "x"}}) + "\n")
    with pytest.raises(TypeError, match=r"^record 0: actual_output must be a string, got dict$"):
        load_test_cases(path)


def test_a_json_record_without_passages_is_missing_one_with_an_empty_list_is_given(
    tmp_path: Path,
) -> None:
    """As DeepEval's JSON loader reads them: no `retrieval_context` (or null) is None, which
    skip_on_missing_params skips; `[]` is given, and judged (here: EmptyContext). A CSV's
    empty cell is `[]`, as DeepEval's CSV loader reads it."""
    path = tmp_path / "cases.json"
    answer = {"input": "q", "actual_output": "Free."}
    records = [answer, {**answer, "retrieval_context": None}, {**answer, "retrieval_context": []}]
    path.write_text(json.dumps(records))
    cases = load_test_cases(path)
    assert [c.retrieval_context for c in cases] == [None, None, []]
    quiet = DisplayConfig(print_results=False)
    result = evaluate(cases, [FaithfulnessMetric()], display_config=quiet,
                      skip_on_missing_params=True, ignore_errors=True)  # fmt: skip
    assert [len(t.metrics_data) for t in result.test_results] == [0, 0, 1]
    csv = tmp_path / "cases.csv"
    csv.write_text("input,actual_output,retrieval_context\nq,Free.,\n")
    assert [c.retrieval_context for c in load_test_cases(csv)] == [[]]
