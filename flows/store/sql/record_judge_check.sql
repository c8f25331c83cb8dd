-- A run's golden-set check and its items; run in one transaction with mark_run_warning.
INSERT INTO judge_checks (
    run_id, config_id, golden, golden_hash, checked_at, cases, cases_invalid, cases_pending,
    items, agreed, agreement, floor, passed, seconds, judge_calls, prompt_tokens,
    completion_tokens
)
VALUES (
    $run_id, $config_id, $golden, $golden_hash, $checked_at, $cases, $cases_invalid,
    $cases_pending, $items, $agreed, $agreement, $floor, $passed, $seconds, $judge_calls,
    $prompt_tokens, $completion_tokens
);

INSERT INTO judge_check_verdicts BY NAME
SELECT $run_id AS run_id, * FROM check_items;
