-- Batches of this endpoint still waited for, oldest first; of one model and judge config, or
-- (NULL) of any (`faith batches --refresh`).
SELECT batch_id, submitted_at, state
FROM judge_batches
WHERE collected_at IS NULL AND endpoint = $endpoint
  AND ($model::VARCHAR IS NULL OR model = $model)
  AND ($config::VARCHAR IS NULL OR config = $config)
ORDER BY submitted_at, batch_id;
