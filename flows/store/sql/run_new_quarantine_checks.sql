-- The checks of the rows a run quarantined for the first time, most frequent first:
-- `quarantine.run_id` is the first run that quarantined a row.
SELECT "check", count(DISTINCT row_key) AS "rows" FROM quarantine
WHERE run_id = $run_id
GROUP BY "check"
ORDER BY "rows" DESC, "check"
LIMIT $limit;
