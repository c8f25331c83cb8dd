-- Remember the judge mode an endpoint and model can use, with the check's latency.
INSERT OR REPLACE INTO judge_modes
    (endpoint_key, model, judge_mode, seconds_per_call, slowest_call, concurrency, checked_at)
VALUES ($endpoint_key, $model, $judge_mode, $seconds_per_call, $slowest_call, $concurrency, $now);
