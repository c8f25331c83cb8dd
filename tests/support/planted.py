"""A planted labelled set for calibration tests: one-claim answers whose share of context
words is known, labelled faithful exactly when that share is high (9 or 10 words of 10).

The default grounded judge (v2) calls all of them `yes` (support 0.645 to 0.841, all above its
0.57), so it passes every case: balanced accuracy 0.5. A support cut-off above 0.7483 (8 words)
and at most 0.7615 (9 words) separates the labels perfectly."""

from __future__ import annotations

import datetime as dt

import polars as pl

CONTEXT = [
    "the quiet river runs past green fields near old stone walls where farmers keep brown sheep."
]
_FOUND = "quiet river runs past green fields near old stone walls farmers keep brown sheep".split()
_INVENTED = (
    "purple engines sing loudly under frozen copper towers beside silent glass bridges tonight"
).split()
# Words of the context in each answer (of 10): faithful when 9 or more.
_SHARES = (10, 9, 8, 7)


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
