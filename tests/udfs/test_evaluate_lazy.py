"""evaluate()'s results are built from the batch's frames when looked at (issue 24's bench):
each TestResult equals the one an eager build gives, however it is reached, and the summary
and the error check read the frames."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import polars as pl
import pytest

import faith_udfs.evaluation_results as results_module
from faith_udfs import (
    DisplayConfig,
    EvaluationError,
    EvaluationResult,
    FaithfulnessMetric,
    GroundedJudge,
    LexicalJudge,
    LLMTestCase,
    MetricData,
    TestResult,
    evaluate,
)
from faith_udfs.case_results import case_results
from faith_udfs.evaluation import print_summary
from tests.udfs.test_deepeval import CONTEXT, KEEP, QUIET

ANSWERS = [
    "Refunds are paid within 30 days.",
    "Refunds are paid within 90 days. A receipt is required.",
    "We ship to Mars.",
    "",
    "Refunds are paid within 30 days. It arrives tomorrow.",
]


class CountingJudge(LexicalJudge):
    """The lexical judge, reporting 7 prompt and 2 completion tokens per verdicts call."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    def verdicts(self, items: Any) -> Any:
        self.calls += 1
        return super().verdicts(items)

    def usage(self) -> dict[str, int]:
        return {"prompt_tokens": 7 * self.calls, "completion_tokens": 2 * self.calls}


def mixed_cases(n: int = 23) -> list[LLMTestCase]:
    """Scored, blank, no-context and no-passage cases; named by case_id, name or position."""
    made = []
    for i in range(n):
        names: dict[str, Any] = {}
        if i % 5 == 1:
            names["case_id"] = f"id{i}"
        elif i % 5 == 2:
            names["name"] = f"named{i}"
        context = CONTEXT if i % 7 else ([] if i % 2 else None)
        made.append(
            LLMTestCase(
                input=f"q{i}" if i % 3 else None,  # type: ignore[arg-type]
                actual_output=ANSWERS[i % len(ANSWERS)],
                retrieval_context=context,  # type: ignore[arg-type]
                expected_output="e" if i % 4 == 0 else None,
                context=["c"] if i % 6 == 0 else None,
                **names,
            )
        )
    return made


def metrics() -> list[FaithfulnessMetric]:
    return [
        FaithfulnessMetric(model=CountingJudge(), threshold=0.7),
        FaithfulnessMetric(model=GroundedJudge(), strict_mode=True, truths_extraction_limit=1),
    ]


def eager(cases: list[LLMTestCase], used: list[FaithfulnessMetric], result: EvaluationResult,
          tokens: list[tuple[int, int]]) -> list[TestResult]:  # fmt: skip
    """What evaluate() built for every case before its results were lazy."""
    rows = [
        {row["case_id"]: row for row in frames.case_scores.iter_rows(named=True)}
        for frames in result.frames
    ]
    built = []
    for index, case in enumerate(cases):
        name = result.test_results.names[index]  # type: ignore[attr-defined]
        data = [
            MetricData(
                name=metric.__name__,
                threshold=by_id[name]["threshold"],
                success=bool(by_id[name]["success"]),
                score=by_id[name]["score"],
                reason=by_id[name]["reason"],
                strict_mode=metric.config.strict_mode,
                evaluation_model=metric.evaluation_model,
                error=by_id[name]["error"],
                evaluation_cost=None,
                input_tokens=spent[0] if index == 0 else 0,
                output_tokens=spent[1] if index == 0 else 0,
                flaky=metric.flaky,
                status=by_id[name]["status"],
                truths_extraction_limit=metric.config.truths_extraction_limit,
            )
            for metric, by_id, spent in zip(used, rows, tokens, strict=True)
        ]
        given = case.retrieval_context  # None when none was given, as DeepEval keeps it
        built.append(
            TestResult(name, all(d.success for d in data), data, case.input, case.actual_output,
                       None if given is None else list(given), case.expected_output,
                       case.context, index=index, metadata=case.metadata)
        )  # fmt: skip
    return built


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocks and chunks smaller than the batch, so their edges are crossed."""
    monkeypatch.setattr(results_module, "DETAILS_BLOCK", 4)
    monkeypatch.setattr(results_module, "CHUNK", 5)


@pytest.mark.usefixtures("small_blocks")
def test_every_way_of_reaching_a_result_gives_the_eager_one() -> None:
    cases, used = mixed_cases(), metrics()
    result = evaluate(cases, used, display_config=QUIET, error_config=KEEP)
    tests = result.test_results
    assert not any(tests._built)  # type: ignore[attr-defined]  # nothing built until asked
    calls = used[0].model.calls  # type: ignore[attr-defined]
    assert calls > 0
    expected = eager(cases, used, result, [(7 * calls, 2 * calls), (0, 0)])
    assert len(tests) == len(cases) == 23
    assert tests[-1] == expected[-1]
    assert tests[-23] == expected[0]
    assert tests[3] is tests[3 - 23]  # built once, then kept
    assert sum(b is not None for b in tests._built) == 3  # type: ignore[attr-defined]
    for where in (slice(None), slice(2, 9), slice(None, None, 3), slice(-4, None),
                  slice(20, 2, -5), slice(50, 60), slice(None, None, -1)):  # fmt: skip
        assert tests[where] == expected[where], where
    assert list(tests) == expected
    assert tests == expected
    assert expected == tests
    assert tests != expected[:-1]
    assert tests != tuple(expected)  # type: ignore[comparison-overlap]  # as a list is not
    assert list(reversed(tests)) == expected[::-1]
    assert tests.index(expected[5]) == 5
    assert expected[6] in tests
    assert repr(tests) == repr(expected)
    assert [t.name for t in tests][:3] == ["test_case_0", "id1", "named2"]
    first = tests[0].metrics_data[0]
    assert (first.input_tokens, first.output_tokens) == (7 * calls, 2 * calls)  # the batch's
    assert tests[1].metrics_data[0].input_tokens == 0
    with pytest.raises(IndexError):
        tests[23]
    with pytest.raises(IndexError):
        tests[-24]
    with pytest.raises(TypeError):
        tests["0"]  # type: ignore[call-overload]


@pytest.mark.usefixtures("small_blocks")
def test_truths_claims_and_verdicts_read_block_by_block_equal_the_whole_batchs() -> None:
    result = evaluate(mixed_cases(), metrics(), display_config=QUIET, error_config=KEEP)
    for index, frames in enumerate(result.frames):
        whole = case_results(frames)
        seen = [t.metrics_data[index] for t in reversed(result.test_results)]  # blocks backwards
        for data in seen:
            one = whole[data.case_name]
            assert (data.truths, data.claims, data.verdicts) == (one.truths, one.claims,
                                                                 one.verdicts)  # fmt: skip
            assert data.score_breakdown == one.score_breakdown
    claims = [t.metrics_data[0].claims for t in result.test_results]
    assert claims[1] == ["Refunds are paid within 90 days.", "A receipt is required."]
    assert claims[3] == []  # the blank answer


def test_the_summary_and_the_error_check_read_the_frames_as_the_objects_say() -> None:
    cases = mixed_cases()
    result = evaluate(cases, metrics(), display_config=QUIET, error_config=KEEP)
    from_frames, from_objects = io.StringIO(), io.StringIO()
    print_summary(result, 0.0, file=from_frames)
    print_summary(EvaluationResult(list(result.test_results)), 0.0, file=from_objects)
    assert from_frames.getvalue() == from_objects.getvalue()
    failed = [m for t in result.test_results for m in t.metrics_data if not m.success]
    assert f"Failures ({len(failed)}):" in from_frames.getvalue()
    assert from_frames.getvalue().count("\n  x ") == results_module.SHOWN_FAILURES
    assert result.outcomes().height == 2 * len(cases)
    errors = [m.error for t in result.test_results for m in t.metrics_data if m.error]
    with pytest.raises(EvaluationError) as caught:
        evaluate(cases, metrics(), display_config=QUIET)
    assert str(caught.value).startswith(f"{len(errors)} metric result(s) could not be scored, "
                                        f"first: {errors[0]} ")  # fmt: skip


def test_no_test_cases_give_an_empty_result() -> None:
    result = evaluate([], metrics(), error_config=KEEP, display_config=QUIET)
    assert len(result.test_results) == 0
    assert list(result.test_results) == []
    out = io.StringIO()
    print_summary(result, 0.0, file=out)
    assert out.getvalue().splitlines() == [
        "Evaluated 0 test case(s) with 2 metric(s) in 0.00s", "Overall Metric Pass Rates",
        "Faithfulness #1: no test case measured", "Faithfulness #2: no test case measured",
    ]  # fmt: skip


def test_a_failure_names_its_metric_as_the_pass_rates_do() -> None:
    """Two FaithfulnessMetrics (a lenient and a strict one) are 'Faithfulness #1' and '#2'
    in the pass rates, but each failure line said 'Faithfulness': which of the two failed
    could not be read from the summary."""
    case = LLMTestCase(input="q", actual_output="Refunds are paid within 30 days. It arrives "
                       "tomorrow.", retrieval_context=CONTEXT)  # fmt: skip
    lenient, strict = FaithfulnessMetric(), FaithfulnessMetric(penalize_ambiguous_claims=True,
                                                               strict_mode=True)  # fmt: skip
    result = evaluate([case], [lenient, strict], display_config=QUIET)
    out = io.StringIO()
    print_summary(result, 0.0, file=out)
    lines = out.getvalue().splitlines()
    assert lines[1:3] == ["Failures (1):", "  x test_case_0  Faithfulness #2  score 0.00 < 1.00: "
                          "The score is 0.00."]  # fmt: skip
    assert lines[-2:] == ["Faithfulness #1: 100.00% pass rate (1/1)",
                          "Faithfulness #2: 0.00% pass rate (0/1)"]  # fmt: skip


def test_the_tables_are_the_frames_the_results_are_read_from() -> None:
    result = evaluate(mixed_cases(), metrics(), display_config=QUIET, error_config=KEEP)
    scores = result.to_polars().case_scores
    assert scores.height == 2 * 23
    by_test = pl.DataFrame(
        [(t.name, m.score) for t in result.test_results for m in t.metrics_data],
        schema={"case_id": pl.String, "score": pl.Float64},
        orient="row",
    )
    assert by_test.sort("case_id", "score", nulls_last=True).equals(
        scores.select("case_id", "score").sort("case_id", "score", nulls_last=True)
    )


def test_the_documented_frame_reading_example_runs() -> None:
    docs = Path(__file__).resolve().parents[2] / "docs" / "deepeval.md"
    blocks = re.findall(r"```python\n(.*?)```", docs.read_text(), flags=re.DOTALL)
    block = next(b for b in blocks if "result.outcomes()" in b)
    names = {"evaluate": evaluate, "FaithfulnessMetric": FaithfulnessMetric, "pl": pl,
             "DisplayConfig": DisplayConfig, "test_cases": mixed_cases()[1:3]}  # fmt: skip
    exec(compile(block, str(docs), "exec"), names)
    assert names["failed"]["case"].to_list() == ["named2"]  # 0.0 fails, id1's 0.5 passes
    assert names["claims"].height == 3
    assert names["first"].claims == ["Refunds are paid within 90 days.", "A receipt is required."]


def test_a_result_dumps_as_deepevals_pydantic_result_does(tmp_path: Path) -> None:
    """DeepEval's EvaluationResult is a pydantic model, and scripts save it as
    `json.dump(result.model_dump(), f)` (or `model_dump_json()`): that was an AttributeError,
    breaking the one-import switch at the script's last line."""
    import json

    cases = [LLMTestCase(input="q", actual_output=a, retrieval_context=CONTEXT,
                         additional_metadata={"app": "shop"}) for a in ANSWERS]  # fmt: skip
    result = evaluate(cases, [FaithfulnessMetric(model=LexicalJudge())], display_config=QUIET,
                      error_config=KEEP)  # fmt: skip
    dumped = result.model_dump()
    assert set(dumped) == {"test_results", "confident_link", "test_run_id"}
    assert len(dumped["test_results"]) == len(ANSWERS)
    first = dumped["test_results"][0]
    assert {"name", "success", "metrics_data", "conversational", "index", "multimodal", "input",
            "actual_output", "expected_output", "context", "retrieval_context", "turns",
            "metadata"} <= set(first)  # fmt: skip
    assert first["metadata"] == {"app": "shop"}
    data = first["metrics_data"][0]
    test_result = result.test_results[0]
    metric_data = test_result.metrics_data[0]
    assert data == metric_data.model_dump()
    for name in ("name", "threshold", "success", "score", "reason", "strict_mode",
                 "evaluation_model", "error", "evaluation_cost", "verbose_logs"):  # fmt: skip
        assert data[name] == getattr(metric_data, name), name
    blank = dumped["test_results"][3]["metrics_data"][0]
    assert blank["score"] is None
    assert blank["error"].startswith("BlankAnswer")
    path = tmp_path / "result.json"
    path.write_text(json.dumps(dumped))  # what DeepEval scripts do with it
    assert json.loads(path.read_text()) == json.loads(result.model_dump_json())
