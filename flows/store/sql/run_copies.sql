-- How many of a run's quarantined rows were exact copies of rows read beside them ($copies:
-- the checks of re-delivered rows), from its counts by check (a dry run's too).
SELECT coalesce(sum("rows"), 0) FROM run_quarantine_checks
WHERE run_id = $run_id AND list_contains(CAST($copies AS VARCHAR[]), "check");
