"""How far a judge agrees with a labelled golden set: item by item, as a frame (pure)."""

from __future__ import annotations

import polars as pl

__all__ = ["DECISIVE", "compare_verdicts"]

# A claim the golden set expects none for (chit-chat) agrees unless the judge calls it one of these.
DECISIVE = ("yes", "no")


def compare_verdicts(
    golden: pl.DataFrame, case_scores: pl.DataFrame, claim_verdicts: pl.DataFrame
) -> pl.DataFrame:
    """One row an item: each expected verdict against the judge's at the same claim index
    (extra or missing claims disagree); in an answer expected to have no claims, each claim
    the judge found, or one row when it found none. Cases not `scored` never agree."""
    expects_claims = pl.col("expected_verdicts").list.len() > 0
    found = claim_verdicts.select("case_id", "claim_index", "claim", "verdict")
    with_claims = golden.filter(expects_claims)
    expected = (
        with_claims.select(
            "case_id",
            expected="expected_verdicts",
            claim_index=pl.int_ranges(pl.col("expected_verdicts").list.len(), dtype=pl.Int32),
        )
        .explode("expected", "claim_index")
        .join(
            found.join(with_claims, on="case_id", how="semi"),
            on=["case_id", "claim_index"],
            how="full",
            coalesce=True,
        )
    )
    without_claims = golden.filter(~expects_claims).select("case_id")
    found_anyway = found.join(without_claims, on="case_id", how="semi")
    none_found = without_claims.join(found_anyway, on="case_id", how="anti")
    # Only an answer expected to have no claims is read leniently: a claim past the expected
    # ones (expected NULL too) disagrees whatever its verdict; judged `idk` it once agreed.
    chit_chat = pl.lit(True).alias("no_claims_expected")
    items = pl.concat(
        [
            expected.with_columns(no_claims_expected=pl.lit(False)),
            found_anyway.with_columns(chit_chat),
            none_found.with_columns(chit_chat),
        ],
        how="diagonal_relaxed",
    ).join(case_scores.select("case_id", "status"), on="case_id", how="left")
    same = pl.col("verdict") == pl.col("expected")
    undecided = ~pl.col("verdict").is_in(list(DECISIVE)).fill_null(False)
    agreed = pl.when(pl.col("no_claims_expected")).then(undecided).otherwise(same)
    return items.select(
        "case_id",
        pl.col("claim_index").cast(pl.Int32),
        pl.col("claim").cast(pl.String),
        pl.col("expected").cast(pl.String),
        pl.col("verdict").cast(pl.String),
        agreed=(agreed & (pl.col("status") == "scored")).fill_null(False),
    ).sort("case_id", "claim_index", nulls_last=True)
