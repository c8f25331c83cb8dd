-- Forget the scores of cases whose stored claims are not from their answer: the next run
-- scores them again (their judge_cache rows are dropped in the same transaction).
DELETE FROM claim_verdicts
WHERE (config_id, case_id) IN (
    SELECT (unnest($config_ids::VARCHAR[]), unnest($case_ids::VARCHAR[]))
);
DELETE FROM case_scores
WHERE (config_id, case_id) IN (
    SELECT (unnest($config_ids::VARCHAR[]), unnest($case_ids::VARCHAR[]))
);
