-- The conversations whose turns fail most (lowest minimum turn score, then share passing),
-- each with its first failing turn: what the user asked, what the bot answered, and the
-- claims that were not supported. Read-only; every value a bound parameter.
-- conversation_results and case_results at the report's window and settings (--since/--until,
-- --threshold/--penalize-ambiguous), as every other section of the report.
WITH worst AS (
    SELECT *
    FROM conversation_results(
        threshold := $threshold, penalize_ambiguous := $penalize_ambiguous,
        since := $since, until := $until
    )
    WHERE NOT all_pass AND first_failing_case_id IS NOT NULL
    ORDER BY min_score, share_passing, conversation_id
    LIMIT $limit
)
SELECT w.config_id, w.conversation_id, w.turns, w.turns_scored, w.mean_score, w.min_score,
       w.share_passing, w.first_failing_turn, w.first_failing_case_id, s.input,
       s.actual_output, s.score,
       (SELECT list({'claim': v.claim, 'verdict': coalesce(v.verdict, 'dropped')}
                    ORDER BY v.claim_index)
        FROM claim_verdicts AS v
        WHERE v.config_id = s.config_id AND v.case_id = s.case_id
          AND coalesce(v.verdict, '') <> 'yes') AS failing_claims
FROM worst AS w
JOIN case_results(
    threshold := $threshold, penalize_ambiguous := $penalize_ambiguous,
    since := $since, until := $until
) AS s
  ON s.config_id = w.config_id AND s.case_id = w.first_failing_case_id
ORDER BY w.min_score, w.share_passing, w.conversation_id
