-- Reply errors of batch items that have now made their cases invalid once: the next ask of
-- those items goes into a new batch.
UPDATE judge_batch_items AS i SET error_reported = true
FROM (
    SELECT unnest($batch_id::VARCHAR[]) AS batch_id, unnest($custom_id::VARCHAR[]) AS custom_id,
           unnest($position::INTEGER[]) AS position
) AS r
WHERE i.batch_id = r.batch_id AND i.custom_id = r.custom_id AND i.position = r.position;
