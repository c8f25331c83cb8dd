-- A Dask run's judge calls made in the flow process before its partitions started (the items
-- more than one partition asks, flows/engines/shared_items.py): added to the run's counts
-- as they were paid, however the run ends. `cost_usd` follows from the tokens (finish_run).
UPDATE runs SET
    judge_calls       = judge_calls + $calls,
    judge_failed      = judge_failed + $failed,
    prompt_tokens     = prompt_tokens + $prompt_tokens,
    completion_tokens = completion_tokens + $completion_tokens
WHERE run_id = $run_id;
