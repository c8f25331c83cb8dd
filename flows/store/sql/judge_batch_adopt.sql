-- A batch recorded as `submitting` (under its placeholder id) gets the id the server gave it,
-- with its items, in one transaction.
UPDATE judge_batches SET batch_id = $batch_id, state = $state, checked_at = $now
WHERE batch_id = $placeholder;

UPDATE judge_batch_items SET batch_id = $batch_id WHERE batch_id = $placeholder;
