-- Rows a run quarantined for the first time: `quarantine` keeps the first run that
-- quarantined a row (its key is the row as read), so a row read again adds nothing.
SELECT count(DISTINCT row_key) FROM quarantine WHERE run_id = $run_id;
