"""The single-case API users know from DeepEval and the seed, on top of the batch path."""

from __future__ import annotations

import asyncio
import functools
import sys
import threading
from collections import OrderedDict
from contextlib import suppress
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar

from faith_udfs.awaiting import stopped_by
from faith_udfs.case_results import (
    CaseResult,
    FaithfulnessVerdict,
    case_results,
    cases_frame,
    verbose_logs,
)
from faith_udfs.config import JudgeIdentity, MetricConfig, check_flag
from faith_udfs.deepeval_models import (
    DeepEvalModelJudge,
    is_deepeval_model,
    judge_of,
    templated_judge,
)
from faith_udfs.errors import ConfigError
from faith_udfs.grounded import GroundedJudge
from faith_udfs.judges import Judge, is_judge
from faith_udfs.metric import FaithfulnessFrames, score_cases
from faith_udfs.sentence_pairs import (
    DEFAULT_MAX_SENTENCE_PAIRS,
    check_sentence_pairs,
    checked_limit,
)

__all__ = ["FaithfulnessMetric", "FaithfulnessVerdict", "LLMTestCase"]

# Judges whose answers depend on the text alone: a repeated case is answered from memory.
OFFLINE_KINDS = frozenset({"lexical", "grounded"})
MEMO_SIZE = 4096
# A case whose answer and passages hold more characters is not kept: the memo holds each case
# whole (its text, truths and claims), and 4,096 cases of 200 KB sentences grew a loop of
# measure() by 0.57 MB a case (of 1 MB answers: gigabytes).
MEMO_CASE_CHARS = 32_768

SYSTEM_ONE_REFUSED = (
    "system_one_model is DeepEval's fast-path second model; faithpipe's offline judges "
    "are already the fast path: pass model=GroundedJudge() or LexicalJudge()"
)
# DeepEval 4's eval_mode says who decides: "llm" (its default: the judge alone, as here),
# "hybrid" or "system_one" (its System One model, Jev, decides).
EVAL_MODES = ("llm", "hybrid", "system_one")


def check_eval_mode(value: object) -> None:
    """Take DeepEval's `eval_mode` when it means what faithpipe does (None or "llm", spelt as
    DeepEval reads it); refuse the System One modes, and a value DeepEval refuses, in one line."""
    if value is None:
        return
    mode = str(value).strip().lower()
    if mode == "llm":
        return
    if mode in EVAL_MODES:
        raise ConfigError(
            f"eval_mode={value!r} has DeepEval's System One model (Jev) make the metric's "
            "decisions; faithpipe's judge makes them all, as with DeepEval's default "
            "eval_mode='llm': leave eval_mode out (the offline judges are the fast path)"
        )
    raise ConfigError(f"eval_mode={value!r} is not one of DeepEval's: {', '.join(EVAL_MODES)}")


@dataclass
class LLMTestCase:
    """One logged exchange: what was asked, what the bot said, what it read."""

    input: str
    actual_output: str | None = None  # None, as in DeepEval: a missing answer (invalid)
    # None (not given) as DeepEval's default: missing to skip_on_missing_params; [] is given
    retrieval_context: list[str] | None = None
    case_id: str = "case"
    name: str | None = None
    expected_output: str | None = None
    context: list[str] | None = None
    # DeepEval's other optional fields: taken so a DeepEval script runs unchanged, not read.
    additional_metadata: dict[str, Any] | None = None
    metadata: dict[str, Any] | None = None
    comments: str | None = None
    tags: list[str] | None = None
    tools_called: list[Any] | None = None
    expected_tools: list[Any] | None = None
    token_cost: float | None = None
    completion_time: float | None = None
    flaky: bool = False
    multimodal: bool = False
    mcp_servers: list[Any] | None = None
    mcp_tools_called: list[Any] | None = None
    mcp_resources_called: list[Any] | None = None
    mcp_prompts_called: list[Any] | None = None
    custom_column_key_values: dict[str, str] | None = None

    def __post_init__(self) -> None:
        check_case_fields(self)  # `input` is not read: None (a file without it) is fine


def case_id_of(case: object) -> str:
    """A test case's id as text: ours, or "case" for a DeepEval test case, which has none."""
    given = getattr(case, "case_id", None)
    return "case" if given is None else str(given)


def check_case_fields(case: object) -> None:
    """Refuse a test case (ours or DeepEval's) whose answer is not a string (None is a
    missing answer: the case is `invalid`) or whose retrieval_context is not a list of
    strings, with one TypeError that says so, before anything is scored."""
    if not hasattr(case, "actual_output"):
        raise TypeError(
            f"a test case has actual_output and retrieval_context, got {type(case).__name__}"
        )
    answer = case.actual_output
    if answer is not None and not isinstance(answer, str):
        raise TypeError(f"actual_output must be a string, got {type(answer).__name__}")
    check_passages(getattr(case, "retrieval_context", None))


def check_passages(passages: object) -> None:
    """One string is not a list of passages, at every entry point (docs/conversations.md):
    the pipeline quarantines it, the SQL functions refuse it, and here it is a TypeError;
    so is a passage that is not a string (None is a blank passage)."""
    if passages is None:
        return
    if isinstance(passages, str) or not isinstance(passages, list | tuple):
        raise TypeError(
            f"retrieval_context must be a list of passages, got {type(passages).__name__}: "
            "wrap one passage as [text] (the pipeline quarantines it as "
            "retrieval_context_not_a_list_of_strings)"
        )
    odd = next((p for p in passages if p is not None and not isinstance(p, str)), None)
    if odd is not None:
        raise TypeError(
            "retrieval_context must be a list of strings, got a passage of type "
            f"{type(odd).__name__}"
        )


T = TypeVar("T")
# a remembered case: the judge's identity, the settings, the answer and the passages
MemoKey = tuple[JudgeIdentity, MetricConfig, str | None, tuple[str, ...]]


class _Setting(Generic[T]):
    """A FaithfulnessMetric attribute that is its MetricConfig's field of the same name:
    read from the config, set by making a new one (FaithfulnessMetric._configure)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, metric: FaithfulnessMetric | None, owner: type | None = None) -> T:
        if metric is None:  # on the class: the descriptor itself, as a property is
            return self  # type: ignore[return-value]
        return getattr(metric.config, self.name)

    def __set__(self, metric: FaithfulnessMetric, value: T) -> None:
        metric._configure(**{self.name: value})


class _Flag:
    """A FaithfulnessMetric True-or-False attribute outside the config (`async_mode`,
    `verbose_mode`, `flaky`), checked when set as the config's are: flaky="False" made a
    failing case pass its test, as a flaky metric never decides its test case's success."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, metric: FaithfulnessMetric | None, owner: type | None = None) -> bool:
        if metric is None:
            return self  # type: ignore[return-value]
        return bool(metric.__dict__[f"_{self.name}"])

    def __set__(self, metric: FaithfulnessMetric, value: bool) -> None:
        metric.__dict__[f"_{self.name}"] = check_flag(value, self.name)


class FaithfulnessMetric:
    """DeepEval-shaped faithfulness metric: `measure(case)` scores one case.

    `model` is the judge: a faith_udfs judge (by default the offline GroundedJudge), a
    DeepEvalBaseLLM-shaped object, or a model name (with `flows` imported). It runs the batch
    path (`score_cases`) with a batch of one, so both always agree.
    """

    def __init__(  # noqa: PLR0917 - DeepEval 4's positional order
        self,
        threshold: float = 0.5,
        model: Any = None,
        system_one_model: Any = None,
        eval_mode: Any = None,
        include_reason: bool = True,
        async_mode: bool = True,
        strict_mode: bool = False,
        verbose_mode: bool = False,
        truths_extraction_limit: int | None = None,
        penalize_ambiguous_claims: bool = False,
        flaky: bool = False,
        evaluation_template: Any = None,
        *,
        max_sentence_pairs: int | None = DEFAULT_MAX_SENTENCE_PAIRS,
    ) -> None:
        check_eval_mode(eval_mode)
        if system_one_model is not None:
            raise ConfigError(SYSTEM_ONE_REFUSED)
        if not isinstance(threshold, int | float) and (
            is_judge(threshold) or is_deepeval_model(threshold)
        ):
            # faithpipe's older order, FaithfulnessMetric(judge, threshold)
            threshold, model = (model if isinstance(model, int | float) else 0.5), threshold
        self._memo: OrderedDict[MemoKey, CaseResult] = OrderedDict()
        self.evaluation_template = evaluation_template
        self.model = model  # with a template, a DeepEval-shaped model only (templated_judge)
        self.config = MetricConfig(
            threshold=threshold,
            penalize_ambiguous_claims=penalize_ambiguous_claims,
            strict_mode=strict_mode,
            include_reason=include_reason,
            truths_extraction_limit=truths_extraction_limit,
        )
        self.async_mode, self.verbose_mode, self.flaky = async_mode, verbose_mode, flaky
        # a case's answer sentences times its context sentences, at most (None: no limit);
        # checked again where it is used, as the attribute may be set later
        self.max_sentence_pairs = checked_limit(max_sentence_pairs)
        self.using_native_model = False
        self._reset()

    @property
    def model(self) -> Judge:
        """The judge (settable, as in DeepEval)."""
        return self._model

    @model.setter
    def model(self, model: Any) -> None:
        """A new judge, taken as at construction (with a template, a DeepEval-shaped model
        only); `evaluation_model` names it, and the scores remembered from the old one are
        forgotten (they were returned for the new one)."""
        if self.evaluation_template is not None and not isinstance(model, DeepEvalModelJudge):
            model = templated_judge(model, self.evaluation_template)
        self._model: Judge = GroundedJudge() if model is None else judge_of(model)
        self.evaluation_model = self._model.identity.model
        self._memo.clear()

    # DeepEval's settings as attributes, settable as there: a change makes a new config (its
    # checks run again) and forgets the scores remembered under the old one.
    strict_mode = _Setting[bool]()
    include_reason = _Setting[bool]()
    async_mode, verbose_mode, flaky = _Flag(), _Flag(), _Flag()
    penalize_ambiguous_claims = _Setting[bool]()
    truths_extraction_limit = _Setting[int | None]()

    @property
    def threshold(self) -> float:  # 1 in strict mode, as in DeepEval
        return self.config.effective_threshold

    @threshold.setter
    def threshold(self, value: float) -> None:
        self._configure(threshold=value)

    def _configure(self, **settings: Any) -> None:
        self.config = replace(self.config, **settings)
        self._memo.clear()

    @property
    def __name__(self) -> str:  # DeepEval names a metric by its class's `__name__`
        return "Faithfulness"

    def _reset(self) -> None:
        self.score: float | None = None
        self.reason: str | None = None
        self.success: bool | None = None
        self.status: str | None = None
        self.error: str | None = None
        self.no_claims: bool = False
        self.truths: list[str] = []
        self.claims: list[str] = []
        self.verdicts: list[FaithfulnessVerdict] = []
        self.score_breakdown: dict[str, object] = {}
        self.verbose_logs: str | None = None
        self.input_tokens, self.output_tokens = 0, 0
        self.evaluation_cost: float | None = None
        self._frames: FaithfulnessFrames | None = None
        # what the one-case path scored (case id, answer, passages, judge, config, limit), kept
        # as it was: a setting changed or the case edited since must not change its frames
        self._frames_of: tuple[Any, ...] | None = None

    @property
    def frames(self) -> FaithfulnessFrames | None:
        """The batch path's frames of the last case measured anew (None when it was answered
        from memory); made on first use when the one-case path scored it."""
        if self._frames is None and self._frames_of is not None:
            snapshot, self._frames_of = self._frames_of, None
            case_id, answer, contexts, model, config, limit = snapshot
            frame = cases_frame([case_id], [answer], [list(contexts)])
            self._frames = score_cases(frame, model, config, max_sentence_pairs=limit)
        return self._frames

    @staticmethod
    def _case_frame(case: LLMTestCase) -> Any:
        contexts = list(case.retrieval_context or ())
        return cases_frame([case_id_of(case)], [case.actual_output], [contexts])

    def measure(self, test_case: LLMTestCase, *_: Any, **__: Any) -> float | None:
        """Score one case; returns the score (None when the case is invalid or pending).
        Raises TooManySentencePairs, judging nothing, when the case's answer sentences times
        context sentences pass `max_sentence_pairs`."""
        check_case_fields(test_case)  # a DeepEval test case is not checked when it is built
        self._reset()
        contexts = tuple(test_case.retrieval_context or ())
        check_sentence_pairs(test_case.actual_output, list(contexts), self.max_sentence_pairs)
        model, config, answer = self.model, self.config, test_case.actual_output
        # the judge and settings are part of the key: a copy of the metric (copy.copy) shares
        # the memo, and a copy set stricter answered the original with its own results
        key = (model.identity, config, answer, contexts)
        result = self._memo.get(key) if self._memoised else None
        if result is not None:
            # threads share the memo (a_measure, a copy.copy): another may have dropped the
            # case since it was found; the result in hand is this case's all the same
            with suppress(KeyError):
                self._memo.move_to_end(key)
            self.apply(result)
            return result.score  # this case's, whatever another thread applied since
        if self._memoised:
            # the offline judges' rules in plain Python: the batch path's result, ~50x cheaper
            # imported here: the twin compiles ~0.3 s of regexes that `faith` never runs
            from faith_udfs.one_case import one_case_result

            case_id = case_id_of(test_case)
            result = one_case_result(model, config, case_id, answer, list(contexts))
            scored = (case_id, answer, contexts, model, config, self.max_sentence_pairs)
            self._frames_of = scored if result is not None else None
        if result is None:
            spent = judge_tokens(model)
            frames = score_cases(
                self._case_frame(test_case),
                model,
                config,
                max_sentence_pairs=self.max_sentence_pairs,
            )
            # this case's frames, not the attribute: a thread sharing the metric may have set
            # it to its own since (both cases are named "case")
            self._frames = frames
            result = case_results(frames)[case_id_of(test_case)]
            after = judge_tokens(model)
            self.input_tokens, self.output_tokens = (
                a - b for a, b in zip(after, spent, strict=True)
            )
        small = len(answer or "") + sum(len(c or "") for c in contexts) <= MEMO_CASE_CHARS
        if self._memoised and result.status == "scored" and small:
            self._memo[key] = result
            if len(self._memo) > MEMO_SIZE:
                with suppress(KeyError):  # another thread emptied it since (a setting changed)
                    self._memo.popitem(last=False)
        self.apply(result)
        return result.score

    async def a_measure(self, test_case: LLMTestCase, *args: Any, **kwargs: Any) -> float | None:
        """`measure` without blocking the event loop (the judge answers in a worker thread).
        Cancelled (a timeout, Ctrl-C), its worker gives up the calls it waits for, where it
        went on waiting for each to its deadline, and asyncio.run's exit waited for it."""
        stop = threading.Event()
        measured = functools.partial(self.measure, test_case, *args, **kwargs)
        try:
            return await asyncio.to_thread(stopped_by, stop, measured)
        except BaseException:
            stop.set()
            raise

    def apply(self, result: CaseResult) -> None:
        """Take one case's result as this metric's state, as DeepEval's metric keeps it."""
        self.score, self.success, self.reason = result.score, result.success, result.reason
        self.status, self.error, self.no_claims = result.status, result.error, result.no_claims
        self.truths, self.claims = list(result.truths), list(result.claims)
        self.verdicts = list(result.verdicts)
        self.score_breakdown = result.score_breakdown
        self.verbose_logs = verbose_logs(result, self.config.truths_extraction_limit)
        if self.verbose_mode:
            sys.stdout.write(self.verbose_logs + "\n")

    @property
    def _memoised(self) -> bool:
        return self.model.identity.kind in OFFLINE_KINDS

    def is_successful(self) -> bool:
        """Whether the last measured case's score reaches the threshold as it is now (False
        when invalid or pending); as DeepEval's, it reads the threshold again, so a script
        that sets `metric.threshold` after `measure` is not answered for the old one."""
        if self.score is None or self.error is not None:
            return False
        passed = self.score >= self.threshold
        self.success = passed
        return passed

    def __repr__(self) -> str:
        return f"FaithfulnessMetric(model={self.model!r}, config={self.config!r})"


def judge_tokens(judge: Judge) -> tuple[int, int]:
    """Prompt and completion tokens the judge spent so far (0 for judges that call nothing)."""
    usage = getattr(judge, "usage", None)
    spent = usage() if callable(usage) else {}
    return int(spent.get("prompt_tokens", 0)), int(spent.get("completion_tokens", 0))
