"""Bench (not a test): month names read as figures by the grounded judge, a candidate for its
next rules version (2026-12-05, issue 20; docs/judge-quality.md).

    python bench/months_trial.py [--devsets DIR]

grounded-v6 reads a number, an amount and a number word as a figure (a swapped figure halves
a claim's support) but a month as a name: "Invoice INV-2026-7491 for 578.31 euros was issued
on 12 November." against "... was issued on 12 January. ..." is `yes` (support 0.593), every
other word being in the context. With the twelve month names as figures, "12 January" gives
another figure in place of the claim's, and the claim is `no`.

Prints that example's verdict and support both ways, then `bench/judge_quality.py`'s "(all)"
rows of each dev set (balanced accuracy, ROC AUC, pass rate) for v6 as it is and with the
months, each in a process of its own. Absent dev sets: the example alone.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MONTHS = "january february march april may june july august september october november december"
# Run in a child: the month names patched into the three modules that read figures.
CHILD = f"""
import sys
sys.path[:0] = [{str(ROOT / "bench")!r}, {str(ROOT)!r}]
import faith_udfs.grounded_words as words, faith_udfs.grounded_features as features
import faith_udfs.one_case_grounded as one_case
if sys.argv[1] == "months":
    figures = frozenset(words.NUMBER_WORDS | frozenset({MONTHS!r}.split()))
    words.NUMBER_WORDS = features.NUMBER_WORDS = one_case.NUMBER_WORDS = figures
from faith_udfs import FaithfulnessMetric, LLMTestCase
metric = FaithfulnessMetric()
metric.measure(LLMTestCase(
    input="When was the invoice issued?",
    actual_output="Invoice INV-2026-7491 for 578.31 euros was issued on 12 November.",
    retrieval_context=["Invoice INV-2026-7491 for 578.31 euros was issued on 12 January. "
                       "It was paid by card on 8 August."],
))
(verdict,) = metric.verdicts
print(f"example: {{verdict.verdict}} (support {{verdict.support:.3f}})")
if sys.argv[2]:
    import judge_quality
    sys.argv = ["judge_quality.py", "--judges", "grounded", "--devsets", sys.argv[2]]
    judge_quality.main()
"""


def run(variant: str, devsets: str) -> list[str]:
    """The child's example line and the "(all)" rows of judge_quality's table."""
    done = subprocess.run(
        [sys.executable, "-c", CHILD, variant, devsets],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    lines = done.stdout.splitlines()
    return [line for line in lines if line.startswith("example") or "(all)" in line]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devsets", default=str(ROOT.parent / "shared" / "devsets"))
    args = parser.parse_args()
    devsets = args.devsets if Path(args.devsets).is_dir() else ""
    if not devsets:
        print(f"no dev sets at {args.devsets}: the example alone")
    for variant in ("v6", "months"):
        print(f"--- {variant}")
        for line in run(variant, devsets):
            print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
