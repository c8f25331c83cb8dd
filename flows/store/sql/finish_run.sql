UPDATE runs SET
    status        = $status,
    finished_at   = $now,
    heartbeat_at  = $now,
    seconds_total = $seconds_total,
    error         = $error,
    -- NULL while a price is unknown (009_judge_cost.sql)
    cost_usd      = (prompt_tokens * price_input_usd + completion_tokens * price_output_usd) / 1e6
WHERE run_id = $run_id;
