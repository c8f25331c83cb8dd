"""Bench (not a test): the negation rule of the grounded judge v6, read against the dev sets'
labels and tried two ways (2026-12-05, issue 20; docs/judge-quality.md).

    python bench/v6_trials.py [--devsets DIR]

A claim whose best sentence covers CONTRADICTION_COVERAGE of it with the other polarity keeps
half its support. Polarity is whether a negation ("not", "never", "without", ...) is anywhere
in the claim, against anywhere in that sentence: "it is not clear why" at the end of a long
sentence contradicts a claim that copies its first half. First, per set with sentence labels
(SALAD, QAGS), how often the claims so halved are labelled supported, against all claims
compared there; then, each refitted (bench/fit_grounded.py's fit) and held out twice (5 folds
by document; each set held out in turn):

- the negation never a contradiction (its feature kept);
- a negation counted only when in scope: one of the `window` content words after it is in the
  other side (the claim's negation scoping a word of the best sentence, or the sentence's a
  word of the claim), for windows of 1, 2 and 3 words.

Absent dev sets: says so and exits 0.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from common import table
from devsets import DEVSETS, SETS
from fit_grounded import NAMES, claim_rows
from v4_trials import _rows

from faith_udfs.grounded_features import CONTRADICTION_COVERAGE
from faith_udfs.grounded_words import GROUNDED_STOP_WORDS, NEGATIONS
from faith_udfs.grounded_words import word_stem as stem
from faith_udfs.words import WORD_PATTERN

_WORD = re.compile(WORD_PATTERN)
_NOT = re.compile(r"(?i)n['’]t\b")
_NEGATION_STEMS = frozenset(stem(word) for word in NEGATIONS)
WINDOWS = (1, 2, 3)


def content_stems(text: str) -> list[str]:
    """The text's content words in order, stemmed as the judge stems them ("n't" is "not")."""
    words = _WORD.findall(_NOT.sub(" not", text).lower())
    return [stem(word) for word in words if word not in GROUNDED_STOP_WORDS]


def scoped(words: list[str], window: int) -> set[str]:
    """The words within `window` content words after each negation of `words`."""
    return {
        word
        for i, negation in enumerate(words)
        if negation in _NEGATION_STEMS
        for word in words[i + 1 : i + 1 + window]
        if word not in _NEGATION_STEMS
    }


def negation_in_scope(claim: str, sentence: str, window: int) -> bool:
    """Whether exactly one side negates a word the other side holds."""
    said, source = content_stems(claim), content_stems(sentence or "")
    claim_negates = bool(scoped(said, window) & set(source))
    sentence_negates = bool(scoped(source, window) & set(said))
    return claim_negates != sentence_negates


def claim_rows_with_evidence(root: Path) -> pl.DataFrame:
    """fit_grounded.claim_rows with each claim's text, its best sentence (`evidence`) and, on
    SALAD and QAGS, its sentence label (`supported`, where the claim is that sentence)."""
    rows = claim_rows(root, keep=("claim_index", "claim", "evidence", "sentences"))
    labelled = pl.col("sentences").list.get(pl.col("claim_index"), null_on_oob=True)
    same = labelled.struct.field("text").str.strip_chars() == pl.col("claim").str.strip_chars()
    return rows.with_columns(supported=pl.when(same).then(labelled.struct.field("supported"))).drop(
        "sentences"
    )


def halved_by_negation() -> pl.Expr:
    """A claim halved for its polarity alone (not for a swapped figure)."""
    return pl.col("contradicted") & (pl.col("negation") > 0) & (pl.col("figure_swapped") == 0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devsets", type=Path, default=DEVSETS)
    args = parser.parse_args()
    if not any((args.devsets / f"{name}_dev.parquet").exists() for name in SETS):
        print(f"no dev set under {args.devsets}: nothing to try")
        return 0
    rows = claim_rows_with_evidence(args.devsets)
    labels = (
        rows.filter(pl.col("supported").is_not_null())
        .group_by("set")
        .agg(
            claims=pl.len(),
            supported=pl.col("supported").mean(),
            halved=halved_by_negation().sum(),
            halved_supported=pl.col("supported").filter(halved_by_negation()).mean(),
        )
        .sort("set")
        .with_columns(pl.selectors.float().round(3))
    )
    print("claims that are their labelled sentence: how many the negation rule halved, and the")
    print("share labelled supported of those and of all\n")
    print(table(labels.to_dicts(), ["set", "claims", "supported", "halved", "halved_supported"]))

    strong = pl.col("cov_best") >= CONTRADICTION_COVERAGE
    swapped = pl.col("figure_swapped") > 0
    results = [
        *_rows("v6 refitted", rows, NAMES),
        *_rows(
            "negation never a contradiction",
            rows.with_columns(contradicted=swapped & strong),
            NAMES,
        ),
    ]
    negated = rows["negation"] > 0
    for window in WINDOWS:
        in_scope = pl.Series(
            [
                bool(n) and negation_in_scope(claim, sentence, window)
                for n, claim, sentence in zip(negated, rows["claim"], rows["evidence"], strict=True)
            ]
        )
        trial = rows.with_columns(
            negation=pl.when(in_scope).then(pl.col("negation")).otherwise(0.0),
            contradicted=(swapped | (in_scope & (pl.col("negation") > 0))) & strong,
        )
        results += _rows(f"negation in scope, {window} words", trial, NAMES)
    present = [s for s in SETS if s in results[0]]
    print("\nbalanced accuracy / ROC AUC (pass rate) of cases held out (cases without claims")
    print("left out)\n")
    print(table(results, ["trial", "held out", *present]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
