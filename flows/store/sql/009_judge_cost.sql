-- faithpipe storage, version 9: what judging costs, dry runs, and the invalid share by period.

-- USD per million prompt (input) and completion (output) tokens the run was priced at;
-- NULL when no price was known (no --price-input/--price-output, model not in the table).
ALTER TABLE runs ADD COLUMN price_input_usd DOUBLE;
ALTER TABLE runs ADD COLUMN price_output_usd DOUBLE;
-- prompt_tokens and completion_tokens at those prices; NULL when no price was known.
ALTER TABLE runs ADD COLUMN cost_usd DOUBLE;
-- `faith score --dry-run`: nothing judged or written; calls and tokens are estimates.
ALTER TABLE runs ADD COLUMN dry_run BOOLEAN DEFAULT false;
-- The run's --max-invalid-share: the report flags periods whose invalid share exceeds it.
ALTER TABLE runs ADD COLUMN max_invalid_share DOUBLE;

-- pass_rates_by_segment (and pass_rates, which selects all of its columns) as in version 6,
-- plus invalid_share and pending_share at the end.
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
    k.mean_score,
    -- Of the cases judged (scored or invalid), the share that could not be judged: the
    -- run's invalid share (runs, --max-invalid-share), per period.
    CASE WHEN k.scored + k.invalid > 0 THEN k.invalid / (k.scored + k.invalid)::DOUBLE END
        AS invalid_share,
    -- Of all the period's cases, the share left pending (a judge call or token cap).
    CASE WHEN k.cases > 0 THEN k.pending / k.cases::DOUBLE END AS pending_share
FROM counts AS k
ORDER BY k.config_id, k.period NULLS FIRST, k.segment_value NULLS FIRST;
