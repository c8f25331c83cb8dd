-- faithpipe storage, version 6: segments of any name read by pass_rates_by_segment.

-- Pass rates per period, config and value of one segment column. The key is read through a
-- JSON pointer (RFC 6901: `~` as `~0`, `/` as `~1`), which names any key exactly; 004's quoted
-- JSON path failed to bind for a name such as `""` or one holding `\"`.
-- grain: any date_trunc part (day, week = ISO week from Monday, month, ...); NULL = whole window.
CREATE OR REPLACE MACRO pass_rates_by_segment(
    segment, grain := 'day', threshold := NULL, penalize_ambiguous := NULL,
    since := NULL, until := NULL
) AS TABLE
WITH counts AS (
    SELECT
        CAST(date_trunc(grain, r.logged_at) AS DATE) AS period,
        r.config_id,
        json_extract_string(r.segments, '/' || replace(replace(segment, '~', '~0'), '/', '~1'))
            AS segment_value,
        count(*) AS cases,
        count(*) FILTER (WHERE r.status = 'scored') AS scored,
        count(*) FILTER (WHERE r.status = 'invalid') AS invalid,
        count(*) FILTER (WHERE r.status = 'pending') AS pending,
        count(*) FILTER (WHERE r.status = 'scored' AND r.no_claims) AS no_claims,
        count(*) FILTER (WHERE r.success) AS passed,
        count(*) FILTER (WHERE NOT r.success) AS failed,
        count(*) FILTER (WHERE r.cause = 'contradicted') AS contradicted,
        count(*) FILTER (WHERE r.cause = 'unsupported') AS unsupported,
        avg(r.score) AS mean_score
    FROM case_results(
        threshold := threshold, penalize_ambiguous := penalize_ambiguous,
        since := since, until := until
    ) AS r
    GROUP BY ALL
)
SELECT
    k.period,
    k.config_id,
    k.segment_value,
    k.cases,
    k.scored,
    k.invalid,
    k.pending,
    k.no_claims,
    k.passed,
    k.failed,
    k.contradicted,
    k.unsupported,
    CASE WHEN k.scored > 0 THEN k.passed / k.scored::DOUBLE END AS pass_rate,
    wilson_low(k.passed, k.scored) AS pass_rate_low,
    wilson_high(k.passed, k.scored) AS pass_rate_high,
    k.mean_score
FROM counts AS k
ORDER BY k.config_id, k.period NULLS FIRST, k.segment_value NULLS FIRST;
