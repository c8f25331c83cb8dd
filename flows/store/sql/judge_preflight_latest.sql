-- The latest passed check of an endpoint, model and judge identity since $since.
SELECT checked_at, response_format
FROM judge_preflights
WHERE endpoint_key = $endpoint_key AND model = $model AND judge = $judge AND usable
  AND checked_at >= $since
ORDER BY checked_at DESC
LIMIT 1;
