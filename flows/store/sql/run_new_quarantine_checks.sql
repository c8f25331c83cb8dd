-- The checks of the rows a run quarantined for the first time, most frequent first:
-- `quarantine.run_id` is the first run that quarantined a row; the checks in $excluding are
-- left out.
SELECT "check", count(DISTINCT row_key) AS "rows" FROM quarantine
WHERE run_id = $run_id AND NOT list_contains(CAST($excluding AS VARCHAR[]), "check")
GROUP BY "check"
ORDER BY "rows" DESC, "check"
LIMIT $limit;
