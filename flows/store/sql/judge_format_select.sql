-- The structured-output mode remembered for an endpoint and model (table judge_formats of 008).
SELECT response_format FROM judge_formats WHERE endpoint_key = $endpoint_key AND model = $model;
