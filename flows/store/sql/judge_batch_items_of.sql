-- The items of one batch, by request line and place in its pack.
SELECT custom_id, position, stage, item, cache_key
FROM judge_batch_items
WHERE batch_id = $batch_id
ORDER BY custom_id, position;
