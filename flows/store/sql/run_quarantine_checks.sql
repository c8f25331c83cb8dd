-- The checks a run's quarantined rows failed, most frequent first.
SELECT "check", "rows" FROM run_quarantine_checks
WHERE run_id = $run_id
ORDER BY "rows" DESC, "check"
LIMIT $limit;
