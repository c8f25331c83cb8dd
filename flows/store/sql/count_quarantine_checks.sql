-- A batch's quarantined rows counted by the check they failed, added to the run's counts
-- (a dry run's too: it keeps no quarantine rows, yet names the checks its source fails).
INSERT INTO run_quarantine_checks AS r
SELECT $run_id AS run_id, "check", count(DISTINCT row_key) AS "rows"
FROM new_quarantine GROUP BY "check"
ON CONFLICT (run_id, "check") DO UPDATE SET "rows" = r."rows" + excluded."rows";
