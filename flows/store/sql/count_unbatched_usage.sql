-- A stopped run's judge usage in all: the calls and tokens of the batch it did not commit too
-- (paid for, their answers in the reply cache, so the next run counts them as cached), never
-- below what its committed batches counted. `cost_usd` follows from the tokens (finish_run).
UPDATE runs SET
    judge_calls       = greatest(judge_calls, $calls),
    judge_cached      = greatest(judge_cached, $cached),
    judge_failed      = greatest(judge_failed, $failed),
    prompt_tokens     = greatest(prompt_tokens, $prompt_tokens),
    completion_tokens = greatest(completion_tokens, $completion_tokens)
WHERE run_id = $run_id;
