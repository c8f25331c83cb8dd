"""Pure statistics of `faith compare`: a seeded bootstrap of a mean-score difference, and the
verdict sentence. The pass-rate tests (McNemar, Newcombe) are SQL macros (017_comparisons)."""

from __future__ import annotations

import math

import numpy as np
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
    alone. Same seed, same interval; None when a side is empty, or an end is not finite (an
    outside insert's infinite score)."""
    if paired:  # dropping each side's nulls on its own would misalign the pairs
        both = a.is_not_null() & b.is_not_null()
        a, b = a.filter(both), b.filter(both)
    a, b = a.drop_nulls().cast(pl.Float64), b.drop_nulls().cast(pl.Float64)
    if a.is_empty() or b.is_empty():
        return None
    rng = np.random.default_rng(seed)
    with np.errstate(invalid="ignore"):  # inf - inf: NaN, said below as no interval
        if paired:
            means = resampled_means(b - a, reps, rng)
        else:
            means = resampled_means(b, reps, rng) - resampled_means(a, reps, rng)
    tail = (1 - level) / 2
    if np.isnan(means).any():
        return None  # +inf and -inf in one resample (outside inserts' scores): no mean to order
    ordered = np.sort(means)
    low, high = _quantile(ordered, tail), _quantile(ordered, 1 - tail)
    # an infinite end says nothing a reader can use, and is no JSON (--json, `comparisons`)
    return (low, high) if math.isfinite(low) and math.isfinite(high) else None


def _quantile(ordered: np.ndarray, q: float) -> float:
    """The linear-interpolated quantile `q` of sorted values, none NaN. Beside an infinite
    mean (an outside insert's score) it is that infinity, where interpolating gives NaN."""
    at = q * (len(ordered) - 1)
    below, above = ordered[math.floor(at)], ordered[math.ceil(at)]
    share = at - math.floor(at)
    if share == 0 or below == above or math.isinf(below):
        return float(below)
    if math.isinf(above):
        return float(above)
    return float(below + (above - below) * share)


# Draws held at once (8 bytes each): a million resamples of a thousand values take 32 MB.
_DRAWS_AT_ONCE = 2**22
# Cases per distinct value from which a multinomial draw is the cheaper (numpy's costs: about
# even at 20-30 cases a value; 100,000 cases of 1,000 values 0.2 against 1.3 CPU-s a 2,000).
_CASES_PER_VALUE = 32


def resampled_means(values: pl.Series, reps: int, rng: np.random.Generator) -> np.ndarray:
    """The means of `reps` resamples of `values` with replacement, each as long as it. A
    resample's mean depends only on how often each distinct value is drawn, a multinomial
    draw: reps x distinct values of work, not reps x values (case scores take few values: 1M
    cases in milliseconds, where resampling the cases took seconds). Values mostly distinct,
    or not all finite (an infinite one not drawn would make its term 0 x inf), are resampled
    as cases."""
    n = len(values)
    counts = values.rename("value").value_counts(name="n").sort("value")  # an order seeds repeat
    distinct = counts["value"].to_numpy()
    means = np.empty(reps)
    if len(distinct) * _CASES_PER_VALUE <= n and np.isfinite(distinct).all():
        shares = counts["n"].to_numpy() / n
        step = max(_DRAWS_AT_ONCE // len(distinct), 1)
        for start in range(0, reps, step):
            drawn = rng.multinomial(n, shares, size=min(step, reps - start))
            # summed in numpy's own order, not BLAS's (which may differ by CPU): the same seed
            # gives the same interval to the last digit on any machine
            means[start : start + len(drawn)] = (drawn * distinct).sum(axis=1) / n
        return means
    cases = values.to_numpy()
    step = max(_DRAWS_AT_ONCE // n, 1)
    for start in range(0, reps, step):
        drawn = rng.integers(0, n, size=(min(step, reps - start), n))
        means[start : start + len(drawn)] = cases[drawn].mean(axis=1)
    return means


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
