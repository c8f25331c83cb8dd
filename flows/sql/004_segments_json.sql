-- faithpipe storage, version 4: case_scores.segments becomes a JSON object of text values,
-- {"app_version": "2.4.0", ...}, instead of MAP(VARCHAR, VARCHAR). Rows arrive as JSON text;
-- building the MAP from it cost DuckDB ~0.7 s of CPU per 1M rows written (bench/pipeline.py).
-- Read a segment with `segments ->> 'app_version'`; list them with `json_keys(segments)`.

-- A new column, not ALTER ... TYPE JSON: DuckDB 2.0.1 cannot replay that ALTER from its WAL
-- without downloading the json extension, so a run killed before the next checkpoint would
-- leave a database that does not open offline (tests/test_crash_resume.py found it).
ALTER TABLE case_scores ADD COLUMN segments_json JSON;
UPDATE case_scores SET segments_json = to_json(segments);
ALTER TABLE case_scores DROP COLUMN segments;
ALTER TABLE case_scores RENAME COLUMN segments_json TO segments;

-- The two definitions of 002_analysis.sql that read segments, for the JSON column.

-- Pass rates per period, config and value of one segment column (segments ->> segment).
-- grain: any date_trunc part (day, week = ISO week from Monday, month, ...); NULL = whole window.
CREATE OR REPLACE MACRO pass_rates_by_segment(
    segment, grain := 'day', threshold := NULL, penalize_ambiguous := NULL,
    since := NULL, until := NULL
) AS TABLE
WITH counts AS (
    SELECT
        CAST(date_trunc(grain, r.logged_at) AS DATE) AS period,
        r.config_id,
        r.segments ->> segment AS segment_value,
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

-- The segment columns present, per config, with how many cases carry each.
CREATE OR REPLACE VIEW segment_columns AS
SELECT c.config_id, k.segment, count(*) AS cases
FROM case_scores AS c, unnest(json_keys(c.segments)) AS k(segment)
GROUP BY c.config_id, k.segment
ORDER BY c.config_id, k.segment;
