-- faithpipe analysis, version 17: two sides compared (`faith compare`, docs/compare.md).
-- Names, parameters and columns are a public interface.
--
-- A side is a config (a_config / b_config), a value of one segment column (segment, a, b) and a
-- window of days (since / until for both, a_since ... b_until for one side; dates inclusive).
-- A config not given is the one scored most recently; b_config defaults to a_config.
-- Two different configs are compared case by case (paired, joined on case_id); otherwise the
-- sides hold different cases (unpaired). Only scored cases count. Differences are B minus A.

-- Two-sided tail of the standard normal at |z| (Abramowitz & Stegun 7.1.26, error < 1.5e-7).
CREATE OR REPLACE MACRO normal_two_sided_p(z) AS
    (WITH t AS (SELECT 1.0 / (1.0 + 0.3275911 * abs(z) / sqrt(2.0)) AS t)
     SELECT least(1.0, (((((1.061405429 * t.t - 1.453152027) * t.t + 1.421413741) * t.t
              - 0.284496736) * t.t + 0.254829592) * t.t) * exp(-(z * z) / 2.0))
     FROM t);

-- One row a compared case: both sides' score and success when paired, one side's otherwise.
CREATE OR REPLACE MACRO compare_cases(
    a_config := NULL, b_config := NULL, segment := NULL, a := NULL, b := NULL,
    since := NULL, until := NULL, a_since := NULL, a_until := NULL,
    b_since := NULL, b_until := NULL, threshold := NULL, penalize_ambiguous := NULL
) AS TABLE
WITH latest AS (
    SELECT first(c.config_id ORDER BY c.scored_at DESC) AS config_id FROM case_scores AS c
),
sides AS (
    SELECT
        coalesce(a_config, l.config_id) AS a_cfg,
        coalesce(b_config, a_config, l.config_id) AS b_cfg,
        CAST(coalesce(a_since, since) AS DATE) AS a_from,
        CAST(coalesce(a_until, until) AS DATE) AS a_to,
        CAST(coalesce(b_since, since) AS DATE) AS b_from,
        CAST(coalesce(b_until, until) AS DATE) AS b_to,
        CASE
            WHEN segment IS NULL AND (a IS NOT NULL OR b IS NOT NULL)
                THEN error('a and b are values of a segment column: give segment too')
            ELSE coalesce(a_config, l.config_id) <> coalesce(b_config, a_config, l.config_id)
        END AS paired
    FROM latest AS l
),
results AS (
    SELECT r.config_id, r.case_id, r.logged_at, r.score, r.success, r.segments
    FROM case_results(threshold := threshold, penalize_ambiguous := penalize_ambiguous) AS r
    WHERE r.status = 'scored'
),
side_a AS (
    SELECT r.case_id, r.score, r.success
    FROM results AS r, sides AS s
    WHERE r.config_id = s.a_cfg
      AND (a IS NULL OR json_extract_string(
          r.segments, '/' || replace(replace(segment, '~', '~0'), '/', '~1')
      ) = CAST(a AS VARCHAR))
      AND (s.a_from IS NULL OR r.logged_at >= s.a_from)
      AND (s.a_to IS NULL OR r.logged_at < s.a_to + INTERVAL 1 DAY)
),
side_b AS (
    SELECT r.case_id, r.score, r.success
    FROM results AS r, sides AS s
    WHERE r.config_id = s.b_cfg
      AND (b IS NULL OR json_extract_string(
          r.segments, '/' || replace(replace(segment, '~', '~0'), '/', '~1')
      ) = CAST(b AS VARCHAR))
      AND (s.b_from IS NULL OR r.logged_at >= s.b_from)
      AND (s.b_to IS NULL OR r.logged_at < s.b_to + INTERVAL 1 DAY)
)
SELECT
    x.case_id, x.score AS a_score, x.success AS a_success,
    y.score AS b_score, y.success AS b_success, true AS paired
FROM side_a AS x JOIN side_b AS y ON x.case_id = y.case_id
WHERE (SELECT s.paired FROM sides AS s)
UNION ALL
SELECT x.case_id, x.score, x.success, NULL, NULL, false
FROM side_a AS x WHERE NOT (SELECT s.paired FROM sides AS s)
UNION ALL
SELECT y.case_id, NULL, NULL, y.score, y.success, false
FROM side_b AS y WHERE NOT (SELECT s.paired FROM sides AS s);

-- Pass rates of the two sides and their difference (B - A) with a 95 % interval and p-value.
-- Paired: exact McNemar test (two-sided binomial on the discordant pairs) and the Agresti-Min
-- interval (Wald on the 2x2 table with 1/2 added to each cell). Unpaired: Newcombe's hybrid
-- score interval from the two Wilson intervals, and the pooled two-proportion z test.
CREATE OR REPLACE MACRO compare_pass_rates(
    a_config := NULL, b_config := NULL, segment := NULL, a := NULL, b := NULL,
    since := NULL, until := NULL, a_since := NULL, a_until := NULL,
    b_since := NULL, b_until := NULL, threshold := NULL, penalize_ambiguous := NULL,
    z := 1.959963984540054
) AS TABLE
WITH k AS (
    SELECT
        coalesce(bool_or(c.paired), false) AS paired,
        count(c.a_success) AS n_a,
        count(*) FILTER (WHERE c.a_success) AS passed_a,
        count(c.b_success) AS n_b,
        count(*) FILTER (WHERE c.b_success) AS passed_b,
        count(*) FILTER (WHERE c.paired) AS pairs,
        count(*) FILTER (WHERE c.paired AND c.a_success AND c.b_success) AS both_pass,
        count(*) FILTER (WHERE c.paired AND c.a_success AND NOT c.b_success) AS a_only,
        count(*) FILTER (WHERE c.paired AND NOT c.a_success AND c.b_success) AS b_only,
        count(*) FILTER (WHERE c.paired AND NOT c.a_success AND NOT c.b_success) AS neither
    FROM compare_cases(
        a_config := a_config, b_config := b_config, segment := segment, a := a, b := b,
        since := since, until := until, a_since := a_since, a_until := a_until,
        b_since := b_since, b_until := b_until,
        threshold := threshold, penalize_ambiguous := penalize_ambiguous
    ) AS c
),
r AS (
    SELECT
        k.*,
        CASE WHEN k.n_a > 0 THEN k.passed_a / k.n_a::DOUBLE END AS rate_a,
        CASE WHEN k.n_b > 0 THEN k.passed_b / k.n_b::DOUBLE END AS rate_b,
        wilson_low(k.passed_a, k.n_a, z := z) AS low_a,
        wilson_high(k.passed_a, k.n_a, z := z) AS high_a,
        wilson_low(k.passed_b, k.n_b, z := z) AS low_b,
        wilson_high(k.passed_b, k.n_b, z := z) AS high_b,
        k.pairs + 2.0 AS n_adj,
        k.b_only - k.a_only AS net
    FROM k
)
SELECT
    r.paired,
    CASE WHEN r.paired THEN 'paired: exact McNemar, Agresti-Min interval'
         ELSE 'unpaired: Newcombe interval, two-proportion z test' END AS method,
    r.n_a, r.passed_a, r.rate_a, r.n_b, r.passed_b, r.rate_b,
    r.pairs, r.both_pass, r.a_only, r.b_only, r.neither,
    r.rate_b - r.rate_a AS diff,
    CASE
        WHEN r.paired THEN ((r.b_only + 0.5) - (r.a_only + 0.5)) / r.n_adj
            - z * sqrt((r.a_only + r.b_only + 1.0)
                       - ((r.b_only + 0.5) - (r.a_only + 0.5)) ^ 2 / r.n_adj) / r.n_adj
        WHEN r.n_a > 0 AND r.n_b > 0
            THEN (r.rate_b - r.rate_a)
            - sqrt((r.rate_b - r.low_b) ^ 2 + (r.high_a - r.rate_a) ^ 2)
    END AS ci_low,
    CASE
        WHEN r.paired THEN ((r.b_only + 0.5) - (r.a_only + 0.5)) / r.n_adj
            + z * sqrt((r.a_only + r.b_only + 1.0)
                       - ((r.b_only + 0.5) - (r.a_only + 0.5)) ^ 2 / r.n_adj) / r.n_adj
        WHEN r.n_a > 0 AND r.n_b > 0
            THEN (r.rate_b - r.rate_a)
            + sqrt((r.high_b - r.rate_b) ^ 2 + (r.rate_a - r.low_a) ^ 2)
    END AS ci_high,
    CASE
        WHEN r.paired AND r.a_only + r.b_only = 0 THEN 1.0
        WHEN r.paired THEN least(1.0, 2 * (
            SELECT sum(exp(lgamma(m.m + 1) - lgamma(t.k + 1) - lgamma(m.m - t.k + 1)
                           - m.m * ln(2)))
            FROM (SELECT (r.a_only + r.b_only)::DOUBLE AS m) AS m,
                 range(0, least(r.a_only, r.b_only) + 1) AS t(k)))
        WHEN r.n_a > 0 AND r.n_b > 0
             AND (r.passed_a + r.passed_b) NOT IN (0, r.n_a + r.n_b)
            THEN normal_two_sided_p((r.rate_b - r.rate_a) / sqrt(
                (r.passed_a + r.passed_b) / (r.n_a + r.n_b)::DOUBLE
                * (1 - (r.passed_a + r.passed_b) / (r.n_a + r.n_b)::DOUBLE)
                * (1.0 / r.n_a + 1.0 / r.n_b)))
        WHEN r.n_a > 0 AND r.n_b > 0 THEN 1.0
    END AS p_value
FROM r;

-- Mean scores of the two sides and their difference (B - A) with a normal 95 % interval: of the
-- per-case differences when paired, Welch's otherwise. `faith compare` reports a bootstrap
-- interval instead (seeded); the two agree closely on thousands of cases.
CREATE OR REPLACE MACRO compare_scores(
    a_config := NULL, b_config := NULL, segment := NULL, a := NULL, b := NULL,
    since := NULL, until := NULL, a_since := NULL, a_until := NULL,
    b_since := NULL, b_until := NULL, threshold := NULL, penalize_ambiguous := NULL,
    z := 1.959963984540054
) AS TABLE
WITH k AS (
    SELECT
        coalesce(bool_or(c.paired), false) AS paired,
        count(c.a_score) AS n_a,
        avg(c.a_score) AS mean_a,
        var_samp(c.a_score) AS var_a,
        count(c.b_score) AS n_b,
        avg(c.b_score) AS mean_b,
        var_samp(c.b_score) AS var_b,
        count(*) FILTER (WHERE c.paired) AS pairs,
        var_samp(c.b_score - c.a_score) AS var_diff
    FROM compare_cases(
        a_config := a_config, b_config := b_config, segment := segment, a := a, b := b,
        since := since, until := until, a_since := a_since, a_until := a_until,
        b_since := b_since, b_until := b_until,
        threshold := threshold, penalize_ambiguous := penalize_ambiguous
    ) AS c
),
s AS (
    SELECT
        k.*,
        k.mean_b - k.mean_a AS diff,
        CASE WHEN k.paired THEN sqrt(k.var_diff / k.pairs)
             ELSE sqrt(k.var_a / k.n_a + k.var_b / k.n_b) END AS se
    FROM k
)
SELECT
    s.paired, s.n_a, s.mean_a, s.n_b, s.mean_b, s.pairs, s.diff,
    s.diff - z * s.se AS ci_low,
    s.diff + z * s.se AS ci_high
FROM s;

-- One row a `faith compare`: what was compared and what it found (the report shows the latest).
CREATE TABLE comparisons (
    compared_at TIMESTAMP NOT NULL,
    a_label     VARCHAR NOT NULL,
    b_label     VARCHAR NOT NULL,
    paired      BOOLEAN NOT NULL,
    n_a         BIGINT NOT NULL,
    n_b         BIGINT NOT NULL,
    pairs       BIGINT NOT NULL,
    rate_a      DOUBLE,
    rate_b      DOUBLE,
    diff        DOUBLE,
    ci_low      DOUBLE,
    ci_high     DOUBLE,
    p_value     DOUBLE,
    score_diff  DOUBLE,
    score_low   DOUBLE,
    score_high  DOUBLE,
    verdict     VARCHAR NOT NULL,
    result      VARCHAR NOT NULL                      -- JSON: the whole `faith compare --json`
);
