-- `faith report`: per config, the --max-invalid-share its latest completed run was checked
-- against (009_judge_cost.sql); a period above it is flagged.
SELECT config_id, arg_max(max_invalid_share, started_at) AS max_invalid_share
FROM runs
WHERE status = 'completed' AND NOT coalesce(dry_run, false) AND max_invalid_share IS NOT NULL
GROUP BY config_id;
