-- Record one judge check (`faith judge-check`, the nightly preflight).
INSERT INTO judge_preflights
    (endpoint_key, model, judge, checked_at, usable, response_format, calls, seconds, scores, problem)
VALUES ($endpoint_key, $model, $judge, $now, $usable, $response_format, $calls, $seconds, $scores, $problem);
