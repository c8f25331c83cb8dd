"""DeepEval's EvaluationDataset, filled in code and from its CSV and JSON loaders, as a DeepEval
script uses it with only its import lines changed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from flows.run.deepeval import (
    DisplayConfig,
    EvaluationDataset,
    FaithfulnessMetric,
    LLMTestCase,
    evaluate,
)

QUIET = DisplayConfig(print_results=False)
CONTEXT = ["Refunds are paid within 30 days.", "We ship to Spain."]


def test_a_dataset_of_test_cases_is_iterated_and_evaluated_as_deepevals() -> None:
    refunds = "Refunds are paid within 30 days."
    dataset = EvaluationDataset(
        test_cases=[LLMTestCase(input="When?", actual_output=refunds, retrieval_context=CONTEXT)]
    )
    dataset.add_test_case(
        LLMTestCase(input="Where?", actual_output="We ship to Mars.", retrieval_context=CONTEXT)
    )
    assert [case.input for case in dataset] == ["When?", "Where?"]
    assert len(dataset) == len(dataset.test_cases) == 2
    result = dataset.evaluate([FaithfulnessMetric()], display_config=QUIET)
    assert [t.metrics_data[0].score for t in result.test_results] == [1.0, 0.0]
    # DeepEval 1's style, the dataset itself as the test cases: the same result
    again = evaluate(dataset, [FaithfulnessMetric()], display_config=QUIET)
    assert [t.success for t in again.test_results] == [True, False]


def test_a_csv_file_is_read_with_the_column_names_and_delimiter_given(tmp_path: Path) -> None:
    path = tmp_path / "cases.txt"  # DeepEval reads any name as CSV here
    path.write_text(
        "question,answer,docs,expected,meta\n"
        '"When?","Refunds are paid within 30 days.","Refunds are paid within 30 days.;We ship to '
        'Spain.","Within 30 days.","{\'ticket\': \'T-1\'}"\n'
        '"Where?","We ship to Mars.","We ship to Spain.",,\n'
    )
    dataset = EvaluationDataset()
    dataset.add_test_cases_from_csv_file(
        file_path=str(path),
        input_col_name="question",
        actual_output_col_name="answer",
        expected_output_col_name="expected",
        retrieval_context_col_name="docs",
        retrieval_context_col_delimiter=";",  # DeepEval's default is '|'
        additional_metadata_col_name="meta",
    )
    first, second = dataset.test_cases
    assert first.retrieval_context == CONTEXT  # split on the ';' given
    assert first.expected_output == "Within 30 days."
    assert first.additional_metadata == {"ticket": "T-1"}
    assert (second.expected_output, second.additional_metadata) == (None, None)
    result = dataset.evaluate([FaithfulnessMetric()], display_config=QUIET)
    assert [t.metrics_data[0].score for t in result.test_results] == [1.0, 0.0]
    assert result.test_results[0].metadata == {"ticket": "T-1"}  # DeepEval's TestResult name


def test_a_json_file_is_read_with_deepevals_key_names(tmp_path: Path) -> None:
    path = tmp_path / "cases.json"
    path.write_text(json.dumps([
        {"q": "When?", "a": "Refunds are paid within 30 days.", "ctx": CONTEXT, "ref": ["Policy."]},
    ]))  # fmt: skip
    dataset = EvaluationDataset()
    dataset.add_test_cases_from_json_file(
        str(path), input_key_name="q", actual_output_key_name="a",
        context_key_name="ref", retrieval_context_key_name="ctx",
    )  # fmt: skip
    (case,) = dataset
    assert (case.input, case.retrieval_context, case.context) == ("When?", CONTEXT, ["Policy."])


def test_what_a_dataset_cannot_hold_or_score_is_refused_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="Unable to evaluate empty dataset"):
        EvaluationDataset().evaluate([FaithfulnessMetric()])
    with pytest.raises(TypeError, match="holds LLMTestCase objects, got dict"):
        EvaluationDataset(test_cases=[{"input": "q"}])  # type: ignore[list-item]
    dataset = EvaluationDataset()
    with pytest.raises(TypeError, match="'test_cases' must be a list"):
        dataset.test_cases = (LLMTestCase(input="q", actual_output="a"),)  # type: ignore[assignment]
    path = tmp_path / "cases.csv"
    path.write_text("input,actual_output,meta\nq,a,not a dict\n")
    with pytest.raises(ValueError, match="record 0: 'meta' is no dict literal"):
        dataset.add_test_cases_from_csv_file(path, "input", "actual_output",
                                             additional_metadata_col_name="meta")  # fmt: skip
    assert dataset.test_cases == []  # nothing half added


def test_the_csv_loader_takes_deepevals_defaults_pipes_and_column_names(tmp_path: Path) -> None:
    """DeepEval 4's `add_test_cases_from_csv_file` reads its own column names unless told
    others, and splits context cells on `|` (what its `save_as` joins on): a script naming only
    the input and answer columns, or relying on the delimiter, reads what DeepEval reads."""
    path = tmp_path / "saved.csv"
    path.write_text(
        "input,actual_output,expected_output,context,retrieval_context,additional_metadata\n"
        '"When?","Refunds are paid within 30 days.","Within 30 days.","Policy A|Policy B",'
        "\"Refunds are paid within 30 days.|We ship to Spain.\",\"{'ticket': 'T-1'}\"\n"
    )
    dataset = EvaluationDataset()
    dataset.add_test_cases_from_csv_file(
        file_path=str(path), input_col_name="input", actual_output_col_name="actual_output"
    )
    (case,) = dataset.test_cases
    assert case.retrieval_context == CONTEXT
    assert case.context == ["Policy A", "Policy B"]
    assert (case.expected_output, case.additional_metadata) == (
        "Within 30 days.",
        {"ticket": "T-1"},
    )
    # positional as DeepEval's: the 9th argument names the tools column (not read here)
    again = EvaluationDataset()
    again.add_test_cases_from_csv_file(
        path, "input", "actual_output", "expected_output", "context", "|",
        "retrieval_context", "|", "tools_called", ";", "expected_tools", ";",
        "additional_metadata",
    )  # fmt: skip
    assert again.test_cases[0].additional_metadata == {"ticket": "T-1"}


def test_the_json_loader_takes_deepevals_other_keywords(tmp_path: Path) -> None:
    path = tmp_path / "cases.json"
    path.write_text(json.dumps([{"input": "When?", "actual_output": "Soon.", "rc": CONTEXT}]))
    dataset = EvaluationDataset()
    dataset.add_test_cases_from_json_file(
        file_path=str(path), input_key_name="input", actual_output_key_name="actual_output",
        retrieval_context_key_name="rc", tools_called_key_name=None,
        expected_tools_key_name=None, addtional_metadata_key_name=None, encoding_type="utf-8",
    )  # fmt: skip
    assert dataset.test_cases[0].retrieval_context == CONTEXT
