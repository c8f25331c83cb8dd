-- What the server said of a batch just now.
UPDATE judge_batches SET
    state          = $state,
    output_file_id = coalesce($output_file_id, output_file_id),
    error_file_id  = coalesce($error_file_id, error_file_id),
    error          = coalesce($error, error),
    checked_at     = $now
WHERE batch_id = $batch_id;
