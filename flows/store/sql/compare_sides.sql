-- `faith compare`: the configs the two sides resolve to (as compare_cases resolves them).
SELECT
    coalesce($a_config, first(c.config_id ORDER BY c.scored_at DESC)) AS a_config,
    coalesce($b_config, $a_config, first(c.config_id ORDER BY c.scored_at DESC)) AS b_config
FROM case_scores AS c
WHERE c.status = 'scored';
