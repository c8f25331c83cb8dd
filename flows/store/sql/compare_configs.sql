-- `faith compare`: the configs with scored cases, latest first, for an error that lists them.
SELECT config_id FROM case_scores WHERE status = 'scored'
GROUP BY config_id
ORDER BY max(scored_at) DESC, config_id;
