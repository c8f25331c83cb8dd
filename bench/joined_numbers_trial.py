"""Bench (not a test): grounded-v9 against one candidate for a next rules version, on every dev
set (2026-12-06, issue 20; docs/judge-quality.md, v9).

    python bench/joined_numbers_trial.py [--devsets DIR]     # ~5 minutes

v9 reads "1,000" as the number 1000 but leaves a comma and a space alone ("codes 401, 403" is
two numbers). QAGS's CNN/DM articles are tokenised with a space after every comma ("235,
000"), so a summary's "235,000" (1000 under v9) finds no number there: QAGS's ROC AUC fell
0.012 from v8, and its calibrated balanced accuracy with it. The candidate reads a context
sentence's "235, 000" as the words "235" and "000" (as v9) *and* the number 235000: the
context's side only, so a claim's "codes 401 and 403" still needs both numbers. Prints
per set, both judges: balanced accuracy, ROC AUC, and claim-level agreement and balanced
accuracy where a set has sentence labels. Absent dev sets: says so and exits 0.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from common import table
from devsets import DEVSETS
from judge_quality import case_figures, claim_figures, labelled_scores, score_devsets

import faith_udfs.grounded_features as features
from faith_udfs import GroundedJudge

# a number of the context written with a comma and a space between groups of three
_SPACED_THOUSANDS = r"\b\d{1,3}(?:, \d{3})+\b"


@contextmanager
def joined_context_numbers() -> Iterator[None]:
    """claim_features with each context sentence's spaced number also read whole."""
    tokens = features._tokens

    def with_joined(texts: pl.DataFrame, text: str, **options: Any) -> pl.DataFrame:
        if text == "truth":
            whole = (
                pl.col(text)
                .str.extract_all(_SPACED_THOUSANDS)
                .list.eval(pl.element().str.replace_all(", ", "", literal=True))
                .list.join(" ")
            )
            texts = texts.with_columns(pl.concat_str([pl.col(text), whole], separator=" "))
        return tokens(texts, text, **options)

    features._tokens = with_joined  # type: ignore[assignment]
    try:
        yield
    finally:
        features._tokens = tokens  # type: ignore[assignment]


class JoinedNumbersJudge(GroundedJudge):
    """grounded-v9, its contexts' spaced numbers also read whole (the candidate)."""

    def verdicts(self, questions: pl.DataFrame) -> pl.DataFrame:
        with joined_context_numbers():
            return super().verdicts(questions)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devsets", type=Path, default=DEVSETS)
    args = parser.parse_args()
    judges = {"v9": GroundedJudge(), "v9 + joined": JoinedNumbersJudge()}
    scored = score_devsets(judges, args.devsets)  # type: ignore[arg-type]
    if scored is None:
        print(f"no dev set under {args.devsets}: nothing to measure (see ../shared/devsets)")
        return 0
    cases, scores, verdicts = scored
    figures = case_figures(labelled_scores(cases, scores)).filter(pl.col("part") == "(all)")
    rounded = pl.selectors.float().round(3)
    print(table(figures.with_columns(rounded).to_dicts(), ["judge", "set", "bal_acc", "auc"]))
    claims = claim_figures(verdicts, cases).with_columns(rounded)
    if not claims.is_empty():
        print()
        print(table(claims.to_dicts(), ["judge", "set", "agreement", "bal_acc"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
