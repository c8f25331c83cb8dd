-- A finished batch, read: the errors its items were answered with, then its totals.
UPDATE judge_batch_items AS i SET error = e.error
FROM (
    SELECT unnest($error_custom_id::VARCHAR[]) AS custom_id,
           unnest($error_position::INTEGER[]) AS position,
           unnest($error_text::VARCHAR[]) AS error
) AS e
WHERE i.batch_id = $batch_id AND i.custom_id = e.custom_id AND i.position = e.position;

UPDATE judge_batches SET
    items_answered    = $items_answered,
    items_failed      = $items_failed,
    prompt_tokens     = $prompt_tokens,
    completion_tokens = $completion_tokens,
    collected_at      = $now
WHERE batch_id = $batch_id;
