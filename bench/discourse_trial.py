"""Bench (not a test): a trial not kept in grounded-v4. Leading discourse markers
("Additionally, ...", "However, ...", "In summary, ...", "Please note that ...") cut off each
claim too, on top of v4's rules, scored on every dev set against v4 as it ships.

    python bench/discourse_trial.py [--devsets DIR]

Prints per set balanced accuracy of `success`, ROC AUC of `score` and the pass rate next to
the true faithful share, for v4 and for the trial. Absent dev sets are named and skipped.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from common import table
from devsets import DEVSETS, balanced_accuracy, present_devsets, roc_auc

from faith_udfs import GroundedJudge, MetricConfig, score_cases
from faith_udfs.grounded_claims import cited_claims

_ALWAYS = (
    r"additionally|moreover|furthermore|however|in addition|in summary|in conclusion|in short"
    r"|overall|to summari[sz]e|to conclude|to sum up|lastly|last but not least|consequently"
    r"|as a result|for example|for instance|specifically|in particular|importantly|notably"
    r"|interestingly|essentially|basically|in fact|indeed|(?:please )?note that|please note"
    r"|it(?: is|'s|’s) (?:also )?(?:worth noting|important to note|worth mentioning) that"
    r"|keep in mind that"
)
# Words that may begin a claim: cut only before a comma ("First, ..." but "First Avenue").
_BEFORE_A_COMMA = (
    r"also|first(?:ly)?|second(?:ly)?|third(?:ly)?|finally|next|then|therefore|thus|hence|so"
    r"|well|yes|sure|certainly|absolutely|of course|in general|generally"
)
DISCOURSE_PATTERN = rf"(?i)^(?:(?:{_ALWAYS})\b\s*,?|(?:{_BEFORE_A_COMMA})\s*,)\s*"


class DiscourseTrialJudge(GroundedJudge):
    """v4 with each sentence's leading discourse marker cut off before it is judged (the
    sentences cut at ". " only: a trial, not the judge's splitter)."""

    def claims(self, answers: pl.DataFrame) -> pl.DataFrame:
        return cited_claims(
            answers.with_columns(
                text=pl.col("text")
                .str.split(". ")
                .list.eval(pl.element().str.replace(DISCOURSE_PATTERN, ""))
                .list.join(". ")
            )
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devsets", type=Path, default=DEVSETS)
    args = parser.parse_args()
    rows = []
    for name, cases in present_devsets(args.devsets):
        for judge_name, judge in (
            ("v4", GroundedJudge()),
            ("v4 + discourse", DiscourseTrialJudge()),
        ):
            scored = score_cases(cases, judge, MetricConfig()).case_scores.join(
                cases.select("case_id", "faithful"), on="case_id"
            )
            figures = scored.select(
                bal_acc=balanced_accuracy(pl.col("faithful"), pl.col("success")),
                auc=roc_auc(pl.col("faithful"), pl.col("score")),
                pass_rate=pl.col("success").mean(),
                faithful=pl.col("faithful").mean(),
            ).row(0, named=True)
            rows.append(
                {"set": name, "judge": judge_name, **{k: round(v, 3) for k, v in figures.items()}}
            )
    if not rows:
        print(f"no dev set under {args.devsets}: nothing to measure (see ../shared/devsets)")
        return 0
    print(table(rows, ["set", "judge", "bal_acc", "auc", "pass_rate", "faithful"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
