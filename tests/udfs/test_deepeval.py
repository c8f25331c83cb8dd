"""Issue 24: a DeepEval user switches with one import: evaluate(), DeepEval's metric arguments
and result names, DeepEval-shaped custom models, `borderline`, and score_frame."""

from __future__ import annotations

import asyncio
import copy
import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faith_udfs import (
    ConfigError,
    DisplayConfig,
    ErrorConfig,
    EvaluationError,
    FaithfulnessMetric,
    GroundedJudge,
    LexicalJudge,
    LLMTestCase,
    MetricConfig,
    VerdictWord,
    evaluate,
    score_frame,
)
from faith_udfs.evaluation import print_summary
from faith_udfs.grounded_v1 import GroundedV1Judge
from faith_udfs.prompts import schema_of
from tests.support.seed_judge import pretend_judge

CONTEXT = ["Refunds are paid within 30 days.", "A receipt is required. Shipping is free."]
ANSWERS = [
    "Refunds are paid within 30 days.",
    "Refunds are paid within 90 days. A receipt is required.",
    "We ship to Mars.",
    "Refunds are paid within 30 days. It arrives tomorrow.",
    "",
]
QUIET = DisplayConfig(print_results=False)
KEEP = ErrorConfig(ignore_errors=True)


class CustomJudgeModel:  # written the way DeepEval's docs write a DeepEvalBaseLLM subclass
    def __init__(self, middle: str = "idk") -> None:
        self.middle = middle

    def load_model(self) -> CustomJudgeModel:
        return self

    def generate(self, prompt: str) -> str:
        reply = pretend_judge(prompt, schema_of(prompt))
        return json.dumps(reply).replace('"idk"', json.dumps(self.middle))

    async def a_generate(self, prompt: str) -> str:
        return self.generate(prompt)

    def get_model_name(self) -> str:
        return "custom-judge"


class Reply:  # a schema object, as DeepEval's `generate(prompt, schema)` may return
    def __init__(self, payload: dict[str, Any]) -> None:
        self.payload = payload

    def model_dump(self) -> dict[str, Any]:
        return self.payload


class SchemaModel(CustomJudgeModel):
    def generate(self, prompt: str, schema: Any) -> Reply:  # type: ignore[override]
        return Reply(json.loads(super().generate(prompt)))


class ValidatingModel(CustomJudgeModel):  # as DeepEval's docs: schema(**json.loads(reply))
    def generate(self, prompt: str, schema: Any = None) -> Any:  # type: ignore[override]
        assert schema.__name__ in ("Truths", "Claims", "Verdicts", "FaithfulnessScoreReason")
        return schema(**json.loads(super().generate(prompt)))


def cases() -> list[LLMTestCase]:
    return [LLMTestCase(input="q", actual_output=a, retrieval_context=CONTEXT) for a in ANSWERS]


def test_an_integer_case_id_of_0_names_its_case() -> None:
    """0 is an id: it was read as unset, and the case named test_case_0 (QA)."""
    named = [LLMTestCase(input="q", actual_output=ANSWERS[0], retrieval_context=CONTEXT)]
    named[0].case_id = 0  # type: ignore[assignment]
    result = evaluate(named, [FaithfulnessMetric()], display_config=QUIET, error_config=KEEP)
    assert [t.name for t in result.test_results] == ["0"]


def test_evaluate_gives_deepeval_names_and_measure_agrees_case_by_case() -> None:
    metric = FaithfulnessMetric(model=LexicalJudge(), threshold=0.7)
    result = evaluate(cases(), [metric], display_config=QUIET, error_config=KEEP)
    assert [t.name for t in result.test_results] == [f"test_case_{i}" for i in range(5)]
    for case, test in zip(cases(), result.test_results, strict=True):
        data = test.metrics_data[0]
        one = FaithfulnessMetric(model=LexicalJudge(), threshold=0.7)
        one.measure(case)
        assert (data.name, data.threshold, data.strict_mode) == ("Faithfulness", 0.7, False)
        assert (data.score, data.reason, data.error) == (one.score, one.reason, one.error)
        assert data.success is bool(one.success)
        assert (data.truths, data.claims, data.verdicts) == (one.truths, one.claims, one.verdicts)
        assert data.evaluation_model == "lexical-v2"
        assert (data.input_tokens, data.output_tokens, data.evaluation_cost) == (0, 0, None)
        assert data.verbose_logs == one.verbose_logs
        assert test.success is data.success
    scores = [t.metrics_data[0].score for t in result.test_results]
    assert scores == [1.0, 0.5, 1.0, 1.0, None]  # a blank answer is invalid, not 1
    assert result.test_results[4].metrics_data[0].status == "invalid"


def test_the_tables_are_the_stored_ones() -> None:
    result = evaluate(cases(), [FaithfulnessMetric(model=LexicalJudge())], display_config=QUIET,
                      error_config=KEEP)  # fmt: skip
    tables = result.to_polars()
    assert tables.case_scores.height == len(ANSWERS)
    assert {"case_id", "config_id", "n_yes", "n_no", "n_idk", "score", "status"} <= set(
        tables.case_scores.columns
    )
    assert tables.claim_verdicts.columns[:6] == [
        "case_id", "config_id", "claim_index", "claim", "verdict", "reason",
    ]  # fmt: skip
    assert set(tables.claim_verdicts["verdict"]) == {"yes", "no", "idk"}  # tables keep idk


def test_an_unscored_case_raises_unless_errors_are_ignored() -> None:
    with pytest.raises(EvaluationError, match="BlankAnswer") as caught:
        evaluate(cases(), [FaithfulnessMetric(model=LexicalJudge())], display_config=QUIET)
    assert len(caught.value.result.test_results) == len(ANSWERS)


@pytest.mark.parametrize("ignore_errors", [False, True])
def test_cases_missing_their_answer_or_context_are_skipped_when_asked(
    ignore_errors: bool, capsys
) -> None:
    """DeepEval's `skip_on_missing_params=True`: a case without an answer or a context is not
    measured (no metric data, no error, out of the pass rate), before `ignore_errors`."""
    given = [
        LLMTestCase(input="q", actual_output=None, retrieval_context=CONTEXT),
        LLMTestCase(input="q", actual_output=ANSWERS[0], retrieval_context=CONTEXT),
        LLMTestCase(input="q", actual_output=ANSWERS[2]),  # no context given
        LLMTestCase(input="q", actual_output=ANSWERS[1], retrieval_context=CONTEXT),  # 0.5
    ]
    metric = FaithfulnessMetric(model=LexicalJudge(), threshold=0.7)
    errors = ErrorConfig(skip_on_missing_params=True, ignore_errors=ignore_errors)
    result = evaluate(given, [metric], error_config=errors)
    printed = capsys.readouterr().out
    assert [len(t.metrics_data) for t in result.test_results] == [0, 1, 0, 1]
    assert [t.success for t in result.test_results] == [True, True, True, False]
    assert result.outcomes()["case"].to_list() == ["test_case_1", "test_case_3"]
    assert result.to_polars().case_scores["case_id"].to_list() == ["test_case_1", "test_case_3"]
    assert "Skipped 2 test case(s): missing actual_output or retrieval_context" in printed
    assert "Faithfulness: 50.00% pass rate (1/2)" in printed
    with pytest.raises(EvaluationError, match="BlankAnswer"):  # not asked: an error, as before
        evaluate(given, [metric], display_config=QUIET)
    alone = evaluate(given[2:3], [metric], error_config=errors)
    assert alone.test_results[0].metrics_data == []
    assert "Faithfulness: no test case measured" in capsys.readouterr().out
    verbose = FaithfulnessMetric(model=LexicalJudge(), verbose_mode=True)
    shown = evaluate(given, [verbose], error_config=errors)  # a zip of nothing raised
    assert [len(t.metrics_data) for t in shown.test_results] == [0, 1, 0, 1]


def test_an_empty_context_list_is_given_as_deepeval_reads_it_and_stays_an_error() -> None:
    """DeepEval misses a retrieval_context only when it is None (its default): `[]` is given
    and judged. skip_on_missing_params skipped `[]` too, so a log whose retrieval came back
    empty passed its test silently, where DeepEval judges it (here: EmptyContext, an error)."""
    given = [
        LLMTestCase(input="q", actual_output=ANSWERS[0], retrieval_context=[]),
        LLMTestCase(input="q", actual_output=ANSWERS[0], retrieval_context=CONTEXT),
        LLMTestCase(input="q", actual_output=ANSWERS[0]),  # not given: None, as DeepEval's
        LLMTestCase(input="q", actual_output=ANSWERS[0], retrieval_context=None),
    ]
    assert given[2].retrieval_context is None
    errors = ErrorConfig(skip_on_missing_params=True, ignore_errors=True)
    result = evaluate(given, [FaithfulnessMetric()], display_config=QUIET, error_config=errors)
    assert [len(t.metrics_data) for t in result.test_results] == [1, 1, 0, 0]
    assert result.test_results[0].metrics_data[0].error.startswith("EmptyContext")
    with pytest.raises(EvaluationError, match="EmptyContext"):
        evaluate(given, [FaithfulnessMetric()], display_config=QUIET, skip_on_missing_params=True)


def test_a_result_keeps_a_context_not_given_as_none_as_deepeval_does() -> None:
    """DeepEval's TestResult carries the case's retrieval_context as given: None when none
    was given (LLMTestCase's default), `[]` when an empty list was. It was dumped as `[]`,
    so a saved result could not tell a case skipped for no context from one judged with an
    empty one."""
    given = [
        LLMTestCase(input="q", actual_output=ANSWERS[0], retrieval_context=[]),
        LLMTestCase(input="q", actual_output=ANSWERS[0], retrieval_context=CONTEXT),
        LLMTestCase(input="q", actual_output=ANSWERS[0]),
    ]
    errors = ErrorConfig(skip_on_missing_params=True, ignore_errors=True)
    for config in (errors, KEEP):  # skipped, or measured (an EmptyContext error)
        result = evaluate(given, [FaithfulnessMetric()], display_config=QUIET, error_config=config)
        assert [t.retrieval_context for t in result.test_results] == [[], CONTEXT, None]
        dumped = result.model_dump()["test_results"]
        assert [t["retrieval_context"] for t in dumped] == [[], CONTEXT, None]
        saved = json.loads(result.model_dump_json())["test_results"]
        assert [t["retrieval_context"] for t in saved] == [[], CONTEXT, None]


def test_an_empty_answer_is_missing_as_deepeval_reads_it_and_white_space_is_not() -> None:
    """DeepEval refuses `actual_output=""` as a missing parameter, so skip_on_missing_params
    skips it; an answer of white space only is given (DeepEval judges it), so it stays an
    error: a log with empty answers raised EvaluationError where DeepEval skipped them."""
    given = [
        LLMTestCase(input="q", actual_output="", retrieval_context=CONTEXT),
        LLMTestCase(input="q", actual_output=ANSWERS[0], retrieval_context=CONTEXT),
        LLMTestCase(input="q", actual_output="  ", retrieval_context=CONTEXT),
    ]
    errors = ErrorConfig(skip_on_missing_params=True, ignore_errors=True)
    result = evaluate(given, [FaithfulnessMetric()], display_config=QUIET, error_config=errors)
    assert [len(t.metrics_data) for t in result.test_results] == [0, 1, 1]
    assert result.outcomes()["case"].to_list() == ["test_case_1", "test_case_2"]
    assert result.test_results[2].metrics_data[0].error.startswith("BlankAnswer")
    skipped_only = evaluate(given[:2], [FaithfulnessMetric()], display_config=QUIET,
                            skip_on_missing_params=True)  # fmt: skip
    assert [t.success for t in skipped_only.test_results] == [True, True]


def test_the_summary_puts_failures_first_and_can_be_silenced(capsys) -> None:
    metric = FaithfulnessMetric(model=LexicalJudge(), threshold=0.7)
    result = evaluate(cases(), [metric], error_config=KEEP)
    printed = capsys.readouterr().out
    assert printed.index("Failures (2)") < printed.index("Overall Metric Pass Rates")
    assert "x test_case_1  Faithfulness  score 0.50 < 0.70" in printed
    assert "Faithfulness: 60.00% pass rate (3/5)" in printed
    evaluate(cases(), [metric], display_config=QUIET, error_config=KEEP)
    assert capsys.readouterr().out == ""
    out = io.StringIO()
    print_summary(result, 0.0, file=out)
    assert out.getvalue() == printed.replace(
        printed.splitlines()[0], out.getvalue().splitlines()[0]
    )
    quiet_reason = FaithfulnessMetric(model=LexicalJudge(), threshold=0.7, include_reason=False)
    evaluate(cases()[:2], [quiet_reason])
    assert "x test_case_1  Faithfulness  score 0.50 < 0.70\n" in capsys.readouterr().out


@pytest.mark.parametrize("middle", ["idk", "borderline"])
@pytest.mark.parametrize("model_class", [CustomJudgeModel, SchemaModel, ValidatingModel])
def test_a_deepeval_shaped_model_is_a_judge(middle: str, model_class: type) -> None:
    metric = FaithfulnessMetric(model=model_class(middle))
    assert metric.measure(cases()[3]) == 1.0
    assert metric.evaluation_model == "custom-judge"
    assert [v.verdict for v in metric.verdicts] == ["yes", "idk"]
    assert metric.verdicts[1].verdict == "borderline"
    assert metric.score_breakdown["idk"] == 1
    penalized = FaithfulnessMetric(model=model_class(middle), penalize_ambiguous_claims=True)
    assert penalized.measure(cases()[3]) == 0.5


def test_a_verdict_word_equals_borderline_and_idk() -> None:
    middle = VerdictWord("idk")
    assert middle == "idk"
    assert middle == "borderline"
    assert "borderline" == middle  # noqa: SIM300 - the reflected comparison is the point
    assert middle != "yes"
    assert VerdictWord("no") != "borderline"


def test_deepeval_arguments_are_taken_or_refused_in_one_line() -> None:
    metric = FaithfulnessMetric(
        threshold=0.6, model=LexicalJudge(), async_mode=False, verbose_mode=False, flaky=True
    )
    assert metric.threshold == 0.6
    assert FaithfulnessMetric(0.6, LexicalJudge(), None, None, False).include_reason is False
    assert FaithfulnessMetric(LexicalJudge(), 0.7).threshold == 0.7  # faithpipe's older order
    with pytest.raises(ConfigError, match="not one of DeepEval's: llm, hybrid, system_one"):
        FaithfulnessMetric(eval_mode="multimodal")
    with pytest.raises(ConfigError, match="offline judges"):
        FaithfulnessMetric(system_one_model="gpt-4o-mini")
    with pytest.raises(ConfigError, match="DeepEval-shaped model"):
        FaithfulnessMetric(evaluation_template=object)
    with pytest.raises(TypeError, match="colour"):
        FaithfulnessMetric(colour="red")
    with pytest.raises(ConfigError, match="score-only mode"):  # float(None): a bare TypeError
        FaithfulnessMetric(threshold=None)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="got True"):
        FaithfulnessMetric(threshold=True)


def test_deepevals_other_settings_are_taken() -> None:
    """DisplayConfig(inspect_after_run=...) and file_type were TypeErrors; CacheConfig did not
    import."""
    from faith_udfs import CacheConfig

    quiet = DisplayConfig(print_results=False, inspect_after_run=False, file_type="csv")
    result = evaluate(cases()[:1], [FaithfulnessMetric()], display_config=quiet,
                      cache_config=CacheConfig(use_cache=True))  # fmt: skip
    assert result.test_results[0].success is True


@pytest.mark.parametrize("field", ["results_folder", "file_output_dir", "results_subfolder"])
def test_a_folder_to_save_results_in_is_refused_not_left_empty(tmp_path: Path, field: str) -> None:
    """DeepEval writes the run's results into `DisplayConfig(results_folder=...)` (DeepEval
    3's `file_output_dir`). It was taken and nothing written: a nightly script that reads the
    folder afterwards found no results, without a word. faith_udfs writes no file: the
    refusal says how to save them, before anything is scored."""
    folder = tmp_path / "results"
    display = DisplayConfig(print_results=False, **{field: str(folder)})
    with pytest.raises(ConfigError, match=rf"^DisplayConfig\({field}=.*writes no file.*"
                       r"model_dump_json\(\)"):  # fmt: skip
        evaluate(cases()[:1], [FaithfulnessMetric()], display_config=display)
    assert not folder.exists()


def test_deepeval_1s_flat_keywords_are_their_configs_fields(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """evaluate(..., ignore_errors=True, print_results=False), as DeepEval 1 and 2 scripts call
    it, was taken and ignored: the blank answer's error raised, and the summary printed."""
    given = [*cases()[:1], LLMTestCase(input="q", actual_output="  ", retrieval_context=CONTEXT)]
    metric = FaithfulnessMetric(model=LexicalJudge())
    flat = {"ignore_errors": True, "print_results": False, "identifier": "n1", "run_async": False}
    result = evaluate(given, [metric], hyperparameters={"model": "m"}, **flat)
    assert capsys.readouterr().out == ""
    assert [t.success for t in result.test_results] == [True, False]
    assert "BlankAnswer" in (result.test_results[1].metrics_data[0].error or "")
    skipped = LLMTestCase(input="q", actual_output=None, retrieval_context=CONTEXT)
    alone = evaluate([skipped], [metric], skip_on_missing_params=True, show_indicator=False)
    assert alone.test_results[0].metrics_data == []
    # a config given and a flat keyword: the keyword sets its field
    with pytest.raises(EvaluationError):
        evaluate(given, [metric], error_config=KEEP, ignore_errors=False, print_results=False)


def test_a_misspelt_keyword_is_a_type_error_before_anything_is_scored() -> None:
    calls: list[str] = []

    class Counting(CustomJudgeModel):
        def generate(self, prompt: str) -> str:
            calls.append(prompt)
            return super().generate(prompt)

    with pytest.raises(TypeError, match="unexpected keyword argument 'ignore_erors'"):
        evaluate(cases(), [FaithfulnessMetric(model=Counting())], ignore_erors=True)
    assert calls == []


def test_a_flaky_metrics_failure_does_not_fail_its_test_case() -> None:
    """DeepEval's rule: a flaky metric is reported, never decides pass or fail."""
    steady = FaithfulnessMetric(model=LexicalJudge(), threshold=0.0)
    flaky = FaithfulnessMetric(model=LexicalJudge(), threshold=0.9, flaky=True)
    result = evaluate(cases()[1:2], [steady, flaky], display_config=QUIET)
    (test,) = result.test_results
    assert [m.success for m in test.metrics_data] == [True, False]
    assert test.success is True


def test_deepevals_settings_are_attributes_a_script_may_set() -> None:
    metric = FaithfulnessMetric(model=LexicalJudge(), truths_extraction_limit=3)
    assert (metric.penalize_ambiguous_claims, metric.truths_extraction_limit) == (False, 3)
    case = cases()[1]  # half its claims are contradicted: 0.5
    assert metric.measure(case) == 0.5
    assert metric.success is True
    metric.threshold = 0.8  # a property without a setter before: AttributeError
    assert metric.measure(case) == 0.5  # the score remembered under 0.5 is not reused
    assert metric.success is False
    metric.strict_mode = True
    assert (metric.threshold, metric.measure(case)) == (1.0, 0.0)
    with pytest.raises(ConfigError, match="between 0 and 1"):
        metric.threshold = 2
    # "False" is a true value: strict_mode="False" turned strict mode on without a word
    with pytest.raises(ConfigError, match="strict_mode must be True or False, got 'False'"):
        metric.strict_mode = "False"  # type: ignore[assignment]
    with pytest.raises(ConfigError, match="must be True or False, got 'no'"):
        FaithfulnessMetric(penalize_ambiguous_claims="no")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match=r"threshold must be a number from 0 to 1, got '0\.5'"):
        FaithfulnessMetric(threshold="0.5")  # type: ignore[arg-type]
    # float()'s own TypeError named no setting: "float() argument must be a string or a real
    # number, not 'list'", from FaithfulnessMetric, score_frame and MetricConfig alike
    for odd in ([0.7], {"threshold": 0.7}, 0.7j):
        refused = rf"^threshold must be a number from 0 to 1, got {re.escape(repr(odd))}$"
        with pytest.raises(ConfigError, match=refused):
            FaithfulnessMetric(threshold=odd)  # type: ignore[arg-type]
        with pytest.raises(ConfigError, match=refused):
            score_frame(FRAME, columns=MAPPING, threshold=odd)


def test_is_successful_reads_the_threshold_set_after_measure() -> None:
    """DeepEval's is_successful() compares the score with the threshold as it is when asked:
    a script sweeping thresholds over one measured (paid) case got the first one's answer."""
    metric = FaithfulnessMetric(model=LexicalJudge(), threshold=0.5)
    assert metric.measure(LLMTestCase(input="q", actual_output=ANSWERS[1],
                                      retrieval_context=CONTEXT)) == 0.5  # fmt: skip
    swept = []
    for threshold in (0.5, 0.7, 0.3):
        metric.threshold = threshold
        swept.append((metric.is_successful(), metric.success))
    assert swept == [(True, True), (False, False), (True, True)]
    metric.measure(LLMTestCase(input="q", actual_output=None, retrieval_context=CONTEXT))
    assert metric.is_successful() is False


def test_flaky_verbose_and_async_mode_take_a_bool_not_text() -> None:
    """flaky="False" (a setting read from an environment variable) is a true value: it was
    taken, and the failing case below passed its test, as a flaky metric never decides it."""
    failing = cases()[1]  # 0.5, below 0.9
    for name in ("flaky", "verbose_mode", "async_mode"):
        with pytest.raises(ConfigError, match=f"{name} must be True or False, got 'False'"):
            FaithfulnessMetric(model=LexicalJudge(), **{name: "False"})
    metric = FaithfulnessMetric(model=LexicalJudge(), threshold=0.9)
    with pytest.raises(ConfigError, match="flaky must be True or False, got 'false'"):
        metric.flaky = "false"  # type: ignore[assignment]
    metric.flaky = np.bool_(False)  # numpy's bool, as the config's settings take it
    (test,) = evaluate([failing], [metric], display_config=QUIET).test_results
    assert (metric.flaky, test.success) == (False, False)


def test_a_copy_of_a_metric_set_stricter_never_answers_for_the_original() -> None:
    """A shallow copy shares the memo of scored cases: the copy, set to penalize ambiguous
    claims, remembered its 0.5 (failed) and the original, which does not, returned it."""
    case = LLMTestCase(
        input="q",
        actual_output="Order A17 shipped on 3 March. It arrives tomorrow.",  # yes, idk
        retrieval_context=["Order A17 shipped on 3 March by courier."],
    )
    for judge in (GroundedJudge, LexicalJudge):
        base = FaithfulnessMetric(model=judge())
        strict = copy.copy(base)
        strict.penalize_ambiguous_claims, strict.threshold = True, 0.9
        assert (strict.measure(case), strict.success) == (0.5, False)
        assert (base.measure(case), base.success) == (1.0, True)
        other = copy.copy(base)
        other.model = GroundedV1Judge() if judge is GroundedJudge else GroundedJudge()
        other.measure(case)
        assert base.measure(case) == 1.0
        assert base.evaluation_model == judge().identity.model
    base.config = MetricConfig(threshold=0.9, penalize_ambiguous_claims=True)
    assert (base.measure(case), base.success) == (0.5, False)  # the config is an attribute too


def test_a_model_set_after_construction_is_the_judge_from_then_on() -> None:
    """`metric.model = LexicalJudge()` after a measure() returned the grounded judge's score
    remembered for the case, and evaluation_model named the grounded judge either way."""
    case = LLMTestCase(
        input="q",
        actual_output="Yes, order A17 shipped on 3 March.",  # lexical: "yes" is a word it lacks
        retrieval_context=["Order A17 shipped on 3 March by courier."],
    )
    lexical = FaithfulnessMetric(model=LexicalJudge()).measure(case)
    metric = FaithfulnessMetric()
    grounded = metric.measure(case)
    assert grounded != lexical
    metric.model = LexicalJudge()
    assert (metric.measure(case), metric.evaluation_model) == (lexical, "lexical-v2")
    data = evaluate([case], [metric], display_config=QUIET).test_results[0].metrics_data[0]
    assert (data.score, data.evaluation_model) == (lexical, "lexical-v2")
    metric.model = None  # back to the default judge
    assert (metric.measure(case), metric.evaluation_model) == (grounded, "grounded-v13")


class FlakyNetworkModel(CustomJudgeModel):
    """A model whose provider drops the connection on one answer's prompts."""

    def generate(self, prompt: str) -> str:
        if "Mars" in prompt:
            raise ConnectionError("Connection reset by peer")
        return super().generate(prompt)


def test_what_a_models_generate_raises_is_that_cases_error() -> None:
    """It stopped evaluate() as a crash (a bug of faithpipe's): every case's result lost."""
    metric = FaithfulnessMetric(model=FlakyNetworkModel())
    result = evaluate(cases()[:3], [metric], display_config=QUIET, error_config=KEEP)
    data = [test.metrics_data[0] for test in result.test_results]
    assert [d.score for d in data] == [1.0, 0.5, None]
    assert data[2].error is not None
    assert "generate() raised ConnectionError: Connection reset by peer" in data[2].error
    assert data[2].success is False
    with pytest.raises(EvaluationError, match="ConnectionError"):
        evaluate(cases()[:3], [metric], display_config=QUIET)


class HalfPairModel(CustomJudgeModel):
    """A small model escaping an emoji that writes its first half alone, `"\\ud83d"`."""

    def generate(self, prompt: str) -> str:
        reply = super().generate(prompt)
        return reply.replace("Mars", "Mars \\ud83d") if "Mars" in prompt else reply


def test_a_models_reply_holding_half_a_utf16_pair_is_that_cases_error() -> None:
    """The packed and per-item judges call it a reply error; a DeepEval-shaped model's reply
    crashed evaluate() ('judge prompt/custom-judge crashed (a bug, not a judge error):
    UnicodeEncodeError'), ignore_errors or not: every case's result lost."""
    metric = FaithfulnessMetric(model=HalfPairModel())
    result = evaluate(cases()[:3], [metric], display_config=QUIET, error_config=KEEP)
    data = [test.metrics_data[0] for test in result.test_results]
    assert [d.score for d in data] == [1.0, 0.5, None]
    assert "half of a UTF-16 pair" in (data[2].error or "")
    assert "\ud83d" not in (data[2].error or "")  # the error itself is text DuckDB takes
    # A PromptJudge's handler answering with such a dict: the same
    from faith_udfs.prompt_judge import PromptJudge

    def answer(prompt: str, schema: str) -> Any:
        reply = json.dumps(pretend_judge(prompt, schema))
        return json.loads(reply.replace("Mars", "Mars \\ud83d") if "Mars" in prompt else reply)

    metric = FaithfulnessMetric(model=PromptJudge(answer, model="handlers"))
    result = evaluate(cases()[:3], [metric], display_config=QUIET, error_config=KEEP)
    data = [test.metrics_data[0] for test in result.test_results]
    assert [d.score for d in data] == [1.0, 0.5, None]
    assert "half of a UTF-16 pair" in (data[2].error or "")


class EmptyReplyModel(CustomJudgeModel):
    """A model whose provider answers one answer's prompts with nothing (or reasoning only)."""

    def __init__(self, empty: str) -> None:
        super().__init__()
        self.empty = empty

    def generate(self, prompt: str) -> str:
        return self.empty if "Mars" in prompt else super().generate(prompt)


@pytest.mark.parametrize(
    "empty", ["", "  \n", "<think>Nothing to add.</think>\n"], ids=["nothing", "space", "reasoning"]
)
def test_an_empty_reply_to_the_drop_in_says_it_is_empty(empty: str) -> None:
    """It said `reply holds no JSON object: ` and then nothing, which reads as a cut line;
    the LLM judges say `the reply is empty (...)`, and so does the drop-in now, for a
    DeepEval-shaped model and a PromptJudge handler answering with text alike."""
    from faith_udfs.prompt_judge import PromptJudge

    def answer(prompt: str, schema: str) -> Any:
        return empty if "Mars" in prompt else pretend_judge(prompt, schema)

    for model in (EmptyReplyModel(empty), PromptJudge(answer, model="handlers")):
        metric = FaithfulnessMetric(model=model)
        result = evaluate(cases()[:3], [metric], display_config=QUIET, error_config=KEEP)
        data = [test.metrics_data[0] for test in result.test_results]
        assert [d.score for d in data] == [1.0, 0.5, None]
        assert (data[2].error or "").startswith("JudgeReplyError: the reply is empty (no text")


def test_a_stop_inside_a_models_generate_is_no_case_error() -> None:
    """Only the model's failures become case errors: a Ctrl-C or SIGTERM (faithpipe's stops
    are KeyboardInterrupts) while it answers stops the evaluation."""

    class Stopped(CustomJudgeModel):
        def generate(self, prompt: str) -> str:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        evaluate(cases()[:1], [FaithfulnessMetric(model=Stopped())], display_config=QUIET,
                 error_config=KEEP)  # fmt: skip


def test_deepeval_test_cases_and_their_other_fields_are_taken() -> None:
    deepeval_shaped = LLMTestCase(
        input="q", actual_output=ANSWERS[0], retrieval_context=CONTEXT,
        additional_metadata={"id": 7}, metadata={"a": 1}, comments="c", tags=["t"],
        tools_called=[], expected_tools=[],
        token_cost=0.1, completion_time=1.5,
    )  # fmt: skip
    metric = FaithfulnessMetric(model=LexicalJudge())
    assert metric.measure(deepeval_shaped) == 1.0

    class NoCaseId:  # DeepEval's own test case: no case_id (an AttributeError before)
        input, actual_output, retrieval_context = "q", ANSWERS[1], CONTEXT

    assert metric.measure(NoCaseId()) == 0.5  # type: ignore[arg-type]
    assert metric.measure(LLMTestCase(input="q", retrieval_context=CONTEXT)) is None
    assert metric.status == "invalid"


def test_every_field_deepevals_test_case_declares_is_taken() -> None:
    """DeepEval's LLMTestCase declares flaky, multimodal, the MCP fields and
    custom_column_key_values too: a script that set one was a TypeError here, so switching
    meant more than the import line. They are carried unread."""
    case = LLMTestCase(
        input="q", actual_output=ANSWERS[0], retrieval_context=CONTEXT,
        flaky=True, multimodal=False, mcp_servers=None, mcp_tools_called=None,
        mcp_resources_called=None, mcp_prompts_called=None,
        custom_column_key_values={"team": "billing"},
    )  # fmt: skip
    assert (case.flaky, case.custom_column_key_values) == (True, {"team": "billing"})
    assert FaithfulnessMetric(model=LexicalJudge()).measure(case) == 1.0
    with pytest.raises(TypeError, match="retreival_context"):  # a misspelt field still is one
        LLMTestCase(input="q", actual_output="a", retreival_context=CONTEXT)  # type: ignore[call-arg]


def test_test_cases_may_share_a_name_as_in_deepeval() -> None:
    """DeepEval names a result by the case's `name` and lets names repeat (a category, a
    golden's label); evaluate() refused them, so such a script failed before scoring. Each
    case is scored as itself; only a repeated case_id (faithpipe's id) is refused."""
    named = [
        LLMTestCase(input="q", actual_output=a, retrieval_context=CONTEXT, name="refunds")
        for a in ANSWERS[:3]
    ]
    result = evaluate(named, [FaithfulnessMetric(model=LexicalJudge())], display_config=QUIET)
    assert [t.name for t in result.test_results] == ["refunds"] * 3
    assert [t.metrics_data[0].score for t in result.test_results] == [1.0, 0.5, 1.0]
    assert result.test_results[1].metrics_data[0].claims == [
        "Refunds are paid within 90 days.", "A receipt is required.",
    ]  # fmt: skip
    assert result.outcomes()["case"].to_list() == ["refunds"] * 3
    assert result.to_polars().case_scores.height == 3
    ids = [LLMTestCase(input="q", actual_output=a, retrieval_context=CONTEXT, case_id="x")
           for a in ANSWERS[:2]]  # fmt: skip
    with pytest.raises(ValueError, match=r"^test cases 0 and 1 have the same case_id 'x': give"):
        evaluate(ids, [FaithfulnessMetric()], display_config=QUIET)
    # Distinct ids given, but one is the default name of a case without one: that case is
    # named, not "must have distinct case_id values".
    clash = [
        LLMTestCase(input="q", actual_output=a, retrieval_context=CONTEXT) for a in ANSWERS[:2]
    ]
    clash[0].case_id = "test_case_1"
    with pytest.raises(ValueError, match=r"^test case 1 has no case_id and takes DeepEval's name "
                       r"'test_case_1', which test case 0's case_id is too"):  # fmt: skip
        evaluate(clash, [FaithfulnessMetric()], display_config=QUIET)


def test_a_test_result_has_deepevals_fields_a_script_reads() -> None:
    """A DeepEval script reads `test_result.metadata` (a user or ticket id carried from the
    case), `.index` and `.conversational`: they were AttributeErrors."""
    given = [
        LLMTestCase(input="q", actual_output=ANSWERS[0], retrieval_context=CONTEXT,
                    metadata={"ticket": "T-1"}),
        LLMTestCase(input="q", actual_output=ANSWERS[1], retrieval_context=CONTEXT,
                    additional_metadata={"ticket": "T-2"}),
        LLMTestCase(input="q", actual_output=ANSWERS[2], retrieval_context=CONTEXT),
    ]  # fmt: skip
    result = evaluate(given, [FaithfulnessMetric()], display_config=QUIET)
    tickets = {t.name: (t.metadata or {}).get("ticket") for t in result.test_results}
    assert tickets == {"test_case_0": "T-1", "test_case_1": "T-2", "test_case_2": None}
    assert [t.index for t in result.test_results] == [0, 1, 2]
    last = result.test_results[-1]
    assert (last.conversational, last.multimodal, last.turns) == (False, False, None)


def test_other_metrics_and_text_that_is_no_utf8_are_refused_in_one_line() -> None:
    class AnswerRelevancyMetric:
        threshold = 0.5

    for other, named in ((AnswerRelevancyMetric(), "AnswerRelevancyMetric"),
                         (FaithfulnessMetric, "FaithfulnessMetric")):  # fmt: skip
        with pytest.raises(TypeError, match=f"FaithfulnessMetric instances, got {named}"):
            evaluate(cases(), [FaithfulnessMetric(), other], display_config=QUIET)  # type: ignore[list-item]
    # A metric or a test case not in a list: said so, not "'FaithfulnessMetric' object is not
    # iterable" (DeepEval's own message)
    for unlisted in ((cases(), FaithfulnessMetric()), (cases()[0], [FaithfulnessMetric()])):
        with pytest.raises(TypeError, match=r"takes lists: evaluate\(test_cases=\[LLMTestCase"):
            evaluate(*unlisted, display_config=QUIET)  # type: ignore[arg-type]
    cut = json.loads('"Great news \\ud83d"')  # half an emoji, as a JSON log may hold
    broken = [*cases()[:2], LLMTestCase(input="q", actual_output=cut, retrieval_context=CONTEXT)]
    with pytest.raises(ValueError, match="case 'test_case_2': its actual_output holds a lone"):
        evaluate(broken, [FaithfulnessMetric()], display_config=QUIET, error_config=KEEP)


def test_eval_mode_llm_is_deepevals_default_and_taken() -> None:
    # DeepEval 4's eval_mode says who decides; "llm", its default, is what faithpipe does
    for spelt in ("llm", " LLM "):
        metric = FaithfulnessMetric(threshold=0.7, eval_mode=spelt, model=LexicalJudge())
        assert metric.measure(cases()[1]) == 0.5
        assert metric.success is False
    for system_one in ("hybrid", "system_one"):
        with pytest.raises(ConfigError, match="System One model"):
            FaithfulnessMetric(eval_mode=system_one)


def test_measure_names_the_field_that_holds_half_an_emoji() -> None:
    """evaluate() named the case and field; measure() raised a bare UnicodeEncodeError from
    its sentence-pair size check, naming neither."""
    cut = json.loads('"Great news \\ud83d"')  # half an emoji, as a JSON log may hold
    for model in (None, LexicalJudge()):
        with pytest.raises(ValueError, match="its actual_output holds a lone surrogate"):
            FaithfulnessMetric(model=model).measure(LLMTestCase("q", cut, CONTEXT))
        with pytest.raises(ValueError, match="its retrieval_context holds a lone surrogate"):
            FaithfulnessMetric(model=model).measure(LLMTestCase("q", "Great news.", [cut]))


def test_an_evaluation_template_writes_the_prompts() -> None:
    asked: list[str] = []

    class Template:
        @staticmethod
        def generate_truths(retrieval_context: str, extraction_limit: int | None) -> str:
            return f"TRUTHS {retrieval_context}"

        @staticmethod
        def generate_claims(actual_output: str) -> str:
            return f"CLAIMS {actual_output}"

        @staticmethod
        def generate_verdicts(claims: list[str], retrieval_context: str) -> str:
            return f"VERDICTS {len(claims)}"

        @staticmethod
        def generate_reason(score: float, contradictions: list[str]) -> str:
            return "REASON"

    class Model(CustomJudgeModel):
        def generate(self, prompt: str) -> str:
            asked.append(prompt.split(maxsplit=1)[0])
            kind, _, rest = prompt.partition(" ")
            if kind == "VERDICTS":
                return json.dumps({"verdicts": [{"verdict": "borderline"}] * int(rest)})
            replies = {"TRUTHS": {"truths": [rest]}, "CLAIMS": {"claims": [rest]}}
            return json.dumps(replies.get(kind, {"reason": "templated"}))

    metric = FaithfulnessMetric(model=Model(), evaluation_template=Template)
    assert metric.measure(LLMTestCase("q", "It rains.", ["Sun."])) == 1.0
    assert metric.reason == "templated"
    assert asked == ["TRUTHS", "CLAIMS", "VERDICTS", "REASON"]
    assert "evaluation_template" in dict(metric.model.identity.options)


class OneStepTemplate:  # DeepEval's documented custom template: generate_claims alone
    @staticmethod
    def generate_claims(actual_output: str) -> str:
        return f"CLAIMS {actual_output}"


def test_a_template_for_a_judge_that_reads_none_is_refused_saying_why() -> None:
    """DeepEval's usual call, `model="gpt-4o-mini", evaluation_template=...`, was told to
    "pass model= such a model (faithpipe's own judges read their own prompts)", naming
    neither the model name nor what to pass; and setting `metric.model` afterwards to such a
    judge dropped the template without a word (the docs say a new model is checked as at
    construction)."""
    with pytest.raises(ConfigError, match=r"^evaluation_template=OneStepTemplate .* "
                       r"model='gpt-4o-mini' is a model name, .*packed prompts.* "
                       r"DeepEvalBaseLLM-shaped"):  # fmt: skip
        FaithfulnessMetric(model="gpt-4o-mini", evaluation_template=OneStepTemplate)
    with pytest.raises(ConfigError, match="no model: the offline GroundedJudge reads no prompt"):
        FaithfulnessMetric(evaluation_template=OneStepTemplate)
    with pytest.raises(ConfigError, match="LexicalJudge reads faithpipe's own prompts"):
        FaithfulnessMetric(model=LexicalJudge(), evaluation_template=OneStepTemplate)
    metric = FaithfulnessMetric(model=CustomJudgeModel(), evaluation_template=OneStepTemplate)
    templated = metric.model
    for other in (LexicalJudge(), "gpt-4o-mini", None):
        with pytest.raises(ConfigError, match=r"^evaluation_template=OneStepTemplate"):
            metric.model = other
        assert metric.model is templated  # kept, as a refused threshold keeps the old one
    metric.model = CustomJudgeModel("borderline")  # another DeepEval-shaped model: templated
    assert "evaluation_template" in dict(metric.model.identity.options)


def test_an_evaluation_template_may_write_one_prompt_and_leave_the_others() -> None:
    """DeepEval's docs override generate_claims alone; DeepEval asks its default prompts for
    the other steps. Here the template had to write all four: the truths step crashed."""
    asked: list[str] = []

    class CustomTemplate:  # DeepEval's docs' example, without DeepEval's base class
        @staticmethod
        def generate_claims(actual_output: str) -> str:
            return f"CLAIMS {actual_output}"

    class Model(CustomJudgeModel):
        def generate(self, prompt: str) -> str:
            kind, _, rest = prompt.partition(" ")
            asked.append(kind)
            if kind == "CLAIMS":
                return json.dumps({"claims": [rest]})
            return super().generate(prompt)

    metric = FaithfulnessMetric(model=Model(), evaluation_template=CustomTemplate)
    assert metric.measure(cases()[0]) == 1.0
    assert metric.claims == [ANSWERS[0]]
    assert sorted(set(asked)) == sorted(
        {"CLAIMS", "faithfulness.Truths", "faithfulness.Verdicts", "faithfulness.Reason"}
    )


@pytest.mark.parametrize("penalize", [False, True])
def test_the_reason_is_told_the_ambiguous_claims_a_penalized_score_counts(penalize: bool) -> None:
    """DeepEval's reason prompt lists each `no` verdict's reason and, with
    penalize_ambiguous_claims, each `idk`'s as "(Ambiguous) <reason>", in verdict order: the
    reason then explains what lowered the score. Only the `no`s were listed."""
    told: list[list[str]] = []

    class Template:
        @staticmethod
        def generate_reason(score: float, contradictions: list[str]) -> str:
            told.append(list(contradictions))
            return "REASON"

    class Model(CustomJudgeModel):
        def generate(self, prompt: str) -> str:
            if prompt == "REASON":
                return json.dumps({"reason": "explained"})
            if schema_of(prompt) == "faithfulness.Verdicts":
                return json.dumps({"verdicts": [
                    {"verdict": "idk", "reason": "Mars is not mentioned."},
                    {"verdict": "no", "reason": "Refunds take 30 days, not 90."},
                    {"verdict": "borderline", "reason": "Tomorrow is not mentioned."},
                ]})  # fmt: skip
            return super().generate(prompt)

    metric = FaithfulnessMetric(
        model=Model(), evaluation_template=Template, penalize_ambiguous_claims=penalize
    )
    answer = "We ship to Mars. Refunds take 90 days. It arrives tomorrow."
    metric.measure(LLMTestCase(input="q", actual_output=answer, retrieval_context=CONTEXT))
    assert metric.score == (0.0 if penalize else 2 / 3)
    assert metric.reason == "explained"
    if penalize:
        assert told == [[
            "(Ambiguous) Mars is not mentioned.", "Refunds take 30 days, not 90.",
            "(Ambiguous) Tomorrow is not mentioned.",
        ]]  # fmt: skip
    else:
        assert told == [["Refunds take 30 days, not 90."]]


def test_a_template_method_is_given_only_the_keywords_it_takes() -> None:
    class Template:  # generate_verdicts without retrieval_context, as DeepEval allows
        @staticmethod
        def generate_verdicts(claims: list[str]) -> str:
            return f"VERDICTS {len(claims)}"

    class Model(CustomJudgeModel):
        def generate(self, prompt: str) -> str:
            kind, _, count = prompt.partition(" ")
            if kind == "VERDICTS":
                return json.dumps({"verdicts": [{"verdict": "no", "reason": "r"}] * int(count)})
            return super().generate(prompt)

    metric = FaithfulnessMetric(model=Model(), evaluation_template=Template)
    assert metric.measure(cases()[0]) == 0.0
    assert metric.error is None


def test_a_measure_gives_what_measure_gives() -> None:
    metric = FaithfulnessMetric(model=LexicalJudge())
    score = asyncio.run(metric.a_measure(cases()[1]))
    assert score == 0.5
    assert [v.verdict for v in metric.verdicts] == ["no", "yes"]


def test_measure_of_a_repeated_case_is_remembered_and_unchanged() -> None:
    metric = FaithfulnessMetric(model=LexicalJudge())
    first = metric.measure(cases()[1]), metric.reason, metric.verdicts, metric.truths
    assert metric.frames is not None
    again = metric.measure(cases()[1]), metric.reason, metric.verdicts, metric.truths
    assert metric.frames is None  # answered from memory: no batch ran
    assert again == first


texts = st.lists(
    st.sampled_from(["Refunds are paid", "within 30 days", "within 9 days", "Mars", "receipt"]),
    max_size=3,
).map(lambda words: ". ".join(words) + ("." if words else ""))


@settings(max_examples=25, deadline=None)
@given(answers=st.lists(texts, min_size=1, max_size=6), passages=st.lists(texts, max_size=3))
def test_evaluate_equals_a_measure_loop(answers: list[str], passages: list[str]) -> None:
    batch = [LLMTestCase("q", a, passages) for a in answers]
    result = evaluate(batch, [FaithfulnessMetric(model=LexicalJudge())], display_config=QUIET,
                      error_config=KEEP)  # fmt: skip
    metric = FaithfulnessMetric(model=LexicalJudge())
    for case, test in zip(batch, result.test_results, strict=True):
        metric.measure(case)
        data = test.metrics_data[0]
        assert (data.score, data.reason, data.error, data.verdicts, data.truths) == (
            metric.score, metric.reason, metric.error, metric.verdicts, metric.truths
        )  # fmt: skip


FRAME = pl.DataFrame(
    {
        "question": ["q1", "q2", "q3"],
        "answer": ANSWERS[:3],
        "passages": [CONTEXT, CONTEXT, CONTEXT[:1]],
        "app": ["a", "b", "a"],
    }
)
MAPPING = "input=question,actual_output=answer,retrieval_context=passages"


def test_score_frame_keeps_the_rows_and_adds_the_scores() -> None:
    scored = score_frame(FRAME, columns=MAPPING, judge=LexicalJudge(), threshold=0.7)
    assert scored.columns[:4] == FRAME.columns
    assert scored["score"].to_list() == [1.0, 0.5, 1.0]
    assert scored["success"].to_list() == [True, False, True]
    assert scored["case_id"].to_list() == ["0", "1", "2"]
    scored, claims = score_frame(FRAME, columns=MAPPING, case_id="content", claims=True)
    assert scored["case_id"].str.len_chars().to_list() == [32] * 3
    assert set(claims["case_id"]) == set(scored["case_id"])


def test_score_frame_scores_repeated_rows_once_under_content_ids() -> None:
    """case_id='content' on a frame with a row twice said 'case_id repeats: pass ...
    case_id='content''; the CLI takes such copies. Each copy gets the one case's scores."""
    twice = pl.concat([FRAME, FRAME.head(1)])
    scored, claims = score_frame(twice, columns=MAPPING, case_id="content", claims=True)
    assert scored.height == 4
    assert scored["case_id"][3] == scored["case_id"][0]
    assert scored.row(3) == scored.row(0)
    of_the_case = claims.filter(pl.col("case_id") == scored["case_id"][0])
    assert of_the_case.height == of_the_case.unique().height > 0  # its claims once
    with pytest.raises(ValueError, match="case_id repeats"):
        score_frame(twice.with_columns(case_id=pl.lit("same")), columns=MAPPING)


def test_score_frame_content_ids_are_the_clis_whatever_form_logged_at_takes() -> None:
    """case_id='content' hashed logged_at with Python's isoformat(): a time logged as text
    (a JSON log read into a frame) or as an epoch number was an AttributeError traceback, and
    a time with an offset or a date alone got another id than `faith score --case-id
    content` gives the same row. Now logged_at is read as the CLI reads it (naive UTC)."""
    from schemas.contract import content_case_ids  # what `faith score --case-id content` runs

    at = "2026-11-01T12:00:00"
    forms = {
        "text": pl.Series([at, "2026-11-01T13:00:00+01:00"]),
        "epoch seconds": pl.Series([1_793_534_400, 1_793_534_400]),
        "aware": pl.Series([at, at]).str.to_datetime().dt.replace_time_zone("UTC")
        .dt.convert_time_zone("Europe/Paris"),
        "date": pl.Series(["2026-11-01", "2026-11-01"]).str.to_date(),
    }  # fmt: skip
    rows = FRAME.head(2).rename({"question": "input", "answer": "actual_output"})
    rows = rows.rename({"passages": "retrieval_context"})
    for form, logged_at in forms.items():
        frame = rows.with_columns(logged_at=logged_at)
        scored = score_frame(frame, case_id="content")
        assert scored["case_id"].to_list() == content_case_ids(frame).to_list(), form
        assert scored["status"].to_list() == ["scored"] * 2, form
    # A question logged as a whole number is read as its text there: the same id here.
    numbered = rows.with_columns(input=pl.Series([5, 6]), logged_at=forms["text"])
    assert score_frame(numbered, case_id="content")["case_id"].to_list() == (
        content_case_ids(numbered).to_list()
    )
    unreadable = rows.with_columns(logged_at=pl.Series([at, "yesterday"]))
    with pytest.raises(ValueError, match=r"^logged_at 'yesterday' \(row 1\) is no time"):
        score_frame(unreadable, case_id="content")


def test_score_frame_refuses_a_null_case_id_rather_than_leave_its_row_unscored() -> None:
    """A frame whose case_id had a null came back with that row's score, status and error
    all null (the join on case_id never matches a null): a row neither scored nor invalid,
    without a word. Two nulls were called a repeated case_id."""
    with_null = FRAME.with_columns(case_id=pl.Series(["a", None, "c"]))
    with pytest.raises(ValueError, match=r"^case_id is null in 1 row \(row 1\): give"):
        score_frame(with_null, columns=MAPPING)
    two_nulls = FRAME.with_columns(case_id=pl.Series([None, "b", None]))
    with pytest.raises(ValueError, match=r"null in 2 rows \(rows 0, 2\).*case_id='row'"):
        score_frame(two_nulls, columns=MAPPING)
    scored = score_frame(with_null, columns=MAPPING, case_id="row")
    assert scored["status"].to_list() == ["scored"] * 3


def test_arrow_and_pandas_frames_come_back_as_they_went_in_with_equal_results() -> None:
    polars_result = score_frame(FRAME, columns=MAPPING)
    arrow_result = score_frame(FRAME.to_arrow(), columns=MAPPING)
    assert isinstance(arrow_result, pa.Table)
    assert pl.from_arrow(arrow_result).equals(polars_result)
    pandas = pytest.importorskip("pandas")
    pandas_result = score_frame(FRAME.to_pandas(), columns=MAPPING)
    assert isinstance(pandas_result, pandas.DataFrame)
    assert pl.from_pandas(pandas_result).equals(polars_result)


def test_a_pandas_frame_as_a_deepeval_user_builds_it_scores_as_polars_and_arrow_do() -> None:
    pandas = pytest.importorskip("pandas")
    rows = {
        "question": ["q1", "q2", "q3", "q4"],
        "answer": [*ANSWERS[1:3], "   ", ANSWERS[3]],  # a blank one: invalid, null counts
        "passages": [CONTEXT, CONTEXT[:1], CONTEXT, []],  # an empty one: invalid too
        "app": ["a", "b", "a", "c"],
    }
    frame = pandas.DataFrame(rows, index=[10, 20, 30, 40])  # lists as Python lists
    scored, claims = score_frame(frame, columns=MAPPING, claims=True, threshold=0.7)
    assert isinstance(scored, pandas.DataFrame)
    assert isinstance(claims, pandas.DataFrame)
    assert list(scored.index) == [10, 20, 30, 40]  # the caller's index, rows in order
    assert list(scored.columns[:4]) == list(rows)  # the caller's columns first
    assert list(scored["answer"]) == rows["answer"]
    assert list(scored["status"]) == ["scored", "scored", "invalid", "invalid"]
    from_polars, polars_claims = score_frame(
        pl.DataFrame(rows), columns=MAPPING, claims=True, threshold=0.7
    )
    from_arrow = pl.from_arrow(score_frame(pa.table(rows), columns=MAPPING, threshold=0.7))
    assert from_arrow.equals(from_polars)
    # pandas has no nullable int by default: an invalid row's counts come back as NaN
    back = pl.from_pandas(scored.reset_index(drop=True)).cast(dict(from_polars.schema))
    assert back.equals(from_polars)
    assert pl.from_pandas(claims).equals(polars_claims)


@pytest.mark.parametrize(
    ("answers", "passages"),
    [
        (["Refunds are paid within 30 days.", "We ship to Mars."], [None, None]),
        (["Refunds are paid within 30 days.", "We ship to Mars."], [np.nan, np.nan]),
        ([None, None], [CONTEXT, CONTEXT]),
        ([np.nan, None], [CONTEXT, CONTEXT]),
    ],
    ids=["contexts-None", "contexts-NaN", "answers-None", "answers-NaN"],
)
def test_a_pandas_column_with_every_value_missing_gives_invalid_rows(
    answers: list, passages: list
) -> None:
    """pandas keeps no type for a column of nothing but None (object, read as text) or NaN
    (float): a day's chunk whose retrieval all failed was a TypeError ("retrieval_context
    must be a list of strings, got String: wrap one passage as [text]"), where one list
    among them gave invalid rows. Every row comes back, invalid, as from polars."""
    pandas = pytest.importorskip("pandas")
    frame = pandas.DataFrame({"actual_output": answers, "retrieval_context": passages})
    scored = score_frame(frame)
    assert list(scored["status"]) == ["invalid", "invalid"]
    error = "EmptyContext" if passages[0] is not CONTEXT else "BlankAnswer"
    assert all(e.startswith(error) for e in scored["error"])


def test_a_lazy_frame_comes_back_lazy() -> None:
    """The page promises the caller's frame type back, LazyFrame included: a LazyFrame came
    back as a DataFrame, so a pipeline's next `.collect()` failed."""
    scored = score_frame(FRAME.lazy(), columns=MAPPING, judge=LexicalJudge())
    assert isinstance(scored, pl.LazyFrame)
    assert scored.collect().equals(score_frame(FRAME, columns=MAPPING, judge=LexicalJudge()))
    scored, claims = score_frame(FRAME.lazy(), columns=MAPPING, claims=True)
    assert isinstance(scored, pl.LazyFrame)
    assert isinstance(claims, pl.LazyFrame)


def test_score_frame_names_its_settings_when_given_another_keyword() -> None:
    """A keyword that is no metric setting reached MetricConfig: DeepEval's `model=` was
    "MetricConfig.__init__() got an unexpected keyword argument 'model'", and
    `scoring_rules_version=` was taken, storing scores under a rules version they were not
    scored by (another config id)."""
    with pytest.raises(TypeError, match=r"score_frame\(\) got an unexpected keyword argument "
                       r"'model': the judge is judge="):  # fmt: skip
        score_frame(FRAME, columns=MAPPING, model=LexicalJudge())
    for other in ("treshold", "scoring_rules_version"):
        settings = "threshold, penalize_ambiguous_claims, strict_mode, include_reason, "
        settings += "truths_extraction_limit"
        with pytest.raises(TypeError, match=f"'{other}'.*are {settings}$"):
            score_frame(FRAME, columns=MAPPING, **{other: 0.7})


def test_score_frame_refuses_what_it_cannot_read_in_one_line() -> None:
    scored = score_frame(FRAME, columns=MAPPING, judge=LexicalJudge())
    with pytest.raises(ValueError, match="has columns score, success, threshold, status"):
        score_frame(scored, columns=MAPPING)  # the caller's score was kept, ours: score_right
    with pytest.raises(
        TypeError, match="takes a polars DataFrame, a pandas DataFrame or a pyarrow"
    ):
        score_frame([{"actual_output": "x"}])
    with pytest.raises(ValueError, match="lacks"):
        score_frame(FRAME, columns="actual_output=reply")
    with pytest.raises(ValueError, match="CONTRACT_NAME=SOURCE_COLUMN"):
        score_frame(FRAME, columns="answer")


MODEL_NAME = """
import sys
from faith_udfs import ConfigError, FaithfulnessMetric
try:
    FaithfulnessMetric(model="gpt-4o-mini")
except ConfigError as exc:
    print("refused:", exc)
import flows.run.deepeval
metric = FaithfulnessMetric(model="gpt-4o-mini")
print(type(metric.model).__name__, metric.evaluation_model)
print("pandas" in sys.modules)
"""


def test_a_model_name_needs_flows_and_then_means_the_openai_judge() -> None:
    done = subprocess.run(
        [sys.executable, "-c", MODEL_NAME], capture_output=True, text=True, timeout=60,
        env={"OPENAI_API_KEY": "sk-test", "PATH": ""}, check=True,
    )  # fmt: skip
    lines = done.stdout.splitlines()
    assert lines[0].startswith("refused: model='gpt-4o-mini' names an LLM endpoint")
    assert lines[1] == "OpenAIJudge gpt-4o-mini"
    assert lines[2] == "False"  # pandas only when given a pandas frame


DOCS = Path(__file__).resolve().parents[2] / "docs" / "deepeval.md"


def test_the_documented_side_by_side_example_runs(capsys) -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOCS.read_text(), flags=re.DOTALL)
    ours = next(b for b in blocks if b.startswith("from faith_udfs import FaithfulnessMetric"))
    exec(compile(ours, str(DOCS), "exec"), {})
    printed = capsys.readouterr().out
    assert printed.startswith("1.0 The score is 1.00.\n")
    assert "Faithfulness: 100.00% pass rate (1/1)" in printed


def test_the_documented_score_frame_example_runs_on_one_frame() -> None:
    """Both calls of the page's score_frame block on the frame the first one maps: the second
    mapped the answer alone, so the same frame was refused (no retrieval_context column)."""
    blocks = re.findall(r"```python\n(.*?)```", DOCS.read_text(), flags=re.DOTALL)
    block = next(b for b in blocks if b.startswith("from faith_udfs import score_frame"))
    frame = pl.DataFrame(
        {
            "question": ["Where is order A17?"],
            "answer": ["Order A17 shipped on 3 March."],
            "docs": [["Order A17 shipped on 3 March by courier."]],
        }
    )
    names: dict = {"frame": frame}
    exec(compile(block, str(DOCS), "exec"), names)
    assert names["scored"]["score"].to_list() == [1.0]
    assert names["claims"].height == 1


# DeepEval's documented faithfulness example (docs/metrics-faithfulness), verbatim; only the
# import lines change, to flows.run.deepeval (a model name needs the flows' LLM judge).
DEEPEVAL_EXAMPLE = """
from deepeval import evaluate
from deepeval.test_case import LLMTestCase
from deepeval.metrics import FaithfulnessMetric

# Replace this with the actual output from your LLM application
actual_output = "We offer a 30-day full refund at no extra cost."

# Replace this with the actual retrieved context from your RAG pipeline
retrieval_context = [
    "All customers are eligible for a 30 day full refund at no extra cost."
]

metric = FaithfulnessMetric(
    threshold=0.7,
    model="gpt-4.1",
    include_reason=True
)
test_case = LLMTestCase(
    input="What if these shoes don't fit?",
    actual_output=actual_output,
    retrieval_context=retrieval_context
)

# To run metric as a standalone
# metric.measure(test_case)
# print(metric.score, metric.reason)

evaluate(test_cases=[test_case], metrics=[metric])
"""
IMPORTS = {
    "from deepeval import evaluate": "from flows.run.deepeval import evaluate",
    "from deepeval.test_case import LLMTestCase": "from flows.run.deepeval import LLMTestCase",
    "from deepeval.metrics import FaithfulnessMetric": (
        "from flows.run.deepeval import FaithfulnessMetric"
    ),
}


def test_deepevals_documented_example_runs_with_only_its_imports_changed() -> None:
    from tests.support.openai_stub import serving

    script = DEEPEVAL_EXAMPLE
    for theirs, ours in IMPORTS.items():
        script = script.replace(theirs, ours)
    # the standalone lines too, as the example invites
    script = script.replace("# metric.measure", "metric.measure").replace("# print", "print")
    assert [
        line for line in script.splitlines() if "deepeval" in line and "flows" not in line
    ] == []
    with serving(api_key="sk-test") as server:
        done = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
            cwd=Path(__file__).resolve().parents[2], check=False,
            env={"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": server.base_url, "PATH": ""},
        )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert server.requests > 0  # the LLM judge asked the endpoint OPENAI_BASE_URL names
    lines = done.stdout.splitlines()
    # the seed's word rules answer as the judge: "offer" is not in the context, so `no`, and
    # the score is DeepEval's for that verdict (share of claims not `no`)
    assert lines[0] == (
        "0.0 The score is 0.00. The context says otherwise about: "
        "We offer a 30-day full refund at no extra cost."
    )
    assert "Faithfulness: 0.00% pass rate (0/1)" in done.stdout


def test_verbose_logs_end_with_the_score_and_reason_as_deepevals_do(
    seed_cases: dict[str, LLMTestCase], capsys: pytest.CaptureFixture[str]
) -> None:
    """DeepEval's verbose logs are four steps: truths, claims, verdicts, then `Score: ...`
    and `Reason: ...`; the last step was missing, so a verbose run never showed the result."""
    metric = FaithfulnessMetric(verbose_mode=True)
    metric.measure(seed_cases["wrong"])
    steps = metric.verbose_logs.split("\n \n")
    assert [step.split(":")[0] for step in steps] == [
        "Truths (limit=None)",
        "Claims",
        "Verdicts",
        "Score",
    ]
    assert steps[-1] == "Score: 0.5\nReason: The score is 0.50."
    assert capsys.readouterr().out == metric.verbose_logs + "\n"  # printed as DeepEval prints
    quiet = FaithfulnessMetric(strict_mode=True, include_reason=False)
    result = evaluate([seed_cases["wrong"]], [quiet], display_config=QUIET)
    assert result.test_results[0].metrics_data[0].verbose_logs.endswith("Score: 0.0\nReason: None")
