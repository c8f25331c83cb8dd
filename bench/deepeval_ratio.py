"""Bench (not a test): faithpipe's throughput against DeepEval's own `evaluate()` in the same run.

    pip install deepeval   # not a dependency of faithpipe; without it this prints so, exit 0
    python bench/deepeval_ratio.py [--shape support,rag,repetitive,chat] [--rows 1000000]
        [--sample 1000]

For each shape (bench/shapes.py): DeepEval's `evaluate()` with its `FaithfulnessMetric` over the
first `--sample` cases of the generated source, its judge a local deterministic model (a
`DeepEvalBaseLLM` answering every prompt from rules: truths and claims are the sentences of
the text it is given, a claim is "yes" when every word of it is in the passages; no network,
DeepEval's telemetry off); then whole-process `faith score --prefect no` of the full source.
Prints both throughputs and faithpipe's ratio (target: at least 300x). DeepEval's time is its
`evaluate()` call alone (its import and start-up left out); faithpipe's is the whole process.
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import json
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import OUT, generated_cases, table, whole_number
from pipeline import faith_command, quiet
from shapes import SHAPES, shape_names

# DeepEval's telemetry and its other calls home, off before it is imported.
os.environ.update(
    DEEPEVAL_TELEMETRY_OPT_OUT="1",
    DEEPEVAL_GRPC_LOGGING="0",
    ERROR_REPORTING="0",
    CONFIDENT_TRACE_FLUSH="0",
)

_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_WORD = re.compile(r"[a-z0-9]+")


def _between(prompt: str, start: str, end: str = "\n\nJSON:") -> str:
    """The text of `prompt` after its last `start` and before `end`."""
    tail = prompt.rsplit(start, 1)[-1]
    return tail.split(end, 1)[0].strip()


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text) if s.strip()]


def rule_model() -> Any:
    """A DeepEvalBaseLLM whose answers follow rules on the prompt's own text (deterministic)."""
    from deepeval.metrics.faithfulness.schema import (
        Claims,
        FaithfulnessScoreReason,
        FaithfulnessVerdict,
        Truths,
        Verdicts,
    )
    from deepeval.models import DeepEvalBaseLLM

    class RuleModel(DeepEvalBaseLLM):
        def __init__(self) -> None:
            super().__init__(model="rules")

        def load_model(self, *args: Any, **kwargs: Any) -> RuleModel:
            return self

        def get_model_name(self, *args: Any, **kwargs: Any) -> str:
            return "rules"

        def generate(self, prompt: str, schema: Any = None, **kwargs: Any) -> Any:
            if schema is Truths:
                return Truths(truths=_sentences(_between(prompt, "Text:\n")))
            if schema is Claims:
                return Claims(claims=_sentences(_between(prompt, "AI Output:\n")))
            if schema is Verdicts:
                context = set(
                    _WORD.findall(_between(prompt, "Retrieval Contexts:\n", "\n\nClaims:"))
                )
                claims = ast.literal_eval(_between(prompt, "Claims:\n") or "[]")
                return Verdicts(
                    verdicts=[
                        FaithfulnessVerdict(
                            verdict="yes" if set(_WORD.findall(c.lower())) <= context else "no"
                        )
                        for c in claims
                    ]
                )
            if schema is FaithfulnessScoreReason:
                return FaithfulnessScoreReason(reason="scored by rules")
            return json.dumps({})

        async def a_generate(self, prompt: str, schema: Any = None, **kwargs: Any) -> Any:
            return self.generate(prompt, schema=schema, **kwargs)

    return RuleModel()


def deepeval_seconds(source: Path, sample: int) -> tuple[int, float]:
    """DeepEval's evaluate() over the first `sample` cases: (cases, seconds)."""
    import polars as pl
    from deepeval import evaluate
    from deepeval.evaluate import AsyncConfig, DisplayConfig
    from deepeval.metrics import FaithfulnessMetric
    from deepeval.test_case import LLMTestCase

    cases = pl.scan_parquet(source / "**" / "*.parquet").head(sample).collect()
    test_cases = [
        LLMTestCase(input=r["input"], actual_output=r["actual_output"],
                    retrieval_context=list(r["retrieval_context"]))
        for r in cases.iter_rows(named=True)
    ]  # fmt: skip
    metric = FaithfulnessMetric(threshold=0.5, model=rule_model(), include_reason=True)
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as scratch:  # DeepEval writes .deepeval/ where it runs
        os.chdir(scratch)
        try:
            started = time.perf_counter()
            evaluate(
                test_cases,
                [metric],
                async_config=AsyncConfig(run_async=True),
                display_config=DisplayConfig(show_indicator=False, print_results=False),
            )
            seconds = time.perf_counter() - started
        finally:
            os.chdir(here)
    return len(test_cases), seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--shape", type=shape_names, default=",".join(SHAPES), help="comma-separated"
    )
    parser.add_argument("--rows", type=whole_number, default=1_000_000)
    parser.add_argument("--sample", type=whole_number, default=1000)
    args = parser.parse_args()
    try:
        import deepeval  # noqa: F401
    except ImportError:
        print("DeepEval is not installed: pip install deepeval (then run this again)")
        return 0
    asyncio.set_event_loop(asyncio.new_event_loop())
    printed = []
    for shape in args.shape:
        source = generated_cases(args.rows, rows_per_file=100_000, shape=shape).parent
        n, seconds = deepeval_seconds(source, args.sample)
        theirs = n / seconds
        work = OUT / "deepeval-db"
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
        options = argparse.Namespace(judge="grounded", batch_size="default")
        ours = quiet(faith_command(source, work / "faith.duckdb", "no", options))
        mine = args.rows / ours["seconds"]
        printed.append(
            {"shape": shape, "deepeval cases": n, "deepeval s": round(seconds, 2),
             "deepeval cases/s": f"{theirs:,.0f}", "faith cases": f"{args.rows:,}",
             "faith s": ours["seconds"], "faith cases/s": f"{mine:,.0f}",
             "ratio": f"{mine / theirs:,.0f}x"}
        )  # fmt: skip
        print(f"  {shape}: DeepEval {theirs:,.1f} cases/s, faithpipe {mine:,.0f}", flush=True)
    print(table(printed, list(printed[0])))
    print("\nfaithpipe's throughput / DeepEval evaluate()'s, per shape (target: at least 300x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
