-- The LLM judge's structured-output mode and estimated-token calls, on its run's row.
UPDATE runs SET judge_response_format = $response_format, judge_tokens_estimated = $estimated
WHERE run_id = $run_id;
