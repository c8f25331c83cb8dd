"""DeepEval's bulk call, `evaluate(test_cases, metrics)`, on the batch path: each metric scores
every case in one vectorised, deduplicated pass, and the result keeps the tables."""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

import polars as pl

from faith_udfs.api import FaithfulnessMetric, LLMTestCase, check_case_fields, judge_tokens
from faith_udfs.case_results import cases_frame
from faith_udfs.deepeval_models import limited_judge
from faith_udfs.errors import ConfigError, FaithError
from faith_udfs.evaluation_results import (
    ROW_COLUMNS,
    CaseDetails,
    EvaluationResult,
    EvaluationTables,
    MetricData,
    MetricRun,
    TestResult,
    TestResults,
    print_summary,
)
from faith_udfs.metric import score_cases

__all__ = [
    "AsyncConfig",
    "CacheConfig",
    "DisplayConfig",
    "ErrorConfig",
    "EvaluationError",
    "EvaluationResult",
    "EvaluationTables",
    "MetricData",
    "TestResult",
    "TestResults",
    "evaluate",
    "print_summary",
]


@dataclass(frozen=True)
class AsyncConfig:
    """DeepEval's async settings: `max_concurrent` calls of an async custom model in flight at
    most (one at a time without `run_async`), started `throttle_value` seconds apart at least;
    the other judges are concurrent as they are."""

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
    inspect_after_run: bool = False  # DeepEval's viewer: none here
    file_type: str | None = None


@dataclass(frozen=True)
class CacheConfig:
    """DeepEval's cache settings, taken as given: the offline judges need no cache, and the
    LLM judge's answers are cached in the database by `faith score` (judge_cache)."""

    write_cache: bool = True
    use_cache: bool = False


@dataclass(frozen=True)
class ErrorConfig:
    """DeepEval's error settings: with `ignore_errors=False` (the default) a case the judge
    could not score raises EvaluationError after the whole batch is scored (kept on `.result`)."""

    ignore_errors: bool = False
    # True: a case without actual_output (None or "") or retrieval_context (None: an empty
    # list is given, and judged) is not measured at all, as DeepEval skips it: no metric
    # data, no error, out of the pass rates.
    skip_on_missing_params: bool = False


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
    cache_config: CacheConfig | None = None,  # taken as given (CacheConfig)
    **keywords: Any,
) -> EvaluationResult:
    """Score every test case with every metric, each metric in one batch-path pass. Takes
    DeepEval 1's and 2's flat keywords (`ignore_errors=True`, `print_results=False`) as their
    configs' fields; any other keyword is a TypeError, as a misspelt one is to DeepEval."""
    display = with_legacy(display_config or DisplayConfig(), keywords)
    errors = with_legacy(error_config or ErrorConfig(), keywords)
    concurrency = with_legacy(async_config or AsyncConfig(), keywords)
    for name in keywords:
        if name not in _LEGACY_FIELDS and name not in _TAKEN:
            raise TypeError(f"evaluate() got an unexpected keyword argument {name!r}")
    check_no_folder(display)
    started = time.perf_counter()
    if isinstance(metrics, FaithfulnessMetric) or isinstance(test_cases, LLMTestCase):
        raise TypeError(
            "evaluate() takes lists: evaluate(test_cases=[LLMTestCase(...)], "
            "metrics=[FaithfulnessMetric()]), not a single test case or metric"
        )
    cases = list(test_cases)
    metrics = list(metrics)
    if not metrics:
        raise ValueError("metrics is empty: pass at least one FaithfulnessMetric")
    for metric in metrics:  # another metric's class, or the class itself: a bare AttributeError
        if not isinstance(metric, FaithfulnessMetric):
            what = metric.__name__ if isinstance(metric, type) else type(metric).__name__
            raise TypeError(
                f"evaluate() takes FaithfulnessMetric instances, got {what}: faithpipe scores "
                "faithfulness alone (run other metrics with DeepEval)"
            )
    for case in cases:
        check_case_fields(case)
    names = [_name_of(case, i) for i, case in enumerate(cases)]
    keys = _keys_of(cases, names)
    skipped = frozenset(
        position
        for position, case in enumerate(cases)
        if errors.skip_on_missing_params and missing_params(case)
    )
    measured = [p for p in range(len(cases)) if p not in skipped]
    frame = cases_frame(
        [keys[p] for p in measured],
        [cases[p].actual_output for p in measured],
        [cases[p].retrieval_context for p in measured],
    )
    order = pl.DataFrame({"case_id": pl.Series(keys, dtype=pl.String)})
    runs = []
    for metric in metrics:
        judge = limited_judge(
            metric.model,
            concurrency.run_async,
            concurrency.max_concurrent,
            concurrency.throttle_value,
        )
        spent = judge_tokens(judge)
        frames = score_cases(
            frame, judge, metric.config, max_sentence_pairs=metric.max_sentence_pairs
        )
        after = judge_tokens(judge)
        tokens = tuple(a - b for a, b in zip(after, spent, strict=True))
        runs.append(
            MetricRun(
                name=metric.__name__,
                strict_mode=metric.config.strict_mode,
                evaluation_model=metric.evaluation_model,
                flaky=metric.flaky,
                truths_extraction_limit=metric.config.truths_extraction_limit,
                verbose=bool(display.verbose_mode or
                             (display.verbose_mode is None and metric.verbose_mode)),
                tokens=(tokens[0], tokens[1]),
                frames=frames,
                # the batch's rows in the order given (case ids are distinct)
                rows=order.join(
                    frames.case_scores, on="case_id", how="left", maintain_order="left"
                ).select(ROW_COLUMNS),
                details=CaseDetails(frames),
            )
        )  # fmt: skip
    test_results = TestResults(cases, names, runs, skipped=skipped, keys=keys)
    if any(run.verbose for run in runs):
        print_verbose_logs(test_results, runs)
    result = EvaluationResult(test_results=test_results, frames=tuple(run.frames for run in runs))
    if display.print_results:
        print_summary(result, time.perf_counter() - started)
    failed = test_results.outcomes().filter(pl.col("error").is_not_null())["error"]
    if failed.len() and not errors.ignore_errors:
        raise EvaluationError(
            f"{failed.len()} metric result(s) could not be scored, first: {failed[0]} "
            "(pass error_config=ErrorConfig(ignore_errors=True) to keep them as errors)",
            result,
        )
    return result


# DeepEval 1's and 2's flat keywords, now fields of its configs: (config, field).
_LEGACY_FIELDS: dict[str, tuple[type, str]] = {
    "run_async": (AsyncConfig, "run_async"),
    "throttle_value": (AsyncConfig, "throttle_value"),
    "max_concurrent": (AsyncConfig, "max_concurrent"),
    "show_indicator": (DisplayConfig, "show_indicator"),
    "print_results": (DisplayConfig, "print_results"),
    "verbose_mode": (DisplayConfig, "verbose_mode"),
    "write_cache": (CacheConfig, "write_cache"),
    "use_cache": (CacheConfig, "use_cache"),
    "ignore_errors": (ErrorConfig, "ignore_errors"),
    "skip_on_missing_params": (ErrorConfig, "skip_on_missing_params"),
}
# DeepEval's other keywords, which change nothing here: Confident AI's run names, the result
# display filter, and what only its agent tracing reads.
_TAKEN = frozenset(
    {"hyperparameters", "identifier", "display", "metric_collection", "goldens",
     "traceable_callback", "observed_callback"}
)  # fmt: skip


Config = TypeVar("Config", AsyncConfig, DisplayConfig, CacheConfig, ErrorConfig)


def with_legacy(config: Config, keywords: dict[str, Any]) -> Config:
    """The config with the flat keywords given for its fields (`ignore_errors=True`)."""
    fields = {
        field: keywords[name]
        for name, (kind, field) in _LEGACY_FIELDS.items()
        if kind is type(config) and name in keywords
    }
    return replace(config, **fields) if fields else config


def print_verbose_logs(test_results: TestResults, runs: list[MetricRun]) -> None:
    """Each verbose metric's logs of each test case measured, in order."""
    for test in test_results:
        if not test.metrics_data:  # skipped (skip_on_missing_params): nothing measured
            continue
        for run, data in zip(runs, test.metrics_data, strict=True):
            if run.verbose:
                sys.stdout.write(data.verbose_logs + "\n")


def check_no_folder(display: DisplayConfig) -> None:
    """DeepEval writes the run's results into `results_folder` (DeepEval 3: `file_output_dir`);
    faith_udfs writes no file, and a folder taken and left empty lost them without a word."""
    for name in ("results_folder", "results_subfolder", "file_output_dir"):
        folder = getattr(display, name)
        if folder is not None:
            raise ConfigError(
                f"DisplayConfig({name}={folder!r}): faith_udfs writes no file, so the folder "
                "would stay empty: leave it out and save the result yourself "
                "(result.model_dump_json(), or result.to_polars() as Parquet)"
            )


def missing_params(case: LLMTestCase) -> bool:
    """DeepEval's missing parameters of the faithfulness metric: no answer (None, or "",
    which DeepEval refuses as missing too), or no context (None, LLMTestCase's default, as
    DeepEval's). An empty list is given, as DeepEval judges it: it stays an EmptyContext."""
    return case.actual_output in (None, "") or getattr(case, "retrieval_context", None) is None


def _keys_of(cases: list[LLMTestCase], names: list[str]) -> list[str]:
    """Each case's `case_id` in the batch and its tables: its name when the names are
    distinct; else, as DeepEval lets `name`s repeat (a category, a golden's label), its
    `case_id` when set, else DeepEval's `test_case_<i>`. A repeated case_id is refused."""
    if len(set(names)) == len(names):
        return names
    keys = [
        name if _given_id(case) else f"test_case_{index}"
        for index, (case, name) in enumerate(zip(cases, names, strict=True))
    ]
    first: dict[str, int] = {}
    for index, key in enumerate(keys):
        if key not in first:
            first[key] = index
            continue
        earlier = first[key]
        if not _given_id(cases[index]) or not _given_id(cases[earlier]):
            unnamed, named = (earlier, index) if _given_id(cases[index]) else (index, earlier)
            raise ValueError(
                f"test case {unnamed} has no case_id and takes DeepEval's name {key!r}, which "
                f"test case {named}'s case_id is too: give the test cases distinct case_ids"
            )
        raise ValueError(
            f"test cases {earlier} and {index} have the same case_id {key!r}: give the test "
            "cases distinct case_ids, or none"
        )
    return keys


def _given_id(case: LLMTestCase) -> bool:
    case_id = getattr(case, "case_id", "case")
    return case_id is not None and case_id not in ("", "case")  # 0 is an id


def _name_of(case: LLMTestCase, index: int) -> str:
    """The test case's name: its case_id or name when set, else DeepEval's `test_case_<i>`."""
    if _given_id(case):
        return str(case.case_id)
    return str(getattr(case, "name", None) or f"test_case_{index}")
