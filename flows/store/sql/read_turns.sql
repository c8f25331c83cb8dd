-- Conversations to cases: every assistant turn that answers (not a blank tool-call step) is a
-- case. Its input is the user turn before it; it may rely on its own passages, the passages
-- logged on the turns since the answer before it (its user turn's, a tool turn's, a tool-call
-- step's), the tool results since the turn before it, and the last $window turns with
-- content before it. The case's passages are those four in that order; `context_origins`
-- says where each came from ('passage' for the first two, 'tool', 'turn:<n>:<role>').
-- A turn is blank (no content) when null or nothing but white space and invisible characters
-- ($blank, the contract's rule: turns.py BLANK): trim() strips spaces alone, and a turn "\n"
-- became a blank passage, quarantining the answers after it (no_null_or_blank_passages).
WITH good AS (
    SELECT *, content IS NULL OR regexp_full_match(content, $blank) AS __blank
    FROM checked_turns WHERE __check IS NULL
),
marked AS (
    SELECT *,
           __role IN ('user', 'assistant', 'system')
               AND NOT __blank AS __eligible,
           -- coalesced: a conversation's last turn has no next one, and a NULL here
           -- would drop a blank closing answer instead of quarantining it
           __role = 'assistant' AND __blank
               AND coalesce(__tool_calls OR lead(__role) OVER w = 'tool', false) AS __tool_step
    FROM good
    WINDOW w AS (PARTITION BY __cid ORDER BY __turn)
),
numbered AS (
    SELECT *,
           __role = 'assistant' AND NOT __tool_step AS __is_case,
           coalesce(sum(CAST(__eligible AS INTEGER)) OVER before, 0) AS __before,
           sum(CAST(__eligible AS INTEGER)) OVER upto AS __k,
           coalesce(sum(CAST(__role = 'user' OR (__role = 'assistant' AND NOT __tool_step)
                             AS INTEGER)) OVER before, 0) AS __exchange,
           coalesce(sum(CAST(__role = 'assistant' AND NOT __tool_step AS INTEGER)) OVER before,
                    0) AS __answers,
           -- the latest user turn, even one with no text (an image alone): an earlier
           -- question is not what this turn answers
           last_value(CASE WHEN __role = 'user'
                           THEN CASE WHEN __blank
                                    THEN $no_user_text ELSE content END
                      END IGNORE NULLS) OVER before AS __input
    FROM marked
    WINDOW before AS (PARTITION BY __cid ORDER BY __turn
                      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING),
           upto AS (PARTITION BY __cid ORDER BY __turn ROWS UNBOUNDED PRECEDING)
),
cases AS (
    SELECT * FROM numbered WHERE __is_case
),
tools AS (
    SELECT c.__cid, c.__turn,
           list(t.content ORDER BY t.__turn) AS texts
    FROM cases AS c
    JOIN numbered AS t
      ON t.__cid = c.__cid AND t.__role = 'tool' AND t.__exchange = c.__exchange
     AND t.__turn < c.__turn AND NOT t.__blank
    GROUP BY ALL
),
-- passages logged on a turn that is no case (a user turn's, as a RAG app logs what it
-- retrieved for the question; a tool turn's, a tool-call step's): the next answer's, as a
-- tool result is (they were read for no case and dropped without a word); a passage the
-- answer logs too (an export repeating the exchange's passages on each row) is there once
carried AS (
    SELECT c.__cid, c.__turn,
           list_filter(flatten(list(t.retrieval_context ORDER BY t.__turn)),
                       lambda x: NOT list_contains(coalesce(c.retrieval_context, []), x))
               AS texts
    FROM cases AS c
    JOIN numbered AS t
      ON t.__cid = c.__cid AND NOT t.__is_case AND t.__own_passages
     AND t.__answers = c.__answers AND t.__turn < c.__turn
     AND len(t.retrieval_context) > 0
    GROUP BY c.__cid, c.__turn, c.retrieval_context
),
-- the latest user turn before each case, quarantined ones included whose place and role are
-- known (its content no text, its passages no list): a case after one answers it, so the
-- question before it is not its input (it was, though the docs say never)
-- (a turn with a sound copy beside a broken one is the sound one)
asked AS (
    SELECT __cid, __turn, bool_and(__check IS NOT NULL) AS __quarantined FROM checked_turns
    WHERE __role = 'user' AND __cid IS NOT NULL AND __cid <> '' AND __turn IS NOT NULL
      AND (__check IS NULL
           OR __check IN ('content_wrong_type', 'retrieval_context_not_a_list_of_strings'))
    GROUP BY __cid, __turn
),
questions AS (
    SELECT c.__cid, c.__turn, a.__quarantined AS __asked_quarantined
    FROM cases AS c
    ASOF JOIN asked AS a ON a.__cid = c.__cid AND c.__turn > a.__turn
),
-- each case's window by the numbers of the turns it holds (the eligible turns numbered
-- __before - $window + 1 to __before): an equality join, so a conversation of 200,000 turns
-- is read in seconds (a range join on __k compared every pair of its turns: 4 minutes)
wanted AS (
    SELECT __cid, __turn,
           unnest(range(CAST(greatest(__before - $window, 0) + 1 AS BIGINT),
                        CAST(__before + 1 AS BIGINT))) AS __want
    FROM cases
),
windows AS (
    SELECT c.__cid, c.__turn,
           list(e.content ORDER BY e.__turn) AS texts,
           list('turn:' || CAST(e.__turn AS VARCHAR) || ':' || e.__role ORDER BY e.__turn)
               AS origins
    FROM wanted AS c
    JOIN numbered AS e
      ON e.__cid = c.__cid AND e.__eligible AND e.__k = c.__want
    GROUP BY ALL
)
SELECT c.__cid || ':' || CAST(c.__turn AS VARCHAR) AS case_id,
       CASE WHEN q.__asked_quarantined THEN $user_quarantined
            ELSE coalesce(c.__input, $no_user_turn) END AS input,
       c.content AS actual_output,
       list_concat(coalesce(c.retrieval_context, []), coalesce(p.texts, []),
                   coalesce(t.texts, []), coalesce(w.texts, [])) AS retrieval_context,
       c.logged_at,
       c.__cid AS conversation_id,
       c.__turn AS turn,
       list_concat(list_transform(list_concat(coalesce(c.retrieval_context, []),
                                              coalesce(p.texts, [])), lambda x: 'passage'),
                   list_transform(coalesce(t.texts, []), lambda p: 'tool'),
                   coalesce(w.origins, [])) AS context_origins,
       c.* EXCLUDE (conversation_id, turn, role, content, retrieval_context, logged_at,
                    __tool_calls, __messages_bad, __messages_text, __rc_bad, __rc_text, __json,
                    __content_bad, __content_text,
                    __row, __cid, __cid_text, __turn, __role,
                    __check, __column, __value, __blank, __eligible, __tool_step, __is_case, __before,
                    __k, __exchange, __answers, __own_passages, __input, __faithpipe_file,
                    __cid_fallback, __too_large, __too_large_column, __too_large_value),
       c.__faithpipe_file
FROM cases AS c
LEFT JOIN questions AS q USING (__cid, __turn)
LEFT JOIN carried AS p USING (__cid, __turn)
LEFT JOIN tools AS t USING (__cid, __turn)
LEFT JOIN windows AS w USING (__cid, __turn)
ORDER BY c.__row
