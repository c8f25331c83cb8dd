-- The --max-invalid-share a run was checked against (the report flags periods above it).
UPDATE runs SET max_invalid_share = $max_invalid_share WHERE run_id = $run_id;
