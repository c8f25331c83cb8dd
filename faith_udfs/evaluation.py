"""DeepEval's bulk call, `evaluate(test_cases, metrics)`, on the batch path: each metric scores
every case in one vectorised, deduplicated pass, and the result keeps the tables."""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from faith_udfs.api import FaithfulnessMetric, LLMTestCase, judge_tokens
from faith_udfs.case_results import CaseResult, FaithfulnessVerdict, case_results, cases_frame
from faith_udfs.case_results import verbose_logs as logs_of
from faith_udfs.errors import FaithError
from faith_udfs.metric import FaithfulnessFrames, score_cases

SHOWN_FAILURES = 10
ROW_COLUMNS = ("case_id", "score", "threshold", "success", "reason", "status", "error")


@dataclass(frozen=True)
class AsyncConfig:
    """DeepEval's async settings; the batch path is already concurrent where the judge is."""

    run_async: bool = True
    throttle_value: float = 0
    max_concurrent: int = 20


@dataclass(frozen=True)
class DisplayConfig:
    """DeepEval's display settings: `print_results=False` prints nothing."""

    show_indicator: bool = True
    print_results: bool = True
    verbose_mode: bool | None = None
    display_option: str | None = None
    results_folder: str | None = None
    results_subfolder: str | None = None
    truncate_passing_cases: bool = True
    file_output_dir: str | None = None  # DeepEval 3's name


@dataclass(frozen=True)
class ErrorConfig:
    """DeepEval's error settings: with `ignore_errors=False` (the default) a case the judge
    could not score raises EvaluationError after the whole batch is scored (kept on `.result`)."""

    ignore_errors: bool = False
    skip_on_missing_params: bool = False


@dataclass(frozen=True)
class MetricData:
    """One metric's outcome on one test case, named as DeepEval names it."""

    name: str
    threshold: float
    success: bool
    score: float | None
    reason: str | None
    strict_mode: bool
    evaluation_model: str
    error: str | None
    evaluation_cost: float | None
    input_tokens: int = 0
    output_tokens: int = 0
    flaky: bool = False
    # What DeepEval loses, kept here: the case's status, and (read from the batch's frames on
    # first use, so 100,000 results cost no Python objects until asked) truths, claims, verdicts.
    status: str = "scored"
    truths_extraction_limit: int | None = None
    details: CaseDetails | None = field(default=None, repr=False, compare=False)
    case_name: str = field(default="", repr=False, compare=False)

    @property
    def _result(self) -> CaseResult:
        if self.details is None:
            raise AttributeError("this MetricData carries no case details")
        return self.details.of(self.case_name)

    @property
    def truths(self) -> list[str]:
        return self._result.truths

    @property
    def claims(self) -> list[str]:
        return self._result.claims

    @property
    def verdicts(self) -> list[FaithfulnessVerdict]:
        return self._result.verdicts

    @property
    def score_breakdown(self) -> dict[str, object]:
        return self._result.score_breakdown

    @property
    def verbose_logs(self) -> str:
        """DeepEval's verbose_logs, written when read."""
        return logs_of(self._result, self.truths_extraction_limit)


class CaseDetails:
    """Per-case truths, claims and verdicts of one metric's batch, built on first use."""

    def __init__(self, frames: FaithfulnessFrames) -> None:
        self.frames = frames
        self._results: dict[str, CaseResult] | None = None

    def of(self, name: str) -> CaseResult:
        if self._results is None:
            self._results = case_results(self.frames)
        return self._results[name]


@dataclass(frozen=True)
class TestResult:
    """One test case's outcome over every metric (DeepEval's `TestResult`)."""

    __test__ = False  # not a pytest class

    name: str
    success: bool
    metrics_data: list[MetricData]
    input: str | None
    actual_output: str
    retrieval_context: list[str]
    expected_output: str | None = None
    context: list[str] | None = None


@dataclass(frozen=True)
class EvaluationTables:
    """The case and claim tables as the CLI stores them (`case_scores`, `claim_verdicts`,
    `truths`), every metric's rows together, in polars or pandas."""

    case_scores: Any
    claim_verdicts: Any
    truths: Any


@dataclass(frozen=True)
class EvaluationResult:
    """What `evaluate` returns: one TestResult a test case, in the order given."""

    test_results: list[TestResult]
    frames: tuple[Any, ...] = ()
    confident_link: str | None = None
    test_run_id: str | None = None

    def to_polars(self) -> EvaluationTables:
        """The stored tables as polars frames."""
        return EvaluationTables(
            *(pl.concat([getattr(f, name) for f in self.frames], how="vertical_relaxed")
              for name in ("case_scores", "claim_verdicts", "truths"))
        )  # fmt: skip

    def to_pandas(self) -> EvaluationTables:
        """The stored tables as pandas frames (pandas must be installed)."""
        tables = self.to_polars()
        return EvaluationTables(
            tables.case_scores.to_pandas(),
            tables.claim_verdicts.to_pandas(),
            tables.truths.to_pandas(),
        )


class EvaluationError(FaithError):
    """Some cases could not be scored and errors were not to be ignored; `.result` has all."""

    def __init__(self, message: str, result: EvaluationResult) -> None:
        super().__init__(message)
        self.result = result


def evaluate(
    test_cases: Sequence[LLMTestCase],
    metrics: Sequence[FaithfulnessMetric],
    *,
    async_config: AsyncConfig | None = None,
    display_config: DisplayConfig | None = None,
    error_config: ErrorConfig | None = None,
    **_: Any,
) -> EvaluationResult:
    """Score every test case with every metric, each metric in one batch-path pass."""
    display = display_config or DisplayConfig()
    errors = error_config or ErrorConfig()
    started = time.perf_counter()
    cases = list(test_cases)
    names = [_name_of(case, i) for i, case in enumerate(cases)]
    if len(set(names)) != len(names):
        raise ValueError("test cases must have distinct case_id (or name) values, or none")
    frame = cases_frame(
        names,
        [case.actual_output for case in cases],
        [list(case.retrieval_context or ()) for case in cases],
    )
    per_metric, all_frames = [], []
    for metric in metrics:
        spent = judge_tokens(metric.model)
        frames = score_cases(frame, metric.model, metric.config)
        after = judge_tokens(metric.model)
        all_frames.append(frames)
        rows = {row[0]: row for row in frames.case_scores.select(ROW_COLUMNS).iter_rows()}
        tokens = tuple(a - b for a, b in zip(after, spent, strict=True))
        per_metric.append((metric, rows, CaseDetails(frames), tokens))
    test_results = [
        _test_result(case, name, per_metric, display.verbose_mode, first=index == 0)
        for index, (case, name) in enumerate(zip(cases, names, strict=True))
    ]
    result = EvaluationResult(test_results=test_results, frames=tuple(all_frames))
    if display.print_results:
        print_summary(result, time.perf_counter() - started)
    failed = [m.error for t in test_results for m in t.metrics_data if m.error is not None]
    if failed and not errors.ignore_errors:
        raise EvaluationError(
            f"{len(failed)} metric result(s) could not be scored, first: {failed[0]} "
            "(pass error_config=ErrorConfig(ignore_errors=True) to keep them as errors)",
            result,
        )
    return result


def _name_of(case: LLMTestCase, index: int) -> str:
    """The test case's name: its case_id or name when set, else DeepEval's `test_case_<i>`."""
    case_id = getattr(case, "case_id", "case")
    if case_id and case_id != "case":
        return str(case_id)
    return str(getattr(case, "name", None) or f"test_case_{index}")


def _test_result(
    case: LLMTestCase,
    name: str,
    per_metric: list[tuple[FaithfulnessMetric, dict[str, tuple], CaseDetails, tuple[int, ...]]],
    verbose: bool | None,
    first: bool,
) -> TestResult:
    data = []
    for metric, rows, details, tokens in per_metric:
        _, score, threshold, success, reason, status, error = rows[name]
        limit = metric.config.truths_extraction_limit
        # Tokens are spent per batch, not per case: the first case carries the batch's.
        metric_data = MetricData(
            name=metric.__name__,
            threshold=threshold,
            success=bool(success),
            score=score,
            reason=reason,
            strict_mode=metric.config.strict_mode,
            evaluation_model=metric.evaluation_model,
            error=error,
            evaluation_cost=None,
            input_tokens=tokens[0] if first else 0,
            output_tokens=tokens[1] if first else 0,
            flaky=metric.flaky,
            status=status,
            truths_extraction_limit=limit,
            details=details,
            case_name=name,
        )
        if verbose or (verbose is None and metric.verbose_mode):
            sys.stdout.write(metric_data.verbose_logs + "\n")
        data.append(metric_data)
    return TestResult(
        name=name,
        success=all(m.success for m in data),
        metrics_data=data,
        input=case.input,
        actual_output=case.actual_output,
        retrieval_context=list(case.retrieval_context or ()),
        expected_output=getattr(case, "expected_output", None),
        context=getattr(case, "context", None),
    )


def print_summary(result: EvaluationResult, seconds: float, file: Any = None) -> None:
    """A short summary like DeepEval's: failures first (a few), then each metric's pass rate."""
    out = file or sys.stdout
    tests = result.test_results
    metrics = len(tests[0].metrics_data) if tests else 0
    print(
        f"Evaluated {len(tests)} test case(s) with {metrics} metric(s) in {seconds:.2f}s", file=out
    )
    failures = [(t, m) for t in tests for m in t.metrics_data if not m.success]
    if failures:
        print(f"Failures ({len(failures)}):", file=out)
        for test, data in failures[:SHOWN_FAILURES]:
            if data.error is not None:
                why = f"{data.status}: {data.error}"
            else:
                why = f"score {data.score:.2f} < {data.threshold:.2f}: {data.reason}"
            print(f"  x {test.name}  {data.name}  {why}", file=out)
        if len(failures) > SHOWN_FAILURES:
            print(f"  ... and {len(failures) - SHOWN_FAILURES} more", file=out)
    print("Overall Metric Pass Rates", file=out)
    labels = [m.name for m in tests[0].metrics_data] if tests else []
    for index, name in enumerate(labels):
        label = name if labels.count(name) == 1 else f"{name} #{index + 1}"
        passed = sum(t.metrics_data[index].success for t in tests)
        print(
            f"{label}: {100 * passed / len(tests):.2f}% pass rate ({passed}/{len(tests)})", file=out
        )
