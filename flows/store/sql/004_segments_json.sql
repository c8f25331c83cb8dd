-- faithpipe storage, version 4: case_scores.segments becomes a JSON object of text values,
-- {"app_version": "2.4.0", ...}, instead of MAP(VARCHAR, VARCHAR). Rows arrive as JSON text;
-- building the MAP from it cost DuckDB ~0.7 s of CPU per 1M rows written (bench/pipeline.py).
-- Read a segment with `segments ->> 'app_version'`; list them with `json_keys(segments)`.

-- The table is copied into a new one rather than altered in place: an UPDATE of every row
-- held all of them in memory, past the 1 GB limit from ~13M rows on, and DuckDB 2.0.1 cannot
-- replay ALTER ... TYPE JSON from its WAL without downloading the json extension (a run
-- killed before the next checkpoint left a database that did not open offline). A bulk
-- INSERT writes row groups straight to the file. Columns, order and constraints as in 001.
CREATE TABLE case_scores_v4 (
    config_id                 VARCHAR NOT NULL,
    case_id                   VARCHAR NOT NULL,
    run_id                    VARCHAR NOT NULL,
    content_hash              VARCHAR NOT NULL,      -- md5 of input, answer and contexts
    logged_at                 TIMESTAMP,
    input                     VARCHAR,
    actual_output             VARCHAR,
    n_truths                  INTEGER,
    n_claims                  INTEGER,
    n_yes                     INTEGER,
    n_no                      INTEGER,
    n_idk                     INTEGER,
    n_dropped                 INTEGER,               -- verdicts outside yes/no/idk
    score                     DOUBLE,
    threshold                 DOUBLE,
    penalize_ambiguous_claims BOOLEAN,
    strict_mode               BOOLEAN,
    success                   BOOLEAN,
    no_claims                 BOOLEAN,
    status                    VARCHAR NOT NULL,      -- scored | invalid | pending
    error                     VARCHAR,
    reason                    VARCHAR,
    passage_ids               UBIGINT[],             -- the case's passages, in order (truths.passage_id)
    segments                  JSON,                  -- extra input columns: {"app_version": ...}
    judge_calls               DOUBLE NOT NULL DEFAULT 0,   -- its share of the calls made
    prompt_tokens             INTEGER NOT NULL DEFAULT 0,
    completion_tokens         INTEGER NOT NULL DEFAULT 0,
    scored_at                 TIMESTAMP NOT NULL
);

INSERT INTO case_scores_v4 BY NAME
SELECT * REPLACE (CAST(to_json(segments) AS JSON) AS segments) FROM case_scores;

DROP TABLE case_scores;

ALTER TABLE case_scores_v4 RENAME TO case_scores;

-- The two definitions of 002_analysis.sql that read segments, for the JSON column.

-- Pass rates per period, config and value of one segment column. The key is quoted in the
-- JSON path, so a column named like a path (`$x`, `/x`) is still read as a plain key.
-- grain: any date_trunc part (day, week = ISO week from Monday, month, ...); NULL = whole window.
CREATE OR REPLACE MACRO pass_rates_by_segment(
    segment, grain := 'day', threshold := NULL, penalize_ambiguous := NULL,
    since := NULL, until := NULL
) AS TABLE
WITH counts AS (
    SELECT
        CAST(date_trunc(grain, r.logged_at) AS DATE) AS period,
        r.config_id,
        json_extract_string(r.segments, '$."' || replace(segment, '"', '\"') || '"')
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

-- The segment columns present, per config, with how many cases carry each.
CREATE OR REPLACE VIEW segment_columns AS
SELECT c.config_id, k.segment, count(*) AS cases
FROM case_scores AS c, unnest(json_keys(c.segments)) AS k(segment)
GROUP BY c.config_id, k.segment
ORDER BY c.config_id, k.segment;
