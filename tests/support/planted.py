"""A planted labelled set for calibration tests: one-claim answers whose share of context
words is known, labelled faithful exactly when that share is high (9 or 10 words of 10, not
7).

The default grounded judge (v3) calls all of them `yes` (support 0.659 to 0.849, all above its
0.56), so it passes every case: balanced accuracy 0.5. A support cut-off above the 7-word
answers' support and at most the 9-word ones' (`separating_supports`: 0.659 and 0.771)
separates the labels perfectly."""

from __future__ import annotations

import datetime as dt

import polars as pl

from faith_udfs import GroundedJudge, MetricConfig, score_cases

CONTEXT = [
    "the quiet river runs past green fields near old stone walls where farmers keep brown sheep."
]
_FOUND = "quiet river runs past green fields near old stone walls farmers keep brown sheep".split()
_INVENTED = (
    "purple engines sing loudly under frozen copper towers beside silent glass bridges tonight"
).split()
# Words of the context in each answer (of 10): faithful when 9 or more; half are.
_SHARES = (10, 9, 7, 7)


def planted_cases(n: int = 40) -> pl.DataFrame:
    """n cases in the data contract's wide form, with their `label` (1 faithful, 0 not)."""
    rows = []
    for i in range(n):
        found = _SHARES[i % len(_SHARES)]
        start = i % 5
        invented = 1 + i % 4
        words = _FOUND[start : start + found]  # never past the end: 4 + 10 <= 14
        words += _INVENTED[invented : invented + 10 - found]
        rows.append(
            {
                "case_id": f"p{i:03d}",
                "input": "What is near the river?",
                "actual_output": " ".join(words).capitalize() + ".",
                "retrieval_context": CONTEXT,
                "logged_at": dt.datetime(2026, 11, 1, 9, 0),
                "label": int(found >= 9),
            }
        )
    return pl.DataFrame(rows)


def planted_supports(n: int = 40) -> pl.DataFrame:
    """The default judge's support of each planted case's one claim, with its `label`."""
    cases = planted_cases(n)
    verdicts = score_cases(cases.drop("label"), GroundedJudge(), MetricConfig()).claim_verdicts
    return verdicts.join(cases.select("case_id", "label"), on="case_id").select(
        "case_id", "label", "support"
    )


def separating_supports(n: int = 40) -> tuple[float, float]:
    """The default judge's highest support of an unfaithful planted case and lowest of a
    faithful one: a fitted `supported` cut-off must lie above the first, at most the second."""
    labelled = planted_supports(n)
    unfaithful = labelled.filter(pl.col("label") == 0)["support"].max()
    faithful = labelled.filter(pl.col("label") == 1)["support"].min()
    assert isinstance(unfaithful, float)
    assert isinstance(faithful, float)
    assert unfaithful < faithful  # what the planted set is for
    return unfaithful, faithful
