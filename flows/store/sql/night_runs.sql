-- The runs whose cases are the night `faith nightly` run $run_id checks against its window:
-- itself, and the nightly runs of its config since the last one that was checked that never
-- reached their own judge check (killed, stopped or crashed after scoring). A re-run scores
-- none of their cases again, so without them a killed night's drop was never told.
WITH this_run AS (
    SELECT r.config_id, r.started_at FROM runs AS r WHERE r.run_id = $run_id
),
last_checked AS (
    SELECT max(r.started_at) AS at
    FROM runs AS r
    JOIN judge_checks AS j ON j.run_id = r.run_id
    JOIN this_run AS t ON r.config_id = t.config_id
    WHERE r.flow = 'nightly' AND r.run_id <> $run_id
)
SELECT r.run_id
FROM runs AS r, this_run AS t, last_checked AS l
WHERE r.run_id = $run_id
    OR (
        r.flow = 'nightly'
        AND r.config_id = t.config_id
        AND NOT coalesce(r.dry_run, false)
        AND r.started_at < t.started_at
        AND (l.at IS NULL OR r.started_at > l.at)
        AND NOT EXISTS (SELECT 1 FROM judge_checks AS j WHERE j.run_id = r.run_id)
    )
ORDER BY r.started_at;
