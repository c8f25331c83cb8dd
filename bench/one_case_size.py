"""Bench (not a test): where `measure()`'s one-case path stops paying, by the size of a case.

    python bench/one_case_size.py [--claims 1,5,20] [--chars 5000,20000,50000,100000,200000]
        [--passage-chars 2000]

For answers of CLAIMS sentences against contexts of CHARS characters (generated ASCII words, in
passages of PASSAGE_CHARS characters, none repeated), prints the CPU milliseconds of the
one-case path (plain Python, faith_udfs/one_case.py) and of the batch path on a batch of one
(score_cases), and their ratio: the one-case path costs about a microsecond a character of
context, the batch path a fixed ~100-150 ms, so a case past one_case.ONE_CASE_CHARS goes to
the batch path. `--claims 20 --chars 2800000 --passage-chars 140` is a 20-sentence answer
against 20,000 short passages, the case that took 5.9 s in measure() before the bound.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from common import table

from faith_udfs import GroundedJudge, MetricConfig, one_case, score_cases
from faith_udfs.case_results import cases_frame


def one_case_ms(answer: str, context: list[str]) -> float:
    """CPU ms of the one-case path on a case of any size (its size bound lifted meanwhile)."""
    bound, one_case.ONE_CASE_CHARS = one_case.ONE_CASE_CHARS, sys.maxsize
    try:
        started = time.process_time()
        assert one_case.one_case_result(GroundedJudge(), MetricConfig(), "x", answer, context)
        return (time.process_time() - started) * 1000
    finally:
        one_case.ONE_CASE_CHARS = bound


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--claims", default="1,5,20")
    parser.add_argument("--chars", default="5000,20000,50000,100000,200000")
    parser.add_argument("--passage-chars", type=int, default=2000)
    args = parser.parse_args()
    rng = random.Random(0)
    vocabulary = ["".join(rng.choice("abcdefghijklmnop") for _ in range(rng.randint(3, 9)))
                  for _ in range(5000)]  # fmt: skip
    sizes = [int(c) for c in args.chars.split(",")]
    words = max(sizes) // 5 + 1_000  # words of 3-9 letters and a space: enough text, no repeat
    text = " ".join(rng.choice(vocabulary) + ("." if i % 15 == 14 else "") for i in range(words))
    one_case_ms("Warm up.", [text[:2000]])
    rows = []
    for claims in (int(c) for c in args.claims.split(",")):
        sentence = lambda: " ".join(rng.choice(vocabulary) for _ in range(14)) + "."  # noqa: E731
        answer = " ".join(sentence() for _ in range(claims))
        for chars in sizes:
            step = args.passage_chars
            context = [text[i : i + step] for i in range(0, chars, step)]
            one = one_case_ms(answer, context)
            started = time.process_time()
            score_cases(cases_frame(["x"], [answer], [context]), GroundedJudge(), MetricConfig())
            batch = (time.process_time() - started) * 1000
            ratio = f"{one / batch:.2f}"
            rows.append({"claims": claims, "chars": chars, "one-case ms": f"{one:.1f}",
                         "batch ms": f"{batch:.1f}", "one / batch": ratio})  # fmt: skip
    print(table(rows, ["claims", "chars", "one-case ms", "batch ms", "one / batch"]))
    print(
        f"one_case.ONE_CASE_CHARS = {one_case.ONE_CASE_CHARS:,}: larger cases take the batch path"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
