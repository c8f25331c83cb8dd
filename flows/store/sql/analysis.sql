-- faithpipe analysis: the live definition of every macro and view over the stored tables.
-- Names, parameters and columns are a public interface (the docs' Analysis in SQL).
--
-- The store (re)creates all of them from this file each time it opens the database for writing
-- and migrates it (flows/store/db.py: define_analysis), so this file, not the migrations that
-- first made them (002, 003, 004, 006, 009, 016, 017), says what they are now. Change a macro here; a
-- change of a table's columns is still a new migration, with this file changed to match.
--
-- Every result keeps config_id, or takes it as a parameter: metric configs never mix.
-- threshold := NULL and penalize_ambiguous := NULL mean "as each run was configured"; a value
-- recomputes score and success from the stored verdict counts, so no judge is called.
-- since / until (dates, both inclusive) filter on logged_at; NULL means unbounded.
-- Macro parameters shadow column names inside a macro, so every column is qualified.

-- The score of verdict counts, as faith_udfs.scores.score_expr: 1.0 when nothing was judged.
CREATE OR REPLACE MACRO faith_score(n_yes, n_no, n_idk, penalize) AS
    CASE
        WHEN n_yes + n_no + n_idk > 0
            THEN (n_yes + CASE WHEN penalize THEN 0 ELSE n_idk END) / (n_yes + n_no + n_idk)::DOUBLE
        ELSE 1.0
    END;

-- Wilson score interval of passed / n (z = 1.96: 95 %); NULL when n = 0.
CREATE OR REPLACE MACRO wilson_low(passed, n, z := 1.959963984540054) AS
    CASE
        WHEN n > 0 THEN greatest(0.0,
            (passed / n::DOUBLE + z * z / (2 * n)
             - z * sqrt(passed / n::DOUBLE * (1 - passed / n::DOUBLE) / n + z * z / (4 * n * n)))
            / (1 + z * z / n))
    END;

CREATE OR REPLACE MACRO wilson_high(passed, n, z := 1.959963984540054) AS
    CASE
        WHEN n > 0 THEN least(1.0,
            (passed / n::DOUBLE + z * z / (2 * n)
             + z * sqrt(passed / n::DOUBLE * (1 - passed / n::DOUBLE) / n + z * z / (4 * n * n)))
            / (1 + z * z / n))
    END;

-- One row a case and config, with score, threshold, success and cause under the given settings.
-- A stored NaN score reads as NULL (no score): means, histograms and ranks leave it out.
CREATE OR REPLACE MACRO case_results(
    threshold := NULL, penalize_ambiguous := NULL, since := NULL, until := NULL
) AS TABLE
WITH settings AS (
    SELECT
        c.*,
        CASE
            WHEN c.strict_mode THEN 1.0
            ELSE coalesce(threshold, c.threshold)
        END::DOUBLE AS _threshold,
        coalesce(penalize_ambiguous, c.penalize_ambiguous_claims, false) AS _penalize,
        faith_score(c.n_yes, c.n_no, c.n_idk, _penalize) AS _raw_score
    FROM case_scores AS c
    -- checked once, not per row: a window without cases refuses a wrong pass mark too
    WHERE (SELECT CASE
                      WHEN threshold IS NOT NULL AND (threshold < 0 OR threshold > 1)
                          THEN error('threshold must be between 0 and 1')
                      ELSE true
                  END)
      AND (since IS NULL OR c.logged_at >= CAST(since AS DATE))
      AND (until IS NULL OR c.logged_at < CAST(until AS DATE) + INTERVAL 1 DAY)
),
scored AS (
    SELECT
        s.*,
        CASE
            WHEN s.status <> 'scored' THEN NULL
            -- a NaN score (a custom judge's, an outside insert's) is no score: it would make
            -- every mean over it NaN; it is NULL, left out of means and histograms
            WHEN penalize_ambiguous IS NULL
                THEN CASE WHEN isnan(s.score) THEN NULL ELSE s.score END
            WHEN s.strict_mode AND s._raw_score < 1 THEN 0.0
            ELSE s._raw_score
        END AS _score
    FROM settings AS s
),
judged AS (
    SELECT
        s.*,
        CASE
            WHEN s.status <> 'scored' THEN NULL
            WHEN threshold IS NULL AND penalize_ambiguous IS NULL THEN s.success
            ELSE s._score >= s._threshold
        END AS _success
    FROM scored AS s
)
SELECT
    j.config_id,
    j.case_id,
    j.run_id,
    j.content_hash,
    j.logged_at,
    j.status,
    j.error,
    j.n_truths,
    j.n_claims,
    j.n_yes,
    j.n_no,
    j.n_idk,
    j.n_dropped,
    j.no_claims,
    j._score AS score,
    j._threshold AS threshold,
    j._penalize AS penalize_ambiguous,
    j.strict_mode,
    j._success AS success,
    CASE
        WHEN j.status = 'invalid' THEN 'invalid'
        WHEN j.status <> 'scored' THEN NULL
        WHEN j.no_claims THEN 'no_claims'
        WHEN j._success THEN NULL
        WHEN j.n_no > 0 THEN 'contradicted'
        WHEN j.n_idk > 0 THEN 'unsupported'
        ELSE 'other'
    END AS cause,
    j.input,
    j.actual_output,
    j.reason,
    j.passage_ids,
    j.segments
FROM judged AS j;

-- Pass rates per period, config and value of one segment column. The key is read through a
-- JSON pointer (RFC 6901: `~` as `~0`, `/` as `~1`), which names any key exactly. The shares
-- of invalid and pending cases come last (pass_rates selects all of these columns).
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
    k.mean_score,
    -- Of the cases judged (scored or invalid), the share that could not be judged: the
    -- run's invalid share (runs, --max-invalid-share), per period.
    CASE WHEN k.scored + k.invalid > 0 THEN k.invalid / (k.scored + k.invalid)::DOUBLE END
        AS invalid_share,
    -- Of all the period's cases, the share left pending (a judge call or token cap).
    CASE WHEN k.cases > 0 THEN k.pending / k.cases::DOUBLE END AS pending_share
FROM counts AS k
ORDER BY k.config_id, k.period NULLS FIRST, k.segment_value NULLS FIRST;

-- Pass rates per period and config.
CREATE OR REPLACE MACRO pass_rates(
    grain := 'day', threshold := NULL, penalize_ambiguous := NULL, since := NULL, until := NULL
) AS TABLE
SELECT p.* EXCLUDE (segment_value)
FROM pass_rates_by_segment(
    NULL, grain := grain, threshold := threshold, penalize_ambiguous := penalize_ambiguous,
    since := since, until := until
) AS p
ORDER BY p.config_id, p.period NULLS FIRST;

-- Each period against the previous period with scored cases, per config (and segment value).
-- intervals_disjoint: the two Wilson intervals do not overlap.
CREATE OR REPLACE MACRO pass_rate_changes(
    grain := 'week', segment := NULL, threshold := NULL, penalize_ambiguous := NULL,
    since := NULL, until := NULL
) AS TABLE
WITH rates AS (
    SELECT
        p.*,
        lag(p.period) OVER w AS previous_period,
        lag(p.scored) OVER w AS previous_scored,
        lag(p.pass_rate) OVER w AS previous_pass_rate,
        lag(p.pass_rate_low) OVER w AS previous_pass_rate_low,
        lag(p.pass_rate_high) OVER w AS previous_pass_rate_high
    FROM pass_rates_by_segment(
        segment, grain := grain, threshold := threshold,
        penalize_ambiguous := penalize_ambiguous, since := since, until := until
    ) AS p
    WHERE p.scored > 0 AND p.period IS NOT NULL
    WINDOW w AS (PARTITION BY p.config_id, p.segment_value ORDER BY p.period)
)
SELECT
    r.config_id,
    r.segment_value,
    r.period,
    r.previous_period,
    r.scored,
    r.previous_scored,
    r.pass_rate,
    r.previous_pass_rate,
    r.pass_rate - r.previous_pass_rate AS change,
    r.pass_rate_low,
    r.pass_rate_high,
    r.previous_pass_rate_low,
    r.previous_pass_rate_high,
    CASE
        WHEN r.previous_period IS NOT NULL
            THEN r.pass_rate_low > r.previous_pass_rate_high
                 OR r.pass_rate_high < r.previous_pass_rate_low
    END AS intervals_disjoint
FROM rates AS r
ORDER BY r.config_id, r.segment_value NULLS FIRST, r.period;

-- Every case that is not a clean pass, with its cause: contradicted (a `no` verdict),
-- unsupported (only `idk` claims fail it, under penalty), no_claims (passes by rule, nothing
-- checked), invalid (could not be judged). Pending cases are left out: the next run scores them.
CREATE OR REPLACE MACRO failure_attribution(
    threshold := NULL, penalize_ambiguous := NULL, since := NULL, until := NULL
) AS TABLE
SELECT
    r.config_id,
    r.case_id,
    r.logged_at,
    r.cause,
    r.success,
    r.score,
    r.threshold,
    r.penalize_ambiguous,
    r.n_claims,
    r.n_yes,
    r.n_no,
    r.n_idk,
    r.error,
    r.input,
    r.actual_output,
    r.segments
FROM case_results(
    threshold := threshold, penalize_ambiguous := penalize_ambiguous, since := since, until := until
) AS r
WHERE r.cause IS NOT NULL
ORDER BY r.config_id, r.logged_at, r.case_id;

-- The n lowest-scoring scored cases of each config (ties: more `no` verdicts, then newest).
CREATE OR REPLACE MACRO worst_cases(
    n := 20, threshold := NULL, penalize_ambiguous := NULL, since := NULL, until := NULL
) AS TABLE
WITH weakest AS (
    -- a case's least supported claim judged yes or no: within a score, the answer whose
    -- weakest claim the context holds least comes first (one-claim answers score 0 or 1, and
    -- this orders them as the judge's supports do; NULL for judges that give no support)
    -- (of the window's cases only, when one is given: a day's worst cases read its claims)
    SELECT v.config_id, v.case_id, min(v.support) AS weakest_support
    FROM claim_verdicts AS v
    WHERE v.verdict IN ('yes', 'no') AND NOT isnan(v.support)
      AND (
          (since IS NULL AND until IS NULL)
          OR (v.config_id, v.case_id) IN (
              SELECT (c.config_id, c.case_id)
              FROM case_scores AS c
              WHERE (since IS NULL OR c.logged_at >= CAST(since AS DATE))
                AND (until IS NULL OR c.logged_at < CAST(until AS DATE) + INTERVAL 1 DAY)
          )
      )
    GROUP BY ALL
)
SELECT
    row_number() OVER (
        PARTITION BY r.config_id
        ORDER BY r.score, w.weakest_support NULLS LAST, r.n_no DESC,
                 r.logged_at DESC NULLS LAST, r.case_id
    ) AS rank,
    r.config_id,
    r.case_id,
    r.logged_at,
    r.score,
    r.success,
    r.cause,
    r.n_claims,
    r.n_yes,
    r.n_no,
    r.n_idk,
    w.weakest_support,
    r.input,
    r.actual_output,
    r.reason,
    r.segments
FROM case_results(
    threshold := threshold, penalize_ambiguous := penalize_ambiguous, since := since, until := until
) AS r
LEFT JOIN weakest AS w USING (config_id, case_id)
WHERE r.status = 'scored'
QUALIFY rank <= n
ORDER BY r.config_id, rank;

-- The text of each passage of each config: its truths joined in order.
CREATE OR REPLACE VIEW passages AS
SELECT
    t.config_id,
    t.passage_id,
    count(*) AS n_truths,
    string_agg(t.truth, ' ' ORDER BY t.truth_index) AS passage
FROM truths AS t
GROUP BY t.config_id, t.passage_id;

-- The n claims most often judged `no` per config, with the passages their cases read most.
CREATE OR REPLACE MACRO contradicted_claims(
    n := 20, passages := 3, since := NULL, until := NULL
) AS TABLE
WITH hits AS (
    SELECT v.config_id, v.claim, v.case_id, c.logged_at, c.passage_ids
    FROM claim_verdicts AS v
    JOIN case_scores AS c USING (config_id, case_id)
    WHERE v.verdict = 'no'
      AND (since IS NULL OR c.logged_at >= CAST(since AS DATE))
      AND (until IS NULL OR c.logged_at < CAST(until AS DATE) + INTERVAL 1 DAY)
),
cited AS (
    SELECT h.config_id, h.claim, u.passage_id, count(DISTINCT h.case_id) AS cases
    FROM hits AS h
    CROSS JOIN unnest(h.passage_ids) AS u(passage_id)
    GROUP BY h.config_id, h.claim, u.passage_id
),
claims AS (
    SELECT
        h.config_id,
        h.claim,
        count(*) AS times,
        count(DISTINCT h.case_id) AS cases,
        max(h.logged_at) AS last_logged_at,
        min(h.case_id) AS example_case_id
    FROM hits AS h
    GROUP BY h.config_id, h.claim
),
ranked AS (
    SELECT
        row_number() OVER (
            PARTITION BY k.config_id ORDER BY k.times DESC, k.cases DESC, k.claim
        ) AS rank,
        k.*
    FROM claims AS k
    QUALIFY rank <= n
)
SELECT
    r.*,
    coalesce(
        (SELECT list(p.passage ORDER BY t.cases DESC, t.passage_id)[1:passages]
         FROM cited AS t
         JOIN passages AS p ON p.config_id = t.config_id AND p.passage_id = t.passage_id
         WHERE t.config_id = r.config_id AND t.claim = r.claim),
        []
    ) AS passages
FROM ranked AS r
ORDER BY r.config_id, r.rank;

-- The n passages read by the most cases with a contradicted claim, per config. A `no` verdict
-- is judged against all the truths of a case, so each of its passages is counted.
CREATE OR REPLACE MACRO contradicted_passages(n := 20, since := NULL, until := NULL) AS TABLE
WITH reads AS (
    SELECT c.config_id, u.passage_id, c.case_id, c.n_no
    FROM case_scores AS c, unnest(c.passage_ids) AS u(passage_id)
    WHERE c.status = 'scored'
      AND (since IS NULL OR c.logged_at >= CAST(since AS DATE))
      AND (until IS NULL OR c.logged_at < CAST(until AS DATE) + INTERVAL 1 DAY)
),
counts AS (
    SELECT
        r.config_id,
        r.passage_id,
        count(DISTINCT r.case_id) AS cases,
        count(DISTINCT r.case_id) FILTER (WHERE r.n_no > 0) AS contradicted_cases,
        CAST(coalesce(sum(r.n_no), 0) AS BIGINT) AS contradicted_claims  -- sum(): HUGEINT
    FROM reads AS r
    GROUP BY r.config_id, r.passage_id
)
SELECT
    row_number() OVER (
        PARTITION BY k.config_id
        ORDER BY k.contradicted_cases DESC, k.contradicted_claims DESC, k.passage_id
    ) AS rank,
    k.config_id,
    k.passage_id,
    p.passage,
    k.cases,
    k.contradicted_cases,
    k.contradicted_cases / k.cases::DOUBLE AS contradiction_rate,
    k.contradicted_claims
FROM counts AS k
LEFT JOIN passages AS p ON p.config_id = k.config_id AND p.passage_id = k.passage_id
WHERE k.contradicted_cases > 0
QUALIFY rank <= n
ORDER BY k.config_id, rank;

-- The scored cases (same case_id and content) of two configs, side by side.
CREATE OR REPLACE MACRO config_pairs(
    config_a, config_b, threshold := NULL, penalize_ambiguous := NULL,
    since := NULL, until := NULL
) AS TABLE
WITH results AS (
    FROM case_results(
        threshold := threshold, penalize_ambiguous := penalize_ambiguous,
        since := since, until := until
    )
    WHERE status = 'scored'
)
SELECT
    a.case_id,
    a.logged_at,
    a.score AS score_a,
    b.score AS score_b,
    a.success AS success_a,
    b.success AS success_b,
    a.cause AS cause_a,
    b.cause AS cause_b,
    a.actual_output
FROM results AS a
JOIN results AS b ON a.case_id = b.case_id AND a.content_hash = b.content_hash
WHERE a.config_id = config_a AND b.config_id = config_b
ORDER BY a.case_id;

-- Agreement of two configs on the cases both scored: success agreement, Cohen's kappa,
-- mean absolute score difference.
CREATE OR REPLACE MACRO config_agreement(
    config_a, config_b, threshold := NULL, penalize_ambiguous := NULL,
    since := NULL, until := NULL
) AS TABLE
WITH pairs AS (
    FROM config_pairs(
        config_a, config_b, threshold := threshold, penalize_ambiguous := penalize_ambiguous,
        since := since, until := until
    )
),
counts AS (
    SELECT
        count(*) AS cases,
        count(*) FILTER (WHERE p.success_a = p.success_b) AS agreed,
        count(*) FILTER (WHERE p.success_a AND p.success_b) AS both_passed,
        count(*) FILTER (WHERE NOT p.success_a AND NOT p.success_b) AS both_failed,
        count(*) FILTER (WHERE p.success_a AND NOT p.success_b) AS only_a_passed,
        count(*) FILTER (WHERE NOT p.success_a AND p.success_b) AS only_b_passed,
        avg(abs(p.score_a - p.score_b)) AS mean_abs_score_diff
    FROM pairs AS p
),
rates AS (
    SELECT
        k.*,
        CASE WHEN k.cases > 0 THEN k.agreed / k.cases::DOUBLE END AS agreement_rate,
        CASE WHEN k.cases > 0 THEN
            ((k.both_passed + k.only_a_passed) / k.cases::DOUBLE)
            * ((k.both_passed + k.only_b_passed) / k.cases::DOUBLE)
            + ((k.both_failed + k.only_b_passed) / k.cases::DOUBLE)
            * ((k.both_failed + k.only_a_passed) / k.cases::DOUBLE)
        END AS expected_agreement
    FROM counts AS k
)
SELECT
    config_a AS config_a,
    config_b AS config_b,
    r.cases,
    r.agreed,
    r.agreement_rate,
    r.both_passed,
    r.both_failed,
    r.only_a_passed,
    r.only_b_passed,
    CASE WHEN r.expected_agreement < 1
        THEN (r.agreement_rate - r.expected_agreement) / (1 - r.expected_agreement)
    END AS kappa,
    r.mean_abs_score_diff
FROM rates AS r;

-- Scores per config in `bins` equal-width bins of [0, 1] (a score of 1 falls in the last).
CREATE OR REPLACE MACRO score_histogram(
    bins := 10, threshold := NULL, penalize_ambiguous := NULL, since := NULL, until := NULL
) AS TABLE
WITH results AS (
    SELECT r.config_id, least(floor(r.score * bins), bins - 1)::INTEGER AS bin
    FROM case_results(
        threshold := threshold, penalize_ambiguous := penalize_ambiguous,
        since := since, until := until
    ) AS r
    WHERE r.status = 'scored' AND r.score IS NOT NULL  -- least() would put NULL in the last bin
),
grid AS (
    SELECT c.config_id, g.bin::INTEGER AS bin
    FROM (SELECT DISTINCT config_id FROM results) AS c, range(bins) AS g(bin)
)
SELECT
    g.config_id,
    g.bin,
    g.bin / bins::DOUBLE AS bin_low,
    (g.bin + 1) / bins::DOUBLE AS bin_high,
    count(r.bin) AS cases
FROM grid AS g
LEFT JOIN results AS r ON r.config_id = g.config_id AND r.bin = g.bin
GROUP BY g.config_id, g.bin
ORDER BY g.config_id, g.bin;

-- The segment columns present, per config, with how many cases carry each.
CREATE OR REPLACE VIEW segment_columns AS
SELECT c.config_id, k.segment, count(*) AS cases
FROM case_scores AS c, unnest(json_keys(c.segments)) AS k(segment)
GROUP BY c.config_id, k.segment
ORDER BY c.config_id, k.segment;

-- One row a metric config: its settings, its cases, the time they span and its latest run.
-- Dry runs scored nothing: a config only dry-run is no metric config yet. A config whose runs
-- scored no case (all quarantined) takes its settings from its latest run's config.
CREATE OR REPLACE VIEW metric_configs AS
WITH cases AS (
    SELECT
        c.config_id,
        max(c.threshold) AS threshold,
        bool_or(c.penalize_ambiguous_claims) AS penalize_ambiguous_claims,
        bool_or(c.strict_mode) AS strict_mode,
        count(*) AS cases,
        count(*) FILTER (WHERE c.status = 'scored') AS scored,
        count(*) FILTER (WHERE c.status = 'invalid') AS invalid,
        count(*) FILTER (WHERE c.status = 'pending') AS pending,
        min(c.logged_at) AS first_logged_at,
        max(c.logged_at) AS last_logged_at
    FROM case_scores AS c
    GROUP BY c.config_id
),
latest AS (
    SELECT
        r.config_id,
        count(*) AS runs,
        max(r.started_at) AS last_run_at,
        arg_max(r.config, r.started_at) AS config
    FROM runs AS r
    WHERE NOT coalesce(r.dry_run, false)
    GROUP BY r.config_id
)
SELECT
    coalesce(c.config_id, l.config_id) AS config_id,
    -- runs.config is JSON written by the flows; a judge without a kind or model shows NULL
    json_extract_string(l.config, '$.judge.kind') || ':'
        || json_extract_string(l.config, '$.judge.model') AS judge,
    coalesce(c.threshold, CAST(json_extract(l.config, '$.threshold') AS DOUBLE)) AS threshold,
    coalesce(
        c.penalize_ambiguous_claims,
        CAST(json_extract(l.config, '$.penalize_ambiguous_claims') AS BOOLEAN)
    ) AS penalize_ambiguous_claims,
    coalesce(c.strict_mode, CAST(json_extract(l.config, '$.strict_mode') AS BOOLEAN))
        AS strict_mode,
    coalesce(c.cases, 0) AS cases,
    coalesce(c.scored, 0) AS scored,
    coalesce(c.invalid, 0) AS invalid,
    coalesce(c.pending, 0) AS pending,
    c.first_logged_at,
    c.last_logged_at,
    coalesce(l.runs, 0) AS runs,
    l.last_run_at,
    l.config
FROM cases AS c
FULL JOIN latest AS l ON l.config_id = c.config_id
ORDER BY config_id;

-- Agreement over time, per metric config: one row a check, with the change since the previous
-- check of the same config on the same golden set whose agreement is known (an incomplete
-- check's is NULL), and the run's status and warning.
CREATE OR REPLACE VIEW judge_agreement AS
SELECT
    c.config_id,
    CAST(c.checked_at AS DATE) AS day,
    c.checked_at,
    c.run_id,
    r.flow,
    r.status AS run_status,
    c.golden_hash,
    c.cases,
    c.items,
    c.agreed,
    c.agreement,
    c.agreement - lag(c.agreement IGNORE NULLS) OVER (
        PARTITION BY c.config_id, c.golden_hash ORDER BY c.checked_at
    ) AS change,
    c.floor,
    c.passed,
    r.warning
FROM judge_checks AS c
LEFT JOIN runs AS r USING (run_id)
ORDER BY c.config_id, c.checked_at;

-- conversation_results(threshold, penalize_ambiguous, since, until): one row a conversation and
-- config, over case_results: the turns logged within since/until, each passing at threshold and
-- penalize_ambiguous (all NULL: as stored). Every case whose segments name a conversation_id
-- not blank (each assistant turn of a turns table or chat log; a cases table's conversation_id
-- segment too). A turn passes when it is scored and passes; an invalid or pending turn neither passes
-- nor fails, and is counted apart. `all_pass`: at least one turn scored, and every scored turn
-- passes. `first_failing_turn`: the earliest scored turn that fails (by turn, then logged_at),
-- NULL when none does; `first_failing_case_id` its case.
CREATE OR REPLACE MACRO conversation_results(
    threshold := NULL, penalize_ambiguous := NULL, since := NULL, until := NULL
) AS TABLE
WITH turns AS (
    SELECT r.config_id,
           json_extract_string(r.segments, '$.conversation_id') AS conversation_id,
           TRY_CAST(json_extract_string(r.segments, '$.turn') AS BIGINT) AS turn,
           r.case_id, r.logged_at, r.status, r.score, r.success
    FROM case_results(
        threshold := threshold, penalize_ambiguous := penalize_ambiguous,
        since := since, until := until
    ) AS r
    -- a blank id ('' as an export writes a missing one) names no conversation, as null
    WHERE trim(json_extract_string(r.segments, '$.conversation_id')) <> ''
)
SELECT config_id,
       conversation_id,
       count(*) AS turns,
       count(*) FILTER (WHERE status = 'scored') AS turns_scored,
       count(*) FILTER (WHERE status = 'invalid') AS turns_invalid,
       count(*) FILTER (WHERE status = 'pending') AS turns_pending,
       avg(score) FILTER (WHERE status = 'scored') AS mean_score,
       min(score) FILTER (WHERE status = 'scored') AS min_score,
       avg(CAST(success AS DOUBLE)) FILTER (WHERE status = 'scored') AS share_passing,
       coalesce(bool_and(success) FILTER (WHERE status = 'scored'), false) AS all_pass,
       arg_min(turn, [coalesce(turn, 0), epoch_us(logged_at)])
           FILTER (WHERE status = 'scored' AND NOT success) AS first_failing_turn,
       arg_min(case_id, [coalesce(turn, 0), epoch_us(logged_at)])
           FILTER (WHERE status = 'scored' AND NOT success) AS first_failing_case_id,
       min(logged_at) AS first_logged_at,
       max(logged_at) AS last_logged_at
FROM turns
GROUP BY config_id, conversation_id;

-- conversation_scores (first made by migration 016): conversation_results as stored, every
-- turn scored so far, each at its own config's settings (a NaN score is no score).
CREATE OR REPLACE VIEW conversation_scores AS SELECT * FROM conversation_results();

-- faith compare's macros (first made by migration 017, docs/compare.md).
-- A side is a config (a_config / b_config), a value of one segment column (segment, a, b) and a
-- window of days (since / until for both, a_since ... b_until for one side; dates inclusive).
-- A config not given is the one whose newest scored case is the newest (invalid and pending
-- cases are no score); b_config defaults to a_config.
-- Sides that differ by config only (the same segment value and days, or none) hold the same
-- cases: compared case by case (paired, joined on case_id and content_hash). Sides of
-- different segment values or days hold different cases, whatever their configs (unpaired). Sides that differ in nothing
-- hold the same cases too (paired; `faith compare` refuses them: nothing to compare). Only
-- scored cases count. Differences are B minus A.

-- Two-sided tail of the standard normal at |z| (Abramowitz & Stegun 7.1.26, error < 1.5e-7).
CREATE OR REPLACE MACRO normal_two_sided_p(z) AS
    (WITH t AS (SELECT 1.0 / (1.0 + 0.3275911 * abs(z) / sqrt(2.0)) AS t)
     SELECT least(1.0, (((((1.061405429 * t.t - 1.453152027) * t.t + 1.421413741) * t.t
              - 0.284496736) * t.t + 0.254829592) * t.t) * exp(-(z * z) / 2.0))
     FROM t);

-- Whether two sides hold the same cases (compared case by case): the same segment value, or
-- none, and the same days; their configs may differ. compare_cases, compare_pass_rates and
-- compare_scores read it, so the three agree on what is paired.
CREATE OR REPLACE MACRO compare_sides_paired(a, b, a_since, a_until, b_since, b_until) AS
    CAST(a AS VARCHAR) IS NOT DISTINCT FROM CAST(b AS VARCHAR)
        AND CAST(a_since AS DATE) IS NOT DISTINCT FROM CAST(b_since AS DATE)
        AND CAST(a_until AS DATE) IS NOT DISTINCT FROM CAST(b_until AS DATE);

-- One row a compared case: both sides' score and success when paired, one side's otherwise.
CREATE OR REPLACE MACRO compare_cases(
    a_config := NULL, b_config := NULL, segment := NULL, a := NULL, b := NULL,
    since := NULL, until := NULL, a_since := NULL, a_until := NULL,
    b_since := NULL, b_until := NULL, threshold := NULL, penalize_ambiguous := NULL
) AS TABLE
WITH latest AS (
    -- of the scored cases: a config whose cases all came back invalid or pending has nothing
    -- to compare, and is not the default a side is read under
    SELECT first(c.config_id ORDER BY c.scored_at DESC) AS config_id
    FROM case_scores AS c
    WHERE c.status = 'scored'
),
sides AS (
    SELECT
        coalesce(a_config, l.config_id) AS a_cfg,
        coalesce(b_config, a_config, l.config_id) AS b_cfg,
        CAST(coalesce(a_since, since) AS DATE) AS a_from,
        CAST(coalesce(a_until, until) AS DATE) AS a_to,
        CAST(coalesce(b_since, since) AS DATE) AS b_from,
        CAST(coalesce(b_until, until) AS DATE) AS b_to,
        compare_sides_paired(
            a, b, coalesce(a_since, since), coalesce(a_until, until),
            coalesce(b_since, since), coalesce(b_until, until)
        ) AS paired,
        -- what `faith compare` refuses (exit 2) is an error here too: a value without its
        -- column selected no case, a column without its values was ignored (every case
        -- compared), one value against every case counted its cases on both sides
        CASE
            WHEN segment IS NULL AND (a IS NOT NULL OR b IS NOT NULL)
                THEN error('a and b are values of a segment column: give segment too')
            WHEN segment IS NOT NULL AND (a IS NULL OR b IS NULL)
                THEN error('segment needs the two values to compare: give a and b (or leave '
                           || 'segment out to compare every case)')
            ELSE false
        END AS refused
    FROM latest AS l
),
results AS (
    SELECT
        r.config_id, r.case_id, r.content_hash, r.logged_at, r.score, r.success, r.segments
    FROM case_results(threshold := threshold, penalize_ambiguous := penalize_ambiguous) AS r
    WHERE r.status = 'scored'
),
side_a AS (
    SELECT r.case_id, r.content_hash, r.score, r.success
    FROM results AS r, sides AS s
    WHERE r.config_id = s.a_cfg
      AND (a IS NULL OR json_extract_string(
          r.segments, '/' || replace(replace(segment, '~', '~0'), '/', '~1')
      ) = CAST(a AS VARCHAR))
      AND (s.a_from IS NULL OR r.logged_at >= s.a_from)
      AND (s.a_to IS NULL OR r.logged_at < s.a_to + INTERVAL 1 DAY)
),
side_b AS (
    SELECT r.case_id, r.content_hash, r.score, r.success
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
-- a pair is one case with the same content on both sides (as config_pairs): a case re-delivered
-- with another answer and scored again under one config only is no pair, its change no judge's
FROM side_a AS x JOIN side_b AS y ON x.case_id = y.case_id AND x.content_hash = y.content_hash
WHERE (SELECT s.paired FROM sides AS s)
UNION ALL
SELECT x.case_id, x.score, x.success, NULL, NULL, false
FROM side_a AS x WHERE NOT (SELECT s.paired FROM sides AS s)
UNION ALL
SELECT y.case_id, NULL, NULL, y.score, y.success, false
FROM side_b AS y WHERE NOT (SELECT s.paired FROM sides AS s)
-- the check in a branch of its own, which always runs: in `paired` it never did, as the
-- filter reading it is skipped when a side is empty (and a value without its column empties it)
UNION ALL
SELECT NULL, NULL, NULL, NULL, NULL, NULL FROM sides AS s WHERE s.refused;

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
        -- what the options say, as compare_cases' sides: two configs that share no case are
        -- still sides paired by case (pairs 0, no interval), not an unpaired comparison
        coalesce(
            bool_or(c.paired),
            compare_sides_paired(
                a, b, coalesce(a_since, since), coalesce(a_until, until),
                coalesce(b_since, since), coalesce(b_until, until)
            )
        ) AS paired,
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
        -- a difference of two rates lies in [-1, 1]: the Wald step of Agresti-Min overshoots it
        -- on a few discordant pairs ([-1.18, 0.51] for one pair); no pair is no interval
        WHEN r.paired AND r.pairs = 0 THEN NULL
        WHEN r.paired THEN greatest(-1.0, ((r.b_only + 0.5) - (r.a_only + 0.5)) / r.n_adj
            - z * sqrt((r.a_only + r.b_only + 1.0)
                       - ((r.b_only + 0.5) - (r.a_only + 0.5)) ^ 2 / r.n_adj) / r.n_adj)
        WHEN r.n_a > 0 AND r.n_b > 0
            THEN (r.rate_b - r.rate_a)
            - sqrt((r.rate_b - r.low_b) ^ 2 + (r.high_a - r.rate_a) ^ 2)
    END AS ci_low,
    CASE
        WHEN r.paired AND r.pairs = 0 THEN NULL
        WHEN r.paired THEN least(1.0, ((r.b_only + 0.5) - (r.a_only + 0.5)) / r.n_adj
            + z * sqrt((r.a_only + r.b_only + 1.0)
                       - ((r.b_only + 0.5) - (r.a_only + 0.5)) ^ 2 / r.n_adj) / r.n_adj)
        WHEN r.n_a > 0 AND r.n_b > 0
            THEN (r.rate_b - r.rate_a)
            + sqrt((r.high_b - r.rate_b) ^ 2 + (r.rate_a - r.low_a) ^ 2)
    END AS ci_high,
    CASE
        WHEN r.paired AND r.pairs = 0 THEN NULL
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
        coalesce(  -- as compare_pass_rates: paired by what the options say when no case is
            bool_or(c.paired),
            compare_sides_paired(
                a, b, coalesce(a_since, since), coalesce(a_until, until),
                coalesce(b_since, since), coalesce(b_until, until)
            )
        ) AS paired,
        count(c.a_score) AS n_a,
        avg(c.a_score) AS mean_a,
        var_samp(c.a_score) AS var_a,
        count(c.b_score) AS n_b,
        avg(c.b_score) AS mean_b,
        var_samp(c.b_score) AS var_b,
        count(*) FILTER (WHERE c.paired) AS pairs,
        -- paired: of the pairs with both scores (a NaN score is none), as the bootstrap
        count(c.b_score - c.a_score) AS n_diff,
        avg(c.b_score - c.a_score) AS mean_diff,
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
        CASE WHEN k.paired THEN k.mean_diff ELSE k.mean_b - k.mean_a END AS diff,
        CASE WHEN k.paired THEN sqrt(k.var_diff / k.n_diff)
             ELSE sqrt(k.var_a / k.n_a + k.var_b / k.n_b) END AS se
    FROM k
)
SELECT
    s.paired, s.n_a, s.mean_a, s.n_b, s.mean_b, s.pairs, s.diff,
    -- scores lie in [0, 1], so their difference in [-1, 1]: a normal interval of a few cases
    -- reaches past it (two pairs moving by -1 and 0: [-1.48, 0.48]). No spread (one case a
    -- side, one pair) is no interval: NULL, as greatest and least would skip it ([-1, 1])
    CASE WHEN s.se IS NOT NULL THEN greatest(-1.0, s.diff - z * s.se) END AS ci_low,
    CASE WHEN s.se IS NOT NULL THEN least(1.0, s.diff + z * s.se) END AS ci_high
FROM s;
