-- `faith nightly --alert-window N`: the night's pass rate per config, and per value of
-- $segment when given, against the pooled rate of the $window days before the night's day
-- (other runs' cases). The night is the cases the runs $night_runs scored (this run, and the
-- nightly runs before it that stopped before their check: night_runs.sql) that were logged on
-- the night's day: the day most of this run's cases were logged on (of the swept runs' when
-- it scored none: a re-run), the latest on a tie. A
-- straggler from an old day, or an old pending case scored at last, neither moves the window
-- back to before the history nor counts in the night. The rule (docs/report.md): it fires
-- when the night and the window each hold at least $min_cases scored cases and the night's
-- Wilson interval lies wholly below the window's (night_high < window_low). A thin night has
-- too few cases and a wide interval, so it never fires.
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
night_day AS (
    -- this run's cases tell the day; a re-run that scored none, those of the runs it sweeps
    SELECT CAST(c.logged_at AS DATE) AS day
    FROM cases AS c
    WHERE list_contains($night_runs, c.run_id)
    GROUP BY ALL
    ORDER BY count(*) FILTER (WHERE c.run_id = $night_runs[-1]) DESC, count(*) DESC, day DESC
    LIMIT 1
),
night AS (
    SELECT
        s.config_id,
        s.segment_value,
        count(*) AS n,
        count(*) FILTER (WHERE s.success) AS passed,
        any_value(d.day) AS first_day
    FROM slices AS s, night_day AS d
    WHERE list_contains($night_runs, s.run_id) AND CAST(s.logged_at AS DATE) = d.day
    GROUP BY s.config_id, s.segment_value
),
windowed AS (
    SELECT
        n.config_id,
        n.segment_value,
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
        ON t.config_id = n.config_id AND t.segment_value IS NOT DISTINCT FROM n.segment_value
)
SELECT
    r.*,
    r.night_cases >= $min_cases AND r.window_cases >= $min_cases
        AND r.night_high < r.window_low AS fired
FROM rates AS r
ORDER BY r.config_id, r.segment_value NULLS FIRST;
