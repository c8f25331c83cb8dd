-- The report's headline: each config's latest period against the pooled $window periods before
-- it, with the nightly alert's rule (docs/report.md): both at least $min_cases scored cases and
-- the latest period's Wilson interval wholly below the window's. The latest period is the
-- latest with any case logged, scored or not: a night whose every case came back invalid (a
-- broken judge) is the headline, with no pass rate, not hidden behind the night before it.
WITH p AS (
    SELECT r.*
    FROM pass_rates(
        grain := $grain, threshold := $threshold, penalize_ambiguous := $penalize_ambiguous,
        since := $since, until := $until
    ) AS r
    WHERE r.cases > 0 AND r.period IS NOT NULL
),
latest AS (
    SELECT p.config_id, max(p.period) AS period FROM p GROUP BY p.config_id
),
-- The $window periods just before the latest, by the calendar (as the nightly window's days):
-- periods logged before a gap are no window; only their scored cases count.
windowed AS (
    SELECT k.config_id, sum(k.scored) AS scored, sum(k.passed) AS passed
    FROM p AS k
    JOIN latest AS l ON l.config_id = k.config_id
    WHERE k.scored > 0 AND k.period < l.period AND date_diff($grain, k.period, l.period) <= $window
    GROUP BY k.config_id
)
SELECT
    l.config_id,
    l.period,
    l.cases,
    l.scored,
    l.invalid,
    l.pending,
    l.passed,
    l.pass_rate,
    l.pass_rate_low,
    l.pass_rate_high,
    w.scored AS window_scored,
    w.passed / w.scored::DOUBLE AS window_rate,
    wilson_low(w.passed, w.scored) AS window_low,
    wilson_high(w.passed, w.scored) AS window_high,
    l.pass_rate - w.passed / w.scored::DOUBLE AS change,
    coalesce(
        l.scored >= $min_cases AND w.scored >= $min_cases
        AND l.pass_rate_high < wilson_low(w.passed, w.scored),
        false
    ) AS alert
FROM p AS l
JOIN latest AS m ON m.config_id = l.config_id AND m.period = l.period
LEFT JOIN windowed AS w ON w.config_id = l.config_id
ORDER BY l.period DESC, l.config_id;
