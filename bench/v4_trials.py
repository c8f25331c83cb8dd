"""Bench (not a test): three changes tried on the grounded judge v4 (2026-12-04, issue 20),
re-run on the five dev sets so each can be checked again (docs/judge-quality.md).

    python bench/v4_trials.py [--devsets DIR]

- `ans_min_best`: the smallest `cov_best` among the claims of the same answer, a feature of
  every claim of it: an answer's claims fail together when one of its sentences is poorly
  grounded, which is what case labels of "every sentence supported" reward.
- leading interjections: a claim's opening "Yes,", "Yeah", "Ok", "Oh", ... cut off when the
  rest still holds a content word (a reply's "yes" is no fact, yet a word the context lacks).
- weights fitted without SummEdits (scored, never fitted on): the set word evidence cannot
  read (chance level) may pull the weights the other sets need.

Each refits v4's weights and yes cut-off with its change (bench/fit_grounded.py's fit) and
prints, per set, balanced accuracy / ROC AUC of cases held out twice: 5 folds by document,
and each set held out in turn (fitted on the other four). Absent dev sets: says so, exits 0.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from common import table
from devsets import DEVSETS, SETS
from fit_grounded import NAMES, _Recording, claim_rows, figures, held_out

from faith_udfs.grounded_words import GROUNDED_STOP_WORDS

INTERJECTION = r"(?i)^\W*(?:yes|yeah|yep|yup|ok|okay|oh|wow|hmm|um|uh|lol|haha)\b[\s,;:!.-]*"


class _WithoutInterjections(_Recording):
    """The grounded judge, each claim without its opening interjection when the rest still
    holds a content word."""

    def claims(self, answers: pl.DataFrame) -> pl.DataFrame:
        rest = pl.element().str.replace(INTERJECTION, "")
        words = rest.str.to_lowercase().str.extract_all(r"[^\W_]+")
        content = words.list.filter(~pl.element().is_in(list(GROUNDED_STOP_WORDS))).list.len()
        cut = pl.when(content > 0).then(rest).otherwise(pl.element())
        return super().claims(answers).with_columns(pl.col("claims").list.eval(cut))


def with_answer_min(rows: pl.DataFrame) -> pl.DataFrame:
    """`ans_min_best`: the smallest `cov_best` of the answer's claims with content words."""
    weakest = pl.when(pl.col("has_words")).then(pl.col("cov_best")).min().over("set", "case_id")
    return rows.with_columns(ans_min_best=weakest.fill_null(1.0))


def _rows(
    trial: str, rows: pl.DataFrame, names: tuple[str, ...], unfitted: tuple[str, ...] = ()
) -> list[dict[str, str]]:
    out = []
    for split, by_set in (("by document", False), ("by set", True)):
        per_set = figures(held_out(rows, names, by_set=by_set, unfitted=unfitted))
        cells = {
            s: f"{b:.3f} / {a:.3f} ({p:.2f})"
            for s, b, a, p in per_set.select("set", "bal_acc", "auc", "pass_rate").rows()
        }
        out.append({"trial": trial, "held out": split, **cells})
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devsets", type=Path, default=DEVSETS)
    args = parser.parse_args()
    if not any((args.devsets / f"{name}_dev.parquet").exists() for name in SETS):
        print(f"no dev set under {args.devsets}: nothing to try")
        return 0
    plain = with_answer_min(claim_rows(args.devsets))
    cut = with_answer_min(claim_rows(args.devsets, _WithoutInterjections))
    minimum = (*NAMES, "ans_min_best")
    results = [
        *_rows("v4 features, refitted", plain, NAMES),
        *_rows("+ ans_min_best", plain, minimum),
        *_rows("leading interjections cut", cut, NAMES),
        *_rows("both", cut, minimum),
        *_rows("weights fitted without SummEdits", plain, NAMES, unfitted=("summedits",)),
    ]
    present = [s for s in SETS if s in results[0]]
    print("balanced accuracy / ROC AUC (pass rate) of cases held out (cases without claims")
    print("left out)\n")
    print(table(results, ["trial", "held out", *present]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
