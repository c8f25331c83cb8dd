SELECT run_id, flow, status, strftime(started_at, '%Y-%m-%d %H:%M') AS started,
       round(seconds_total, 1) AS secs, rows_in AS "in", rows_scored AS scored,
       rows_newly_scored AS new, rows_invalid AS invalid, rows_pending AS pending,
       rows_quarantined AS quarantined, judge_calls AS calls
FROM runs
ORDER BY started_at DESC
LIMIT $limit;
