-- Among a list of cache keys, each key's latest batch item of this endpoint, model and judge
-- config: whether its batch is still waited for, the reply error it left, if any, and how many
-- of the key's batches were collected (the key lacks an answer: none of them brought one).
SELECT i.cache_key, b.batch_id, b.submitted_at, b.collected_at IS NULL AS waiting,
       i.custom_id, i.position, i.error, i.error_reported,
       count(*) FILTER (WHERE b.collected_at IS NOT NULL)
           OVER (PARTITION BY i.cache_key) AS unanswered
FROM judge_batch_items AS i
JOIN judge_batches AS b USING (batch_id)
WHERE i.cache_key IN (SELECT unnest($keys::VARCHAR[]))
  AND b.endpoint = $endpoint AND b.model = $model AND b.config = $config
QUALIFY row_number() OVER (
    PARTITION BY i.cache_key ORDER BY b.submitted_at DESC, b.batch_id DESC
) = 1;
