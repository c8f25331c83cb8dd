"""DeepEval's `EvaluationDataset`: a list of test cases, filled in code or from CSV and JSON
files, scored by `evaluate` in one batch pass. Its files are read by the reader flows installs
(`import flows.run.deepeval`): faith_udfs opens no file itself."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from faith_udfs.api import FaithfulnessMetric, LLMTestCase
from faith_udfs.dataset import load_test_cases
from faith_udfs.evaluation import EvaluationResult, evaluate

EMPTY_DATASET = "No test cases found in evaluation dataset. Unable to evaluate empty dataset."


class EvaluationDataset:
    """DeepEval's dataset of LLMTestCase objects (`goldens` are kept as given: a golden has
    no answer to judge until the bot is run on it)."""

    def __init__(
        self,
        test_cases: Iterable[LLMTestCase] = (),
        goldens: Iterable[Any] = (),
        conversational_goldens: Iterable[Any] = (),
    ) -> None:
        self._test_cases = _checked(test_cases)
        self.goldens = list(goldens)
        self.conversational_goldens = list(conversational_goldens)

    def __repr__(self) -> str:
        return f"EvaluationDataset(test_cases={self._test_cases!r}, goldens={self.goldens!r})"

    @property
    def test_cases(self) -> list[LLMTestCase]:
        return self._test_cases

    @test_cases.setter
    def test_cases(self, test_cases: list[LLMTestCase]) -> None:
        if not isinstance(test_cases, list):
            raise TypeError("'test_cases' must be a list")
        self._test_cases = _checked(test_cases)

    def add_test_case(self, test_case: LLMTestCase) -> None:
        self._test_cases += _checked([test_case])

    def __iter__(self) -> Iterator[LLMTestCase]:
        return iter(self._test_cases)

    def __len__(self) -> int:
        return len(self._test_cases)

    def evaluate(self, metrics: list[FaithfulnessMetric], **options: Any) -> EvaluationResult:
        """`evaluate(self.test_cases, metrics, **options)`; an empty dataset is a ValueError."""
        if not self._test_cases:
            raise ValueError(EMPTY_DATASET)
        return evaluate(self._test_cases, metrics, **options)

    # DeepEval's signatures and defaults (4.x: its own column names, `|` between a cell's
    # passages, as its save_as joins them), positional as its callers may pass them
    def add_test_cases_from_csv_file(  # noqa: PLR0917
        self,
        file_path: str | Path,
        input_col_name: str,
        actual_output_col_name: str,
        expected_output_col_name: str | None = "expected_output",
        context_col_name: str | None = "context",
        context_col_delimiter: str = "|",
        retrieval_context_col_name: str | None = "retrieval_context",
        retrieval_context_col_delimiter: str = "|",
        tools_called_col_name: str | None = "tools_called",
        tools_called_col_delimiter: str = ";",
        expected_tools_col_name: str | None = "expected_tools",
        expected_tools_col_delimiter: str = ";",
        additional_metadata_col_name: str | None = "additional_metadata",
    ) -> None:
        """The rows of a CSV file (a header line), as DeepEval reads them: a context cell split
        on its delimiter, the metadata cell a dict literal, a column the file lacks none; the
        tools columns are not read (faithfulness never reads them)."""
        self._test_cases += load_test_cases(
            file_path,
            file_format="csv",
            input=input_col_name,
            actual_output=actual_output_col_name,
            expected_output=expected_output_col_name,
            context=context_col_name,
            context_delimiter=context_col_delimiter,
            retrieval_context=retrieval_context_col_name,
            delimiter=retrieval_context_col_delimiter,
            additional_metadata=additional_metadata_col_name,
        )

    def add_test_cases_from_json_file(  # noqa: PLR0917
        self,
        file_path: str | Path,
        input_key_name: str,
        actual_output_key_name: str,
        expected_output_key_name: str | None = None,
        context_key_name: str | None = None,
        retrieval_context_key_name: str | None = None,
        tools_called_key_name: str | None = None,
        expected_tools_key_name: str | None = None,
        addtional_metadata_key_name: str | None = None,  # DeepEval's spelling; unread there too
        encoding_type: str = "utf-8",
    ) -> None:
        """The objects of a JSON file holding an array of them, as DeepEval reads them (the
        tools keys are not read: faithfulness never reads them)."""
        self._test_cases += load_test_cases(
            file_path,
            file_format="json",
            encoding=encoding_type,
            input=input_key_name,
            actual_output=actual_output_key_name,
            expected_output=expected_output_key_name,
            context=context_key_name,
            retrieval_context=retrieval_context_key_name,
        )


def _checked(test_cases: Iterable[LLMTestCase]) -> list[LLMTestCase]:
    cases = list(test_cases)
    for case in cases:
        if not isinstance(case, LLMTestCase):
            raise TypeError(
                f"an EvaluationDataset holds LLMTestCase objects, got {type(case).__name__} "
                "(faithpipe scores single-turn faithfulness: no conversational or multimodal "
                "test cases)"
            )
    return cases
