-- `faith runs`: the newest runs, with the pass rate of the cases each scored and the share of
-- those it judged that ended invalid (a judge failing shows here first), and its cost.
-- A dry run judged nothing: its status says so and it has no pass rate or invalid share (its
-- `new` is the cases it would judge, its cost the estimate).
SELECT run_id, flow,
       CASE WHEN NOT coalesce(dry_run, false) THEN status
            WHEN status = 'completed' THEN 'dry run'
            ELSE 'dry run ' || status END AS status,
       strftime(started_at, '%Y-%m-%d %H:%M') AS started,
       round(seconds_total, 1) AS secs, rows_in AS "in", rows_scored AS scored,
       rows_newly_scored AS new, rows_invalid AS invalid, rows_pending AS pending,
       rows_quarantined AS quarantined,
       -- shares to 3 places, half up, in integers (as the run line's percent): round() of the
       -- double 17 / 80 = 0.21249999... gave 0.212 where the run line said 21.3%
       CASE WHEN NOT coalesce(dry_run, false)
            THEN ((2000 * rows_passed + rows_newly_scored)
                  // nullif(2 * rows_newly_scored, 0)) / 1000 END AS pass_rate,
       CASE WHEN NOT coalesce(dry_run, false)
            THEN ((2000 * rows_invalid + rows_newly_scored + rows_invalid)
                  // nullif(2 * (rows_newly_scored + rows_invalid), 0)) / 1000
            END AS invalid_share,
       judge_calls AS calls,
       -- issue 15: what the judge cost (NULL: no price known), a dry run's being its estimate
       round(cost_usd, 4) AS cost_usd,
       round(cost_usd * 1000 / nullif(rows_newly_scored + rows_invalid + rows_pending, 0), 4)
           AS cost_per_1000,
       coalesce(dry_run, false) AS dry_run,
       -- why it failed (`error`), else why it warned (`warning`): whitespace runs made one
       -- space, cut to 80 characters; the full text stays in `runs`
       CASE WHEN length(note) > 80 THEN left(note, 79) || '…' ELSE note END AS note
FROM (
    SELECT *, nullif(trim(regexp_replace(coalesce(error, warning), '\s+', ' ', 'g')), '') AS note
    FROM (
        -- a database made before migration 009 and only read since has no cost_usd or
        -- dry_run: by name, they are NULL there (as the report reads it), not a Binder Error
        SELECT * FROM runs
        UNION ALL BY NAME
        SELECT NULL::DOUBLE AS cost_usd, NULL::BOOLEAN AS dry_run WHERE false
    )
)
ORDER BY started_at DESC
LIMIT $limit;
