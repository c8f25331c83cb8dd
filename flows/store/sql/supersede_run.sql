-- A run whose process is gone: superseded, with why in `error`. Its committed batches stay.
UPDATE runs SET
    status      = 'superseded',
    finished_at = $now,
    error       = $note
WHERE run_id = $run_id AND status = 'running';
