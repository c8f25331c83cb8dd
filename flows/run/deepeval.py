"""Coming from DeepEval: one import line for everything, I/O included.

`from flows.run.deepeval import FaithfulnessMetric, LLMTestCase, evaluate, load_test_cases`
(and `EvaluationDataset`, whose file loaders it makes work).
Importing it installs the model-name resolver, so `FaithfulnessMetric(model="gpt-4o-mini")`
means the OpenAI-compatible judge (settings from the environment as the CLI reads them).
"""

from __future__ import annotations

import os

from faith_udfs import (
    AsyncConfig,
    CacheConfig,
    DisplayConfig,
    ErrorConfig,
    EvaluationDataset,
    EvaluationResult,
    FaithfulnessMetric,
    Judge,
    LLMTestCase,
    evaluate,
    register_model_resolver,
    register_test_case_loader,
    score_frame,
)
from flows.judges import JudgeSettings, build_judge
from flows.read.test_cases import load_test_cases

__all__ = [
    "AsyncConfig",
    "CacheConfig",
    "DisplayConfig",
    "ErrorConfig",
    "EvaluationDataset",
    "EvaluationResult",
    "FaithfulnessMetric",
    "LLMTestCase",
    "evaluate",
    "judge_for_model",
    "load_test_cases",
    "score_frame",
]


def judge_for_model(name: str) -> Judge:
    """The OpenAI-compatible judge for a model name, as `faith score --judge openai --model`
    builds it: key from OPENAI_API_KEY; endpoint from OPENAI_BASE_URL when set (as the OpenAI
    client DeepEval uses reads it: a proxy, vLLM, Ollama), else OpenAI's."""
    base_url = os.environ.get("OPENAI_BASE_URL") or None
    return build_judge(JudgeSettings(kind="openai", model=name, base_url=base_url))


register_model_resolver(judge_for_model)
register_test_case_loader(load_test_cases)
