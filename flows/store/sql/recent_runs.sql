-- `faith runs`: the newest runs, with the pass rate of the cases each scored and the share of
-- those it judged that ended invalid (a judge failing shows here first), and its cost.
SELECT run_id, flow, status, strftime(started_at, '%Y-%m-%d %H:%M') AS started,
       round(seconds_total, 1) AS secs, rows_in AS "in", rows_scored AS scored,
       rows_newly_scored AS new, rows_invalid AS invalid, rows_pending AS pending,
       rows_quarantined AS quarantined,
       round(rows_passed / nullif(rows_newly_scored, 0), 3) AS pass_rate,
       round(rows_invalid / nullif(rows_newly_scored + rows_invalid, 0), 3) AS invalid_share,
       judge_calls AS calls,
       -- issue 15: what the judge cost (NULL: no price known), a dry run's being its estimate
       round(cost_usd, 4) AS cost_usd,
       round(cost_usd * 1000 / nullif(rows_newly_scored + rows_invalid + rows_pending, 0), 4)
           AS cost_per_1000,
       coalesce(dry_run, false) AS dry_run
FROM runs
ORDER BY started_at DESC
LIMIT $limit;
