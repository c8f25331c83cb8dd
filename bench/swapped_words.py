"""Bench (not a test): what one rules version changes against an earlier one (issue 20):
grounded-v11 against v10 by default
(docs/judge-quality.md#v11-a-sentence-that-states-nothing-is-no-claim: a smiley, "...", "Let
me check that for you." or "I can't assist with that." no claim), or
`--versions grounded-v9,grounded-v10`
(docs/judge-quality.md#v10-a-contexts-spaced-number-read-whole: a context's "235, 000" read as
235000 too), or `--versions grounded-v8,grounded-v9`
(docs/judge-quality.md#v9-a-number-as-the-context-writes-it: "1,000" read as "1000", "$5"
and "5%" as "5 dollars" and "5 percent"), or `--versions grounded-v7,grounded-v8`
(docs/judge-quality.md#v8-units-kind-by-kind: a number's units compared kind by kind), or
`--versions grounded-v6,grounded-v7`
(docs/judge-quality.md#v7-dates-units-and-opposites: month and weekday names read as figures,
and a number's unit or one side of an opposite pair ("before" for "after") swapped for the
context's a contradiction).

    python bench/swapped_words.py [--versions OLD,NEW] [--devsets DIR]     # ~10 s; dev sets ~5 min

Prints, for each swap below and the true claims beside them, each version's verdict and
support; then the claims of the bundled sample (data/sample/cases.parquet) whose
verdict the newer changes, each with what it lacks and its best sentence; then, per present
dev set, how many cases' `success` and `score` differ between the two, and each judge's
balanced accuracy and ROC AUC of `score` (bench/judge_quality.py's figures), and the claims
whose verdict changes with their case's label. Absent dev sets: the examples and the sample.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import polars as pl
from devsets import DEVSETS, balanced_accuracy, roc_auc
from judge_quality import score_devsets

from faith_udfs import FaithfulnessMetric, Judge, LLMTestCase, MetricConfig, score_cases
from faith_udfs.errors import ConfigError
from faith_udfs.grounded import grounded_judge

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "sample" / "cases.parquet"

# (answer, context): swaps of a month, a weekday, a month's abbreviation, of units (the last
# two, "per month" for "per year" and dollars for euros, v7 misses and v8 finds: 20 keeps euros,
# 15 a month in common) and of three opposites,
# then claims the context does say, with a month, a weekday, the modal "may" (which v7 leaves a
# word), a unit in other words and "over" that is no comparison; then what v7 gets wrong: the
# same order told the other way round; then what v8 gets wrong: a number or an amount written
# otherwise than the context writes it, and beside them one that differs; then what v9 gets
# wrong: a context's number tokenised with a comma and a space, beside a list written so and
# another number; last, what v10 gets wrong: a chat bot's smiley, trailing dots, an
# announcement of its next step and a bare refusal to help as claims.
EXAMPLES = (
    (
        "Invoice INV-2026-7491 for 578.31 euros was issued on 12 November.",
        "Invoice INV-2026-7491 for 578.31 euros was issued on 12 January. "
        "It was paid by card on 8 August.",
    ),
    (
        "The store is open Monday to Saturday from 9 am to 6 pm.",
        "The store is open Monday to Friday from 9 am to 6 pm. It is closed on public holidays.",
    ),
    (
        "Your refund was issued on Nov 3 and reaches your card within 5 working days.",
        "Your refund was issued on Oct 3 and reaches your card within 5 working days.",
    ),
    (
        "Refunds for order A17 are paid to your card within 5 weeks of the return.",
        "Refunds for order A17 are paid to your card within 5 working days of the return.",
    ),
    (
        "Invoice INV-2026-7491 for 578.31 dollars was issued on 12 January.",
        "Invoice INV-2026-7491 for 578.31 euros was issued on 12 January.",
    ),
    (
        "The premium plan costs 20 euros per month and includes phone support.",
        "The premium plan costs 20 euros per year and includes phone support.",
    ),
    (
        "The basic plan costs 15 dollars a month.",
        "The basic plan costs 15 euros a month, or 150 euros a year.",
    ),
    (
        "Orders placed after 2 pm ship on the same day.",
        "Orders placed before 2 pm ship on the same day. Later orders ship the next day.",
    ),
    (
        "Free shipping applies to orders under 50 euros.",
        "Free shipping applies to orders over 50 euros.",
    ),
    (
        "The Berlin store is closed on Sundays and public holidays.",
        "The Berlin store is open on Sundays and public holidays.",
    ),
    (
        "Our offices close on 1 May for the holiday.",
        "Our offices close on 1 May for the holiday and reopen the next day.",
    ),
    (
        "Support answers within one business day, Monday through Friday.",
        "Our support team answers tickets within one business day. "
        "Support works Monday through Friday, 8:00 to 17:00.",
    ),
    (
        "You may return unworn shoes within 30 days.",
        "Unworn shoes can be returned within 30 days of delivery.",
    ),
    (
        "The basic plan costs 150 euros a year.",
        "The basic plan costs 15 euros a month, or 150 euros a year.",
    ),
    (
        "You can return items within 30 days for a full refund.",
        "We offer a 30-day return window with a full refund.",
    ),
    (
        "Refunds are paid within a week of the return.",
        "Refunds are paid within 7 days of the return.",
    ),
    (
        "We can help you over the phone with your order.",
        "Under the premium plan we help you by phone with your order.",
    ),
    (
        "Payment is taken after the order ships.",
        "The order ships before payment is taken.",
    ),
    ("The TV costs 1,000 dollars.", "The TV costs 1000 dollars and ships in 3 days."),
    ("The fee is 5 dollars per month.", "The fee is $5 a month. Refunds take 5 days."),
    ("Sales rose 5 percent in March.", "Sales rose 5% in March."),
    ("The TV costs 2,000 dollars.", "The TV costs 1,000 dollars and ships in 3 days."),
    (
        "The video was viewed more than 235,000 times.",
        "The video , posted on friday , was viewed more than 235, 000 times .",
    ),
    ("Codes 401 and 403 mean that access was denied.", "Codes 401, 403 mean access was denied."),
    (
        "The video was viewed more than 236,000 times.",
        "The video , posted on friday , was viewed more than 235, 000 times .",
    ),
    ("Your order shipped on 3 March. :)", "Your order shipped on 3 March."),
    ("Your order shipped on 3 March \U0001f60a ...", "Your order shipped on 3 March."),
    ("Let me check that for you. Your order shipped on 3 March.", "Your order shipped on 3 March."),
    ("I'm sorry, but I can't assist with that.", "Your order shipped on 3 March."),
)


def judged(answer: str, context: str, judge: Judge) -> str:
    """`verdict (support)` of each of the answer's claims (most examples have one)."""
    metric = FaithfulnessMetric(model=judge)
    metric.measure(LLMTestCase(input="q", actual_output=answer, retrieval_context=[context]))
    return ", ".join(f"{v.verdict} ({v.support:.3f})" for v in metric.verdicts)


def sample_changes(old: str, new: str) -> pl.DataFrame:
    """The sample's claims whose verdict rules `new` changes against `old`: a column of each
    version's verdict, `claim`, `lacks`, `evidence`."""
    cases = pl.read_parquet(SAMPLE)
    before, after = (
        score_cases(cases, grounded_judge(rules), MetricConfig()).claim_verdicts
        for rules in (old, new)
    )
    return (
        after.join(before, on=["case_id", "claim_index"], suffix="_old")
        .filter(pl.col("verdict") != pl.col("verdict_old"))
        .select(
            pl.col("verdict_old").alias(old),
            pl.col("verdict").alias(new),
            claim="claim",
            lacks=pl.col("context_lacks").list.join(", "),
            evidence="evidence",
        )
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--versions",
        default="grounded-v10,grounded-v11",
        help="the two rules versions to compare, older first (default grounded-v10,grounded-v11)",
    )
    parser.add_argument("--devsets", type=Path, default=DEVSETS)
    args = parser.parse_args(argv)
    versions = [v.strip() for v in args.versions.split(",")]
    if len(versions) != 2:
        parser.error(f"--versions {args.versions}: two rules versions, older first")
    old, new = versions
    for rules in versions:
        try:
            grounded_judge(rules)
        except ConfigError as error:
            parser.error(f"--versions: {error}")
    a, b = old.removeprefix("grounded-"), new.removeprefix("grounded-")
    for answer, context in EXAMPLES:
        before, after = (judged(answer, context, grounded_judge(r)) for r in (old, new))
        print(f"{a} {before:<14} {b} {after:<14} {answer}")
    changed = sample_changes(old, new)
    print(f"\n{SAMPLE.relative_to(ROOT)}: {changed.height} claims whose verdict {b} changes")
    with pl.Config(tbl_rows=-1, fmt_str_lengths=90, tbl_width_chars=250):
        print(changed)
    scored = score_devsets({a: grounded_judge(old), b: grounded_judge(new)}, args.devsets)
    if scored is None:
        print(f"no dev set under {args.devsets}: the examples alone")
        return 0
    cases, scores, verdicts = scored
    wide = (
        scores.pivot("judge", index=["set", "case_id"], values=["score", "success"])
        .join(cases.select("set", "case_id", "faithful"), on=["set", "case_id"])
        .group_by("set", maintain_order=True)
        .agg(
            cases=pl.len(),
            success_differs=(pl.col(f"success_{a}") != pl.col(f"success_{b}")).sum(),
            score_differs=(pl.col(f"score_{a}") != pl.col(f"score_{b}")).sum(),
            **{
                f"{figure}_{judge}": function(pl.col("faithful"), pl.col(f"{column}_{judge}"))
                for judge in (a, b)
                for figure, function, column in (
                    ("bal_acc", balanced_accuracy, "success"),
                    ("auc", roc_auc, "score"),
                )
            },
        )
        .with_columns(pl.selectors.float().round(3))
    )
    print()
    moved = (
        verdicts.pivot("judge", index=["set", "case_id", "claim_index", "claim"], values="verdict")
        .filter(pl.col(a) != pl.col(b))
        .join(cases.select("set", "case_id", "faithful"), on=["set", "case_id"])
        .select("set", "faithful", a, b, claim=pl.col("claim").str.slice(0, 100))
    )
    with pl.Config(
        tbl_rows=-1, tbl_cols=-1, tbl_width_chars=200, tbl_hide_dataframe_shape=True,
        fmt_str_lengths=100,
    ):  # fmt: skip
        print(wide)
        print(
            f"\n{moved.height} dev-set claims whose verdict {b} changes "
            "(faithful: the case's label)"
        )
        print(moved)
    return 0


if __name__ == "__main__":
    sys.exit(main())
