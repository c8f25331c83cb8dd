-- The --max-quarantine-share a run was checked against.
UPDATE runs SET max_quarantine_share = $max_quarantine_share WHERE run_id = $run_id;
