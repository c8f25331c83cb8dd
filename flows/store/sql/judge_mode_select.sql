-- The judge mode `faith judge-check` found for an endpoint and model (table judge_modes, 018).
SELECT judge_mode, seconds_per_call, slowest_call, concurrency, checked_at
FROM judge_modes
WHERE endpoint_key = $endpoint_key AND model = $model;
