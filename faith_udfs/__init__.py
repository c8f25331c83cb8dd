"""faithfulness as pure batch functions on polars frames: no I/O, no prefect, no duckdb."""

from faith_udfs.api import FaithfulnessMetric, FaithfulnessVerdict, LLMTestCase
from faith_udfs.calibration import Cutoffs
from faith_udfs.claims import extract_claims
from faith_udfs.config import SCORING_RULES_VERSION, JudgeIdentity, MetricConfig
from faith_udfs.dataset import load_test_cases, register_test_case_loader
from faith_udfs.deepeval_models import DeepEvalModelJudge, VerdictWord, register_model_resolver
from faith_udfs.errors import (
    ConfigError,
    FaithError,
    JudgeBudgetExhausted,
    JudgeError,
    JudgeReplyError,
    JudgeTransientError,
)
from faith_udfs.evaluation import (
    AsyncConfig,
    CacheConfig,
    DisplayConfig,
    ErrorConfig,
    EvaluationError,
    EvaluationResult,
    MetricData,
    TestResult,
    evaluate,
)
from faith_udfs.evaluation_dataset import EvaluationDataset
from faith_udfs.frames import parse_columns, score_frame
from faith_udfs.grounded import GroundedJudge
from faith_udfs.judges import ItemJudge, ItemOutcome, Judge
from faith_udfs.lexical import LexicalJudge
from faith_udfs.metric import FaithfulnessFrames, score_cases
from faith_udfs.prompt_judge import PromptHandlers, PromptJudge
from faith_udfs.prompts import PROMPT_VERSION, section
from faith_udfs.scores import case_scores, score_expr
from faith_udfs.sentence_pairs import DEFAULT_MAX_SENTENCE_PAIRS, TooManySentencePairs
from faith_udfs.truths import extract_truths
from faith_udfs.verdicts import judge_claims

__all__ = [
    "DEFAULT_MAX_SENTENCE_PAIRS",
    "PROMPT_VERSION",
    "SCORING_RULES_VERSION",
    "AsyncConfig",
    "CacheConfig",
    "ConfigError",
    "Cutoffs",
    "DeepEvalModelJudge",
    "DisplayConfig",
    "ErrorConfig",
    "EvaluationDataset",
    "EvaluationError",
    "EvaluationResult",
    "FaithError",
    "FaithfulnessFrames",
    "FaithfulnessMetric",
    "FaithfulnessVerdict",
    "GroundedJudge",
    "ItemJudge",
    "ItemOutcome",
    "Judge",
    "JudgeBudgetExhausted",
    "JudgeError",
    "JudgeIdentity",
    "JudgeReplyError",
    "JudgeTransientError",
    "LLMTestCase",
    "LexicalJudge",
    "MetricConfig",
    "MetricData",
    "PromptHandlers",
    "PromptJudge",
    "TestResult",
    "TooManySentencePairs",
    "VerdictWord",
    "case_scores",
    "evaluate",
    "extract_claims",
    "extract_truths",
    "judge_claims",
    "load_test_cases",
    "parse_columns",
    "register_model_resolver",
    "register_test_case_loader",
    "score_cases",
    "score_expr",
    "score_frame",
    "section",
]
