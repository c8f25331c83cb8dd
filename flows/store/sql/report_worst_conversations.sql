-- The conversations whose turns fail most (lowest minimum turn score, then share passing),
-- each with its first failing turn: what the user asked, what the bot answered, and the
-- claims that were not supported. Read-only; every value a bound parameter.
-- As conversation_scores (analysis.sql), but over the report's window and settings: the turns
-- logged within --since/--until, success at --threshold/--penalize-ambiguous (case_results),
-- as every other section of the report; the view itself reads every turn as it was scored.
WITH turns AS (
    SELECT r.config_id,
           json_extract_string(r.segments, '$.conversation_id') AS conversation_id,
           TRY_CAST(json_extract_string(r.segments, '$.turn') AS BIGINT) AS turn,
           r.case_id, r.logged_at, r.status, r.score, r.success, r.input, r.actual_output
    FROM case_results(
        threshold := $threshold, penalize_ambiguous := $penalize_ambiguous,
        since := $since, until := $until
    ) AS r
    WHERE json_extract_string(r.segments, '$.conversation_id') IS NOT NULL
),
conversations AS (
    SELECT config_id,
           conversation_id,
           count(*) AS turns,
           count(*) FILTER (WHERE status = 'scored') AS turns_scored,
           avg(score) FILTER (WHERE status = 'scored') AS mean_score,
           min(score) FILTER (WHERE status = 'scored') AS min_score,
           avg(CAST(success AS DOUBLE)) FILTER (WHERE status = 'scored') AS share_passing,
           coalesce(bool_and(success) FILTER (WHERE status = 'scored'), false) AS all_pass,
           arg_min(turn, [coalesce(turn, 0), epoch_us(logged_at)])
               FILTER (WHERE status = 'scored' AND NOT success) AS first_failing_turn,
           arg_min(case_id, [coalesce(turn, 0), epoch_us(logged_at)])
               FILTER (WHERE status = 'scored' AND NOT success) AS first_failing_case_id
    FROM turns
    GROUP BY config_id, conversation_id
),
worst AS (
    SELECT *
    FROM conversations
    WHERE NOT all_pass AND first_failing_case_id IS NOT NULL
    ORDER BY min_score, share_passing, conversation_id
    LIMIT $limit
)
SELECT w.config_id, w.conversation_id, w.turns, w.turns_scored, w.mean_score, w.min_score,
       w.share_passing, w.first_failing_turn, w.first_failing_case_id, s.input,
       s.actual_output, s.score,
       (SELECT list(v.claim || ' [' || coalesce(v.verdict, 'dropped') || ']' ORDER BY v.claim_index)
        FROM claim_verdicts AS v
        WHERE v.config_id = s.config_id AND v.case_id = s.case_id
          AND coalesce(v.verdict, '') <> 'yes') AS failing_claims
FROM worst AS w
JOIN turns AS s
  ON s.config_id = w.config_id AND s.case_id = w.first_failing_case_id
ORDER BY w.min_score, w.share_passing, w.conversation_id
