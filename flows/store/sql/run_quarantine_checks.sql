-- The checks a run's quarantined rows failed, most frequent first, but those in $excluding.
SELECT "check", "rows" FROM run_quarantine_checks
WHERE run_id = $run_id AND NOT list_contains(CAST($excluding AS VARCHAR[]), "check")
ORDER BY "rows" DESC, "check"
LIMIT $limit;
