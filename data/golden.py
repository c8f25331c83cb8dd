"""Write data/golden.parquet: the labelled golden set every nightly run checks its judge on.

Each answer sentence states one fact, so a correct judge finds one claim per sentence and the
expected verdicts (one per claim, in order) are what it must say. Every passage is one
sentence, so `truths_extraction_limit` never cuts one. Run: `python data/golden.py`.
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

import polars as pl

from faith_udfs.scores import score_expr

OUT = Path(__file__).resolve().parent / "golden.parquet"

A17 = ["Order A17 shipped on 3 March by courier."]
REFUNDS = ["Refunds are paid within 5 working days."]
B42 = ["Order B42 was delivered on 12 April."]
SHIPPING = ["Express delivery costs 9 euros.", "Orders over 50 euros ship free."]
STORE = ["The Berlin store opens at 9 am on weekdays.", "The store is closed on Sundays."]
RETURNS = ["Items can be returned within 30 days of delivery.", "Sale items cannot be returned."]
ACCOUNT = ["Passwords must have at least 12 characters.", "Passwords never expire."]
WARRANTY = ["The warranty lasts 2 years."]
FEES = ["There is no fee for returns."]

# (case_id, what it covers, question, context, answer, expected verdicts)
CASES: list[tuple[str, str, str, list[str], str, list[str]]] = [
    # The seed tutorial's three answers (its first acceptance tests).
    ("seed-grounded", "seed", "Where is order A17?", A17,
     "Order A17 shipped on 3 March.", ["yes"]),
    ("seed-invented", "seed", "Where is order A17?", A17,
     "Order A17 shipped on 3 March. It arrives tomorrow.", ["yes", "idk"]),
    ("seed-contradicting", "seed", "Where is order A17?", A17,
     "Order A17 was cancelled. We are sorry.", ["no", "idk"]),
    ("refund-supported", "yes", "How long do refunds take?", REFUNDS,
     "Refunds are paid within 5 working days.", ["yes"]),
    ("refund-not", "negation", "How long do refunds take?", REFUNDS,
     "Refunds are not paid within 5 working days.", ["no"]),
    ("refund-number", "number", "How long do refunds take?", REFUNDS,
     "Refunds are paid within 9 working days.", ["no"]),
    ("refund-unrelated", "idk", "How long do refunds take?", REFUNDS,
     "Refunds are paid within 5 working days. Gift cards expire after a year.", ["yes", "idk"]),
    ("date-supported", "date", "When was order B42 delivered?", B42,
     "Order B42 was delivered on 12 April.", ["yes"]),
    ("date-day", "date", "When was order B42 delivered?", B42,
     "Order B42 was delivered on 14 April.", ["no"]),
    ("date-month", "date", "When was order B42 delivered?", B42,
     "Order B42 was delivered on 12 May.", ["no"]),
    ("date-extra", "idk", "When was order B42 delivered?", B42,
     "Order B42 was delivered on 12 April. The driver left it with a neighbour.", ["yes", "idk"]),
    ("shipping-supported", "number", "What does shipping cost?", SHIPPING,
     "Express delivery costs 9 euros. Orders over 50 euros ship free.", ["yes", "yes"]),
    ("shipping-threshold", "number", "When is shipping free?", SHIPPING,
     "Orders over 40 euros ship free.", ["no"]),
    ("shipping-price", "number", "What does express delivery cost?", SHIPPING,
     "Express delivery costs 12 euros.", ["no"]),
    ("store-supported", "yes", "When is the Berlin store open?", STORE,
     "The Berlin store opens at 9 am on weekdays. The store is closed on Sundays.",
     ["yes", "yes"]),
    ("store-never", "negation", "Is the store open on Sundays?", STORE,
     "The store is never closed on Sundays.", ["no"]),
    ("store-time", "number", "When does the Berlin store open?", STORE,
     "The Berlin store opens at 10 am on weekdays.", ["no"]),
    ("returns-cannot", "negation", "Can I return sale items?", RETURNS,
     "Sale items cannot be returned.", ["yes"]),
    ("returns-days", "number", "How long do I have to return an item?", RETURNS,
     "Items can be returned within 30 days of delivery.", ["yes"]),
    ("account-mixed", "negation", "What are the password rules?", ACCOUNT,
     "Passwords must have at least 12 characters. Passwords expire every 90 days.",
     ["yes", "no"]),
    ("account-number", "number", "How long must a password be?", ACCOUNT,
     "Passwords must have at least 8 characters.", ["no"]),
    # An answer its context shares no word with is off the context's subject: `no` (since
    # grounded-v2; the silent `idk` is an aside in an answer that is grounded, seed-invented).
    ("warranty-silent", "off context", "Are batteries covered?", WARRANTY,
     "Batteries are not covered.", ["no"]),
    ("fees-no", "negation", "Do returns cost anything?", FEES,
     "There is no fee for returns.", ["yes"]),
    ("fees-cost", "negation", "Do returns cost anything?", FEES,
     "Returns cost a fee.", ["no"]),
    ("chitchat-thanks", "no claims", "Thanks!", REFUNDS,
     "Thanks for your patience!", []),
    ("chitchat-greeting", "no claims", "Hello", SHIPPING,
     "Happy to help! Anything else?", []),
    # A paraphrase a correct judge supports; the lexical judge, matching words, says `no`.
    ("date-paraphrase", "paraphrase", "When was order B42 delivered?", B42,
     "Order B42 arrived on 12 April.", ["yes"]),
    # A refusal and a lead-in claim nothing (issue 12); a judge that calls them claims agrees
    # only while it says `idk` of them.
    ("refusal", "no claims", "Do you ship to Mars?", SHIPPING,
     "Unable to answer based on the passages.", []),
    ("lead-in", "no claims", "What are the store hours?", STORE,
     "Here is a summary of the passages:", []),
]  # fmt: skip


def golden_cases() -> pl.DataFrame:
    """The golden set: the wide case columns, `covers`, `expected_verdicts`, `expected_score`."""
    start = dt.datetime(2026, 1, 1, 9, 0)
    rows = [
        {
            "case_id": f"golden-{case_id}",
            "input": question,
            "actual_output": answer,
            "retrieval_context": context,
            "logged_at": start + dt.timedelta(minutes=i),
            "covers": covers,
            "expected_verdicts": verdicts,
        }
        for i, (case_id, covers, question, context, answer, verdicts) in enumerate(CASES)
    ]
    return pl.DataFrame(
        rows,
        schema={
            "case_id": pl.String,
            "input": pl.String,
            "actual_output": pl.String,
            "retrieval_context": pl.List(pl.String),
            "logged_at": pl.Datetime("us"),
            "covers": pl.String,
            "expected_verdicts": pl.List(pl.String),
        },
        orient="row",
    ).with_columns(
        # The score the expected verdicts give under the default metric settings.
        expected_score=score_expr(
            *(pl.col("expected_verdicts").list.count_matches(v) for v in ("yes", "no", "idk")),
            penalize_ambiguous_claims=False,
        )
    )


def main() -> int:
    """Write the golden set, then say how each offline judge agrees with it.

    The expected verdicts are what a correct judge says, whatever its kind: one set for all.
    """
    golden_cases().write_parquet(OUT)
    from faith_udfs import GroundedJudge, LexicalJudge, MetricConfig
    from flows.nightly.nightly_run import check_judge, check_line, read_golden

    print(f"wrote {OUT} ({len(CASES)} cases)")
    for name, judge in (("grounded", GroundedJudge()), ("lexical", LexicalJudge())):
        check = check_judge(read_golden(OUT), judge, MetricConfig(), floor=0.9)
        print(f"{name} judge: {check_line(check.summary())}")
        for item in check.summary()["disagreements"]:
            print(f"  disagrees on {item['case_id']}: {item['claim']!r} expected "
                  f"{item['expected']}, judged {item['verdict']}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
