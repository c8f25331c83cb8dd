-- `faith report`: the latest runs' judge spend and cost, per run and per 1,000 cases judged
-- (newly scored, invalid or pending); a dry run's figures are its estimate.
SELECT run_id, flow, config_id, status, coalesce(dry_run, false) AS dry_run, started_at,
       rows_newly_scored + rows_invalid + rows_pending AS cases_judged,
       judge_calls, prompt_tokens, completion_tokens, cost_usd,
       cost_usd * 1000 / nullif(rows_newly_scored + rows_invalid + rows_pending, 0)
           AS cost_per_1000
FROM runs
ORDER BY started_at DESC
LIMIT $n;
