"""Pure statistics of `faith compare`: a seeded bootstrap of a mean-score difference, and the
verdict sentence. The pass-rate tests (McNemar, Newcombe) are SQL macros (017_comparisons)."""

from __future__ import annotations

import polars as pl

BOOTSTRAP_REPS = 2000
BOOTSTRAP_SEED = 20261201


def bootstrap_mean_diff(
    a: pl.Series,
    b: pl.Series,
    *,
    paired: bool,
    reps: int = BOOTSTRAP_REPS,
    seed: int = BOOTSTRAP_SEED,
    level: float = 0.95,
) -> tuple[float, float] | None:
    """Percentile interval of mean(b) - mean(a): paired resamples cases (b - a per case, `a`
    and `b` aligned, a pair missing either score left out); unpaired resamples each side
    alone. Same seed, same interval; None when a side is empty."""
    if paired:  # dropping each side's nulls on its own would misalign the pairs
        both = a.is_not_null() & b.is_not_null()
        a, b = a.filter(both), b.filter(both)
    a, b = a.drop_nulls().cast(pl.Float64), b.drop_nulls().cast(pl.Float64)
    if a.is_empty() or b.is_empty():
        return None
    means = []
    if paired:
        diffs = b - a
        for rep in range(reps):
            means.append(_mean(diffs.sample(len(diffs), with_replacement=True, seed=seed + rep)))
    else:
        for rep in range(reps):
            one = a.sample(len(a), with_replacement=True, seed=seed + 2 * rep)
            two = b.sample(len(b), with_replacement=True, seed=seed + 2 * rep + 1)
            means.append(_mean(two) - _mean(one))
    ordered = pl.Series(means)
    tail = (1 - level) / 2
    low = ordered.quantile(tail, interpolation="linear")
    high = ordered.quantile(1 - tail, interpolation="linear")
    return float(low or 0.0), float(high or 0.0)


def _mean(series: pl.Series) -> float:
    value = series.mean()
    return float(value) if isinstance(value, int | float) else 0.0


def verdict_line(
    b_label: str,
    diff: float | None,
    *,
    interval: tuple[float | None, float | None],
    p_value: float | None,
    cases: int,
    paired: bool,
) -> str:
    """'2.4.1 passes 1.8 points less, 95% CI [−2.9, −0.7], p = 0.001, 12,412 paired cases'."""
    low, high = interval
    kind = "paired cases" if paired else "unpaired cases (different cases on each side)"
    if diff is None or low is None or high is None:
        return f"{b_label}: nothing to compare ({cases:,} {kind})"
    points = diff * 100
    if round(points, 1) == 0:
        how = "passes as often"
    else:
        how = f"passes {abs(points):.1f} points {'less' if points < 0 else 'more'}"
    p_text = "" if p_value is None else f", p {format_p(p_value)}"
    return (
        f"{b_label} {how}, 95% CI [{signed(low * 100)}, {signed(high * 100)}]"
        f"{p_text}, {cases:,} {kind}"
    )


def format_p(p: float) -> str:
    """'= 0.001', '< 0.001', '= 0.046', '= 0.43': three decimals below 0.1, so a p near 0.05
    reads as it is (0.0455 was '= 0.05', borderline beside an interval that excludes 0)."""
    if p < 0.001:
        return "< 0.001"
    return f"= {p:.3f}" if p < 0.1 else f"= {p:.2f}"


def signed(points: float) -> str:
    """One decimal with a true minus sign: −2.9, 0.7."""
    text = f"{points:.1f}"
    return text.replace("-", "\u2212") if text not in ("-0.0",) else "0.0"
