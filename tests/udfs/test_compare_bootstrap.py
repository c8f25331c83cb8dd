"""`faith compare`'s bootstrap of the mean-score difference draws how often each distinct score
is picked (a multinomial) instead of resampling the cases: the same distribution, so its
interval is the one resampling the cases gives, at any number of cases."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from faith_udfs.compare_stats import _quantile, bootstrap_mean_diff, resampled_means

REPS = 4000


def cases_resampled(values: np.ndarray, reps: int, seed: int) -> np.ndarray:
    """The textbook bootstrap: `reps` resamples of the cases, each mean."""
    rng = np.random.default_rng(seed)
    return np.array([rng.choice(values, size=len(values)).mean() for _ in range(reps)])


def interval(means: np.ndarray) -> tuple[float, float]:
    low, high = np.quantile(means, [0.025, 0.975])
    return float(low), float(high)


@pytest.mark.parametrize(
    ("kind", "values"),
    [
        # case scores: a few fractions (the multinomial over 5 distinct values)
        ("scores", np.random.default_rng(1).integers(0, 5, 500) / 4),
        # mostly distinct values: resampled as cases
        ("continuous", np.random.default_rng(2).random(300)),
    ],
)
def test_the_interval_is_the_one_resampling_the_cases_gives(kind: str, values: np.ndarray) -> None:
    drawn = resampled_means(pl.Series(values), REPS, np.random.default_rng(7))
    textbook = cases_resampled(values, REPS, seed=8)
    # Two Monte Carlo estimates of one interval: 4,000 resamples put each end within ~0.001.
    assert interval(drawn) == pytest.approx(interval(textbook), abs=0.006)
    assert drawn.mean() == pytest.approx(values.mean(), abs=0.003)


def test_a_paired_difference_and_two_sides_alone_agree_with_the_textbook() -> None:
    rng = np.random.default_rng(3)
    a = rng.integers(0, 3, 400) / 2
    b = np.clip(a + rng.choice([-0.5, 0.0, 0.0, 0.5], 400), 0.0, 1.0)
    paired = bootstrap_mean_diff(pl.Series(a), pl.Series(b), paired=True, reps=REPS)
    assert paired == pytest.approx(interval(cases_resampled(b - a, REPS, seed=9)), abs=0.006)
    alone = bootstrap_mean_diff(pl.Series(a), pl.Series(b), paired=False, reps=REPS)
    textbook = cases_resampled(b, REPS, seed=10) - cases_resampled(a, REPS, seed=11)
    assert alone == pytest.approx(interval(textbook), abs=0.008)
    assert alone[1] - alone[0] > paired[1] - paired[0]  # pairing removes the cases' spread


def test_the_same_seed_gives_the_same_interval_whatever_the_series_is_called() -> None:
    values = np.random.default_rng(4).integers(0, 4, 200) / 3
    named = [pl.Series(name, values) for name in ("score", "count", "value", "n")]
    found = {bootstrap_mean_diff(s, s.reverse(), paired=False, seed=5) for s in named}
    assert len(found) == 1
    again = bootstrap_mean_diff(named[0], named[0].reverse(), paired=False, seed=6)
    assert again != found.pop()


@pytest.mark.parametrize("n", [1, 3, 10_000])
def test_one_value_throughout_has_no_spread(n: int) -> None:
    same = pl.Series([0.75] * n)
    assert bootstrap_mean_diff(same, same, paired=True) == (0.0, 0.0)
    assert bootstrap_mean_diff(same, same * 0 + 1.0, paired=False) == pytest.approx((0.25, 0.25))


def test_an_infinite_score_is_resampled_as_the_cases_would_be() -> None:
    """An outside insert's infinite score: a resample that draws it has an infinite mean, one
    that does not (~37% of them among 500 cases) a finite one, so the interval's high end is
    infinite: no interval (it would say nothing, and is no JSON). Drawn as counts of distinct
    values, a value drawn 0 times made 0 x inf = NaN of every resample."""
    values = np.random.default_rng(5).integers(0, 5, 500) / 4
    values[0] = np.inf
    means = resampled_means(pl.Series(values), REPS, np.random.default_rng(6))
    assert 0.3 < np.isfinite(means).mean() < 0.45
    assert np.isinf(means[~np.isfinite(means)]).all()  # no NaN
    assert bootstrap_mean_diff(pl.Series(np.zeros(500)), pl.Series(values), paired=False) is None


def test_infinite_scores_on_both_sides_give_no_interval_never_nan() -> None:
    """-inf beside a finite mean was NaN (-inf + inf), printed as "nan" and as NaN in --json;
    +inf and -inf in one resample have no mean at all."""
    a = pl.Series([0.5] * 6 + [np.inf] * 3)
    b = pl.Series([0.25, 0.75, 0.5] * 3)
    for reps in (3, 2000):
        assert bootstrap_mean_diff(a, b, paired=False, reps=reps, seed=26) is None
    both = pl.Series([0.5, np.inf, -np.inf] * 4)
    assert bootstrap_mean_diff(pl.Series([0.5] * 12), both, paired=True) is None


def test_the_quantile_of_infinite_neighbours_is_that_infinity() -> None:
    ordered = np.array([-np.inf, 1.0, 2.0, np.inf, np.inf])
    assert _quantile(ordered, 0.0) == -np.inf
    assert _quantile(ordered, 0.1) == -np.inf  # between -inf and 1: was NaN
    assert _quantile(ordered, 0.375) == pytest.approx(1.5)
    assert _quantile(ordered, 0.9) == np.inf
    assert _quantile(np.array([0.25]), 0.975) == 0.25
