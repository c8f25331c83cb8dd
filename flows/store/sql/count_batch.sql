-- Add one committed batch's counts to its run; inside the batch's transaction.
UPDATE runs SET
    batches             = batches + 1,
    heartbeat_at        = $now,
    rows_in             = rows_in + $rows_in,
    rows_scored         = rows_scored + $rows_newly_scored + $rows_already_scored,
    rows_newly_scored   = rows_newly_scored + $rows_newly_scored,
    rows_already_scored = rows_already_scored + $rows_already_scored,
    rows_invalid        = rows_invalid + $rows_invalid,
    rows_invalid_again  = rows_invalid_again + $rows_invalid_again,
    rows_pending        = rows_pending + $rows_pending,
    rows_quarantined    = rows_quarantined + $rows_quarantined,
    rows_replaced       = rows_replaced + $rows_replaced,
    rows_passed         = rows_passed + $rows_passed,
    judge_calls         = judge_calls + $calls,
    judge_cached        = judge_cached + $cached,
    judge_failed        = judge_failed + $failed,
    prompt_tokens       = prompt_tokens + $prompt_tokens,
    completion_tokens   = completion_tokens + $completion_tokens,
    seconds_read        = seconds_read + $seconds_read,
    seconds_validate    = seconds_validate + $seconds_validate,
    seconds_score       = seconds_score + $seconds_score,
    seconds_write       = seconds_write + $seconds_write
WHERE run_id = $run_id;
