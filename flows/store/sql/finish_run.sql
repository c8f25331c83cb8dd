UPDATE runs SET
    status        = $status,
    finished_at   = $now,
    heartbeat_at  = $now,
    seconds_total = $seconds_total,
    error         = $error
WHERE run_id = $run_id;
