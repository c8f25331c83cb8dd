-- Remember the structured-output mode an endpoint and model answered.
INSERT OR REPLACE INTO judge_formats (endpoint_key, model, response_format, checked_at)
VALUES ($endpoint_key, $model, $response_format, $now);
