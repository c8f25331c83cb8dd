-- faithpipe storage, version 16: conversations, scored turn by turn (docs/conversations.md).
-- One row a conversation and config: every case whose segments name a conversation_id (each
-- assistant turn of a turns table or chat log; a cases table's conversation_id segment too).
-- A turn passes when it is scored and its stored success is true; an invalid or pending turn
-- neither passes nor fails, and is counted apart. `all_pass`: at least one turn scored, and
-- every scored turn passes. `first_failing_turn`: the earliest scored turn that fails (by
-- turn, then logged_at), NULL when none does.
CREATE OR REPLACE VIEW conversation_scores AS
WITH turns AS (
    SELECT config_id,
           json_extract_string(segments, '$.conversation_id') AS conversation_id,
           TRY_CAST(json_extract_string(segments, '$.turn') AS BIGINT) AS turn,
           case_id, logged_at, status, score, success
    FROM case_scores
    WHERE json_extract_string(segments, '$.conversation_id') IS NOT NULL
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
