-- `faith nightly --alert-window N`: the night's pass rate per config, and per value of
-- $segment when given, against the pooled rate of the $window days before the night's day
-- (other runs' cases). The night is the cases the runs $night_runs scored (this run, and the
-- nightly runs before it that stopped before their check: night_runs.sql), each day they
-- were logged on a night of its own with its own window: a killed night swept by the next
-- is checked on its day and the next on its own, late rows of an old day are told on that
-- day ("of 50 cases on 2026-11-02", not mixed into tonight's), and a straggler is a day of
-- one case, too few to fire. A first night of many days' logs has no window (its own runs'
-- cases are not in it) and never fires. The rule (docs/report.md): it fires when the night
-- and the window each hold at least $min_cases scored cases and the night's Wilson interval
-- lies wholly below the window's (night_high < window_low).
WITH cases AS (
    SELECT
        c.config_id,
        c.run_id,
        c.logged_at,
        c.success,
        json_extract_string(
            c.segments, '/' || replace(replace(CAST($segment AS VARCHAR), '~', '~0'), '/', '~1')
        ) AS segment_value
    FROM case_scores AS c
    WHERE c.status = 'scored'
),
slices AS (
    SELECT c.config_id, NULL::VARCHAR AS segment_value, c.run_id, c.logged_at, c.success
    FROM cases AS c
    UNION ALL
    SELECT c.config_id, c.segment_value, c.run_id, c.logged_at, c.success
    FROM cases AS c
    WHERE CAST($segment AS VARCHAR) IS NOT NULL AND c.segment_value IS NOT NULL
),
night AS (
    -- each day the night's cases were logged on is a night of its own, with its own window
    SELECT
        s.config_id,
        s.segment_value,
        CAST(s.logged_at AS DATE) AS first_day,
        count(*) AS n,
        count(*) FILTER (WHERE s.success) AS passed
    FROM slices AS s
    WHERE list_contains($night_runs, s.run_id) AND s.logged_at IS NOT NULL
    GROUP BY ALL
),
windowed AS (
    SELECT
        n.config_id,
        n.segment_value,
        n.first_day,
        count(s.config_id) AS n,
        count(*) FILTER (WHERE s.success) AS passed
    FROM night AS n
    LEFT JOIN slices AS s
        ON s.config_id = n.config_id
        AND s.segment_value IS NOT DISTINCT FROM n.segment_value
        AND NOT list_contains($night_runs, s.run_id)
        AND s.logged_at >= n.first_day - CAST($window AS INTEGER)
        AND s.logged_at < n.first_day
    GROUP BY ALL
),
rates AS (
    SELECT
        n.config_id,
        n.segment_value,
        n.first_day AS night,
        n.n AS night_cases,
        n.passed AS night_passed,
        n.passed / n.n::DOUBLE AS night_rate,
        wilson_low(n.passed, n.n) AS night_low,
        wilson_high(n.passed, n.n) AS night_high,
        t.n AS window_cases,
        t.passed AS window_passed,
        CASE WHEN t.n > 0 THEN t.passed / t.n::DOUBLE END AS window_rate,
        wilson_low(t.passed, t.n) AS window_low,
        wilson_high(t.passed, t.n) AS window_high
    FROM night AS n
    JOIN windowed AS t
        ON t.config_id = n.config_id
        AND t.segment_value IS NOT DISTINCT FROM n.segment_value
        AND t.first_day = n.first_day
)
SELECT
    r.*,
    r.night_cases >= $min_cases AND r.window_cases >= $min_cases
        AND r.night_high < r.window_low AS fired
FROM rates AS r
ORDER BY r.config_id, r.night DESC, r.segment_value NULLS FIRST;
