-- The report's headline: each config's latest period against the pooled $window periods before
-- it, with the nightly alert's rule (docs/report.md): both at least $min_cases scored cases and
-- the latest period's Wilson interval wholly below the window's.
WITH p AS (
    SELECT r.*
    FROM pass_rates(
        grain := $grain, threshold := $threshold, penalize_ambiguous := $penalize_ambiguous,
        since := $since, until := $until
    ) AS r
    WHERE r.scored > 0 AND r.period IS NOT NULL
),
ranked AS (
    SELECT p.*, row_number() OVER (PARTITION BY p.config_id ORDER BY p.period DESC) AS back
    FROM p
),
-- The $window periods just before the latest, by the calendar (as the nightly window's days):
-- periods logged before a gap are no window.
windowed AS (
    SELECT k.config_id, sum(k.scored) AS scored, sum(k.passed) AS passed
    FROM ranked AS k
    JOIN ranked AS l ON l.config_id = k.config_id AND l.back = 1
    WHERE k.back >= 2 AND date_diff($grain, k.period, l.period) <= $window
    GROUP BY k.config_id
)
SELECT
    l.config_id,
    l.period,
    l.scored,
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
FROM ranked AS l
LEFT JOIN windowed AS w ON w.config_id = l.config_id
WHERE l.back = 1
ORDER BY l.period DESC, l.config_id;
