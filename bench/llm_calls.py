"""Bench (not a test): what the LLM judge pays per case in each mode, and how fast it calls.

    python bench/llm_calls.py [--cases 2000] [--batch-size 500] [--calls 3000]

On generated logs (data/generate.py: passages repeat as in real traffic) scored in batches
against the local stub endpoint (tests/support/openai_stub.py, answering by the lexical rules), it
prints judge calls, prompt and completion tokens per case for each mode, after checking the
case scores equal the lexical judge's; then calls/s with the stub answering instantly in its
own process, so the figure is the judge's own orchestration (target >= 300 calls/s), over
`--calls` less 50 warm-up calls (so `--calls` must be more than 50).
Tokens are the stub's estimate (4 characters a token), like for like across modes.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from flows.allocator import keep_freed_pages  # noqa: E402

keep_freed_pages()  # before polars loads, as the CLI does

import duckdb  # noqa: E402
import polars as pl  # noqa: E402
from common import table, whole_number  # noqa: E402

from data.generate import generate_cases  # noqa: E402
from faith_udfs import Judge, LexicalJudge, MetricConfig, score_cases  # noqa: E402
from faith_udfs.prompts import (  # noqa: E402
    claims_prompt,
    reason_prompt,
    truths_prompt,
    verdicts_prompt,
)
from flows.judges.live.judge import OpenAIJudge  # noqa: E402
from flows.store.db import open_store  # noqa: E402
from flows.store.reply_cache import ReplyCache  # noqa: E402
from tests.support.llm_judge import openai_judge  # noqa: E402
from tests.support.openai_stub import StubServer  # noqa: E402
from tests.support.seed_judge import sentences  # noqa: E402

COMPARED = ["case_id", "n_claims", "n_yes", "n_no", "n_idk", "score", "success", "status"]
CONFIG = MetricConfig()
# DeepEval's FaithfulnessMetric: truths, claims, verdicts and reason, every case, no reuse.
DEEPEVAL_CALLS_PER_CASE = 4


def per_mode(cases: pl.DataFrame, batch_size: int, stub: StubServer, workdir: Path) -> list[dict]:
    """Score `cases` batch by batch in each mode (fresh cache each); calls and tokens a case."""
    expected = _scores(cases, LexicalJudge(), batch_size)
    rows = [deepeval_reference(cases)]
    for label, options in (
        ("per-item", {"mode": "per-item"}),
        ("packed, 8 a call (default)", {"mode": "packed", "pack_size": 8}),
        ("packed, 16 a call", {"mode": "packed", "pack_size": 16}),
        ("packed 8 + --llm-reason", {"mode": "packed", "pack_size": 8, "llm_reason": True}),
    ):
        stub.reset_counts()
        with open_store(workdir / f"{label.split()[0]}-{len(rows)}.duckdb") as con:
            with ReplyCache(con) as cache, _judge(stub, cache=cache, **options) as judge:
                started = time.perf_counter()
                got = _scores(cases, judge, batch_size)
                seconds = time.perf_counter() - started
                usage = judge.usage()
            rerun_requests = _rerun_requests(cases, stub, con, batch_size, options)
        same = got.select(COMPARED).equals(expected.select(COMPARED))
        n = cases.height
        rows.append(
            {
                "mode": label,
                "calls/case": f"{usage['calls'] / n:.3f}",
                "prompt tok/case": f"{usage['prompt_tokens'] / n:.0f}",
                "completion tok/case": f"{usage['completion_tokens'] / n:.0f}",
                "cache hits": usage["cached"],
                "seconds": f"{seconds:.1f}",
                "same scores as lexical": "yes" if same else "NO",
                "re-run requests": rerun_requests,
            }
        )
    return rows


def deepeval_reference(cases: pl.DataFrame) -> dict:
    """DeepEval's call structure priced with our templates: per case, truths of the whole
    context, claims, verdicts and a reason, nothing shared (tokens: 4 characters each)."""
    prompt = completion = 0
    for answer, context in cases.select("actual_output", "retrieval_context").iter_rows():
        text = "\n\n".join(context)
        truths, claims = sentences(text), sentences(answer)
        verdicts = [{"claim": i + 1, "verdict": "yes", "reason": ""} for i in range(len(claims))]
        prompt += len(truths_prompt(text, None)) + len(claims_prompt(answer))
        prompt += len(verdicts_prompt(claims, truths)) + len(reason_prompt(1.0, []))
        replies = ({"truths": truths}, {"claims": claims}, {"verdicts": verdicts}, {"reason": ""})
        completion += sum(len(json.dumps(reply)) for reply in replies)
    n = cases.height
    return {
        "mode": "deepeval structure (estimate)",
        "calls/case": f"{DEEPEVAL_CALLS_PER_CASE:.2f}",
        "prompt tok/case": f"{prompt / 4 / n:.0f}",
        "completion tok/case": f"{completion / 4 / n:.0f}",
    }


WARM_UP = 50  # calls before the calls/s figure's clock starts


def throughput(calls: int, concurrency: list[int]) -> list[dict]:
    """Calls/s of per-item truths with the stub answering instantly: in its own process
    (the judge's orchestration alone), and in this process (both sharing the GIL)."""
    rows = []
    texts = [f"Passage {i} says order Q{i} ships on day {i % 28 + 1}." for i in range(calls)]
    items = pl.DataFrame({"key": pl.Series(range(calls), dtype=pl.UInt64), "text": texts})
    with _stub_process() as base_url:
        for n in concurrency:
            rows.append(_measure("stub in its own process", base_url, items, n, cache=False))
        rows.append(
            _measure("stub in its own process, + cache", base_url, items, concurrency[0], True)
        )
    with StubServer() as stub:
        rows.append(_measure("stub in this process", stub.base_url, items, concurrency[0], False))
    return rows


def _measure(where: str, base_url: str, items: pl.DataFrame, n: int, cache: bool) -> dict:
    with tempfile.TemporaryDirectory() as tmp, open_store(Path(tmp) / "c.duckdb") as con:
        store = ReplyCache(con) if cache else None
        judge = openai_judge("stub", base_url=base_url, mode="per-item", concurrency=n, cache=store)
        with judge:
            judge.truths(items.head(WARM_UP), None)  # warm the connections
            started = time.perf_counter()
            answer = judge.truths(items.slice(WARM_UP), None)
            seconds = time.perf_counter() - started
            calls = judge.usage()["calls"] - WARM_UP
        if store is not None:
            store.close()
    assert answer["error"].null_count() == answer.height, "the stub failed calls"
    return {
        "setup": where,
        "concurrency": n,
        "calls": calls,
        "calls/s": f"{calls / seconds:.0f}",
        "ms a call": f"{1000 * seconds / calls:.2f}",
    }


def _scores(cases: pl.DataFrame, judge: Judge, batch_size: int) -> pl.DataFrame:
    frames = [
        score_cases(batch, judge, CONFIG).case_scores for batch in cases.iter_slices(batch_size)
    ]
    return pl.concat(frames).sort("case_id")


def _rerun_requests(
    cases: pl.DataFrame,
    stub: StubServer,
    con: duckdb.DuckDBPyConnection,
    batch_size: int,
    options: dict,
) -> int:
    """HTTP requests of a second identical run on the same cache (should be 0)."""
    stub.reset_counts()
    with ReplyCache(con) as cache, _judge(stub, cache=cache, **options) as judge:
        _scores(cases, judge, batch_size)
    return stub.requests


def _judge(stub: StubServer, **options: Any) -> OpenAIJudge:
    return openai_judge("stub", base_url=stub.base_url, concurrency=8, **options)


class _stub_process:  # noqa: N801 - used as a context manager, reads like a function
    """The stub in a child process: yields its base URL, stops it on exit."""

    def __enter__(self) -> str:
        self.child = subprocess.Popen(
            [sys.executable, "-m", "tests.support.openai_stub"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        assert self.child.stdout is not None
        port = int(self.child.stdout.readline().split()[1])
        return f"http://127.0.0.1:{port}/v1"

    def __exit__(self, *exc: object) -> None:
        assert self.child.stdin is not None
        assert self.child.stdout is not None
        self.child.stdin.close()
        self.child.wait(timeout=30)
        self.child.stdout.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=whole_number, default=2000)
    parser.add_argument("--batch-size", type=whole_number, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--calls", type=whole_number, default=3000, help="calls for the calls/s figure"
    )
    args = parser.parse_args()
    if args.calls <= WARM_UP:
        parser.error(f"--calls {args.calls}: must be more than the {WARM_UP} warm-up calls")
    os.environ.setdefault("OPENAI_API_KEY", "sk-bench-not-a-secret")

    cases = generate_cases(args.cases, seed=args.seed).select(
        "case_id", "actual_output", "retrieval_context"
    )
    passages = cases["retrieval_context"].explode().drop_nulls()
    print(
        f"{cases.height:,} generated cases in batches of {args.batch_size}: "
        f"{passages.len():,} passages cited, {passages.n_unique():,} distinct; "
        f"{cases['actual_output'].n_unique():,} distinct answers; {os.cpu_count()} cores\n"
    )
    with tempfile.TemporaryDirectory() as tmp, StubServer() as stub:
        rows = per_mode(cases, args.batch_size, stub, Path(tmp))
    columns = [
        "mode",
        "calls/case",
        "prompt tok/case",
        "completion tok/case",
        "cache hits",
        "seconds",
        "same scores as lexical",
        "re-run requests",
    ]
    print(table(rows, columns))
    print()
    columns = ["setup", "concurrency", "calls", "calls/s", "ms a call"]
    print(table(throughput(args.calls, [8, 16]), columns))


if __name__ == "__main__":
    main()
